#include "clawperator/io/payload_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/contract/limits.hpp"
#include "clawperator/text.hpp"
#include "clawperator/utf8.hpp"

namespace clawperator::io {
namespace {

using contract::HostError;

constexpr std::size_t kReadBlock = 64 * 1024;

// nlohmann's messages start with "[json.exception.parse_error.101] ": noise for users.
std::string parse_error_text(std::string_view text) {
  try {
    [[maybe_unused]] const Json parsed = Json::parse(text);
  } catch (const Json::exception& error) {
    std::string message = error.what();
    const auto close = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 && close != std::string::npos) {
      message.erase(0, close + 2);
    }
    return message;
  } catch (const std::exception& error) {
    return error.what();
  }
  return "unknown parse error";
}

HostError invalid_json(std::string message, std::string source, std::string parse_error) {
  Json details = Json::object();
  details["source"] = std::move(source);
  details["parseError"] = std::move(parse_error);
  HostError error = contract::validation_error("EXECUTION_VALIDATION_FAILED", std::move(message),
                                               std::move(details));
  // Not the catalog's "the field named in details.path": text that is no JSON has no field.
  error.hint = contract::hint_text(contract::HintId::FixPayloadJson, {});
  return error;
}

contract::Outcome<Json> parse_text(std::string_view text, const std::string& source,
                                   const std::string& prefix) {
  if (json_nesting_depth(text, contract::limits::kMaxJsonDepth) > contract::limits::kMaxJsonDepth) {
    HostError error = contract::validation_error(
        "JSON_TOO_DEEP", "The payload (" + source + ") nests deeper than " +
                             std::to_string(contract::limits::kMaxJsonDepth) + " levels");
    error.details["source"] = source;
    error.details["maxDepth"] = contract::limits::kMaxJsonDepth;
    return contract::failed(std::move(error));
  }
  Json parsed = Json::parse(text, nullptr, false);
  if (!parsed.is_discarded()) return parsed;
  const std::string error = parse_error_text(text);
  return contract::failed(
      invalid_json(prefix.empty() ? "Invalid JSON content" : prefix + ": " + error, source, error));
}

// Checked before parsing: the parser would refuse the byte without saying where it is, and
// nothing lenient further on may pass it to the device replaced.
contract::Status refuse_invalid_utf8(std::string_view bytes, const std::string& source,
                                     std::string_view path) {
  const auto offset = find_invalid_utf8(bytes);
  if (!offset) return {};
  Json details = Json::object();
  details["source"] = source;
  if (!path.empty()) details["file"] = std::string(path);
  details["path"] = "";
  details["byteOffset"] = *offset;
  return contract::failed(contract::validation_error(
      "EXECUTION_VALIDATION_FAILED",
      "Payload is not valid UTF-8 (" + describe_invalid_utf8(bytes, *offset) + ")",
      std::move(details)));
}

HostError too_large(const std::string& source, std::string_view path) {
  Json details = Json::object();
  details["source"] = source;
  if (!path.empty()) details["file"] = std::string(path);
  details["limitBytes"] = contract::limits::kMaxPayloadInputBytes;
  return contract::validation_error(
      "PAYLOAD_TOO_LARGE",
      "Payload input exceeds " + std::to_string(contract::limits::kMaxPayloadInputBytes) + " bytes",
      std::move(details));
}

HostError read_failure(std::string_view path, int error_number) {
  Json details = Json::object();
  details["source"] = "file";
  details["file"] = std::string(path);
  details["errno"] = error_number;
  return contract::validation_error(
      "EXECUTION_VALIDATION_FAILED",
      "Failed to read execution file: " + std::string(path) + ": " + std::strerror(error_number),
      std::move(details));
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

struct FileOutcome {
  contract::Outcome<std::string> content;
  bool missing = false;
};

FileOutcome read_payload_file(std::string_view path) {
  // O_NONBLOCK: opening a FIFO that nobody writes must not hang us.
  const std::string path_string(path);
  FileDescriptor fd(::open(path_string.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) {
    const int error_number = errno;
    return {contract::failed(read_failure(path, error_number)), error_number == ENOENT};
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return {contract::failed(read_failure(path, errno))};
  if (S_ISDIR(info.st_mode)) return {contract::failed(read_failure(path, EISDIR))};
  // A device or a socket is no payload (/dev/zero, a terminal): refused before any read. A pipe
  // is one, read as `cat` would (`exec <(…)`).
  if (!S_ISREG(info.st_mode) && !S_ISFIFO(info.st_mode)) {
    HostError error = read_failure(path, EINVAL);
    error.message =
        "Failed to read execution file: " + std::string(path) + ": not a regular file or a pipe";
    return {contract::failed(std::move(error))};
  }
  if (S_ISREG(info.st_mode) &&
      static_cast<std::size_t>(info.st_size) > contract::limits::kMaxPayloadInputBytes) {
    return {contract::failed(too_large("file", path))};
  }
  // Pipes and process substitution (<(...)) are read blocking, like cat would.
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  BoundedRead read = read_bounded(fd.get(), contract::limits::kMaxPayloadInputBytes);
  if (read.error != 0) return {contract::failed(read_failure(path, read.error))};
  if (read.too_large) return {contract::failed(too_large("file", path))};
  return {std::move(read.bytes)};
}

contract::Outcome<Json> parse_file(FileOutcome file, std::string_view path) {
  if (!file.content) return contract::failed(std::move(file.content).error());
  const std::string& content = *file.content;
  CLAWPERATOR_TRY(refuse_invalid_utf8(content, "file", path));
  return parse_text(content, "file", "Invalid JSON content in execution file");
}

}  // namespace

BoundedRead read_bounded(int fd, std::size_t limit) {
  BoundedRead result;
  std::size_t used = 0;
  while (true) {
    if (result.bytes.size() < used + kReadBlock) result.bytes.resize(used + kReadBlock);
    // Ask for at most one byte past the limit: enough to know it was exceeded.
    const std::size_t want = std::min(kReadBlock, limit + 1 - used);
    const ssize_t got = ::read(fd, result.bytes.data() + used, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      result.error = errno;
      break;
    }
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
    if (used > limit) {
      result.too_large = true;
      break;
    }
  }
  result.bytes.resize(std::min(used, limit));
  return result;
}

contract::Outcome<Json> load_payload(std::string_view argument, int stdin_fd) {
  const std::string_view text = trim(argument);
  if (text == "-") {
    BoundedRead read = read_bounded(stdin_fd, contract::limits::kMaxPayloadInputBytes);
    if (read.too_large) return contract::failed(too_large("stdin", ""));
    if (read.error != 0) {
      Json details = Json::object();
      details["source"] = "stdin";
      details["errno"] = read.error;
      return contract::failed(contract::validation_error(
          "EXECUTION_VALIDATION_FAILED",
          std::string("Failed to read execution payload from stdin: ") + std::strerror(read.error),
          std::move(details)));
    }
    CLAWPERATOR_TRY(refuse_invalid_utf8(read.bytes, "stdin", ""));
    return parse_text(read.bytes, "stdin", "Invalid JSON content on stdin");
  }
  if (text.size() > contract::limits::kMaxPayloadInputBytes) {
    return contract::failed(too_large("inline", ""));
  }
  // The offset counts from the argument as given, leading blanks included.
  const auto parse_inline = [&]() -> contract::Outcome<Json> {
    CLAWPERATOR_TRY(refuse_invalid_utf8(argument, "inline", ""));
    return parse_text(text, "inline", "");
  };
  if (text.empty() || text.front() == '{') return parse_inline();
  FileOutcome file = read_payload_file(text);
  // "[...]" is a file only when one exists by that name (docs/contract.md §1.2).
  if (text.front() == '[' && file.missing) return parse_inline();
  return parse_file(std::move(file), text);
}

}  // namespace clawperator::io
