// The device half of `recording pull` (docs/recording.md, "pull"): the `latest` pointer read
// through the checked device shell, the file copied by `adb pull` into a private directory
// beside its destination, then linked into place, so that the destination is either the whole
// recording or untouched. A destination that already holds the same bytes is left as it is and
// reported present, so that a script that pulls can run again.
#include "clawperator/recording/pull.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <vector>

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/recording/device_recordings.hpp"
#include "clawperator/text.hpp"

namespace clawperator::recording {
namespace {

namespace fs = std::filesystem;
using contract::HostError;

// A device-supplied id is shown in a message cut to this many bytes.
constexpr std::size_t kShownIdBytes = 200;
// An existing local copy is compared with the pulled file this many bytes at a time.
constexpr std::size_t kCompareChunkBytes = std::size_t{64} << 10;

HostError not_found(std::string message, Json details = Json::object()) {
  return contract::make_error(contract::Phase::Readiness, "RECORDING_SESSION_NOT_FOUND",
                              std::move(message), std::move(details));
}

HostError pull_failed(std::string message, Json details) {
  return contract::make_error(contract::Phase::Readiness, "RECORDING_PULL_FAILED",
                              std::move(message), std::move(details));
}

HostError local_failure(std::string what, const fs::path& path, int error_number) {
  return pull_failed("Cannot " + what + " " + path.string() + ": " + std::strerror(error_number),
                     Json{{"path", path.string()}, {"errno", error_number}});
}

HostError invalid_id(std::string_view id) {
  const std::string shown(id.substr(0, kShownIdBytes));
  return not_found("Invalid session ID format: " + shown,
                   Json{{"sessionId", shown}, {"reason", "invalid_session_id"}});
}

fs::path local_path_of(const PullRequest& request, const std::string& id) {
  return request.out_dir / (id + ".ndjson");
}

HostError exists_error(const fs::path& path) {
  return pull_failed(path.string() +
                         " already exists and differs from the device's recording; pass --force to "
                         "replace it",
                     Json{{"path", path.string()}, {"errno", EEXIST}, {"reason", "exists"}});
}

// The id the device's pointer names (the Operator writes it without a newline).
contract::Outcome<std::string> latest_session(adb::AdbClient& client, const std::string& serial,
                                              const PullRequest& request) {
  const std::string pointer =
      device_recordings_dir(request.operator_package) + "/" + std::string(kLatestPointerName);
  adb::ShellCall call;
  // The pointer has no newline, and the exit marker counts only at the start of a line
  // (adb/device_shell.hpp): `&& echo` ends the line and keeps cat's failure as the status.
  call.command = "cat " + adb::quote_for_device_shell(pointer) + " && echo";
  call.what = "cat " + std::string(kLatestPointerName);
  CLAWPERATOR_TRY_ASSIGN(auto output, adb::run_device_shell(client, serial, call));
  const std::string id(trim(output.out));
  if (output.exit_code != 0 || id.empty()) {
    return contract::failed(
        not_found("No recording session found on device. Start one with `clawperator recording "
                  "start`.",
                  Json{{"reason", "no_latest_pointer"}}));
  }
  if (!is_safe_session_id(id)) return contract::failed(invalid_id(id));
  return id;
}

// A private directory beside the destination, so that the final link stays on one file
// system; removed with whatever adb left in it.
class StagingDirectory {
 public:
  explicit StagingDirectory(const fs::path& parent) {
    std::string pattern = (parent / ".clawperator-pull-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      error_ = errno;
      return;
    }
    path_ = pattern;
  }
  StagingDirectory(const StagingDirectory&) = delete;
  StagingDirectory& operator=(const StagingDirectory&) = delete;
  ~StagingDirectory() {
    if (path_.empty()) return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }
  int error() const { return error_; }

 private:
  fs::path path_;
  int error_ = 0;
};

// The pulled bytes on disk before they get their name: a crash after the link leaves the whole
// recording, never a file that is only in the page cache.
int sync_file(const fs::path& path, std::uintmax_t& bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return errno;
  struct stat info {};
  int error = 0;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    error = errno != 0 ? errno : EINVAL;
  } else if (::fsync(fd) != 0) {
    error = errno;
  }
  bytes = static_cast<std::uintmax_t>(info.st_size);
  ::close(fd);
  return error;
}

// Whether the regular file `existing` holds exactly the bytes of `pulled` (`pulled_bytes`
// long); 0, or the errno of what failed. A link or anything but a regular file is never the
// same.
int same_bytes(const fs::path& pulled, std::uintmax_t pulled_bytes, const fs::path& existing,
               bool& same) {
  same = false;
  struct stat info {};
  if (::lstat(existing.c_str(), &info) != 0) return errno;
  if (!S_ISREG(info.st_mode) || static_cast<std::uintmax_t>(info.st_size) != pulled_bytes) return 0;
  std::ifstream ours(pulled, std::ios::binary);
  std::ifstream theirs(existing, std::ios::binary);
  if (!ours || !theirs) return EIO;
  std::vector<char> our_chunk(kCompareChunkBytes);
  std::vector<char> their_chunk(kCompareChunkBytes);
  for (;;) {
    ours.read(our_chunk.data(), static_cast<std::streamsize>(our_chunk.size()));
    theirs.read(their_chunk.data(), static_cast<std::streamsize>(their_chunk.size()));
    if (ours.bad() || theirs.bad()) return EIO;
    const std::streamsize got = ours.gcount();
    if (got != theirs.gcount() ||
        std::memcmp(our_chunk.data(), their_chunk.data(), static_cast<std::size_t>(got)) != 0)
      return 0;
    if (got == 0) break;
  }
  same = true;
  return 0;
}

bool missing_on_device(const process::Completion& completion) {
  return completion.err.find("No such file or directory") != std::string::npos ||
         completion.out.find("No such file or directory") != std::string::npos;
}

}  // namespace

contract::Status check_pull_request(const PullRequest& request) {
  if (request.session_id && !is_safe_session_id(*request.session_id))
    return contract::failed(invalid_id(*request.session_id));
  return {};
}

contract::Outcome<Json> pull_recording(adb::AdbClient& client, const std::string& serial,
                                       const PullRequest& request) {
  CLAWPERATOR_TRY(check_pull_request(request));
  std::string id;
  if (request.session_id) {
    id = *request.session_id;
  } else {
    CLAWPERATOR_TRY_ASSIGN(auto latest, latest_session(client, serial, request));
    id = std::move(latest);
  }
  const fs::path local = local_path_of(request, id);
  std::error_code created;
  fs::create_directories(request.out_dir, created);
  if (created)
    return contract::failed(
        local_failure("create the directory", request.out_dir, created.value()));

  StagingDirectory staging(request.out_dir);
  if (staging.path().empty()) {
    return contract::failed(
        local_failure("create a temporary directory in", request.out_dir, staging.error()));
  }
  const fs::path staged = staging.path() / (id + ".ndjson");
  const std::string remote = device_recordings_dir(request.operator_package) + "/" + id + ".ndjson";
  const process::Completion completion =
      client.pull(serial, remote, staged.string(), client.within_deadline(kPullTimeout));
  if (auto failure = adb::adb_call_failure(completion, client.settings(), "adb pull",
                                           "RECORDING_PULL_FAILED", serial);
      !failure) {
    if (completion.status == process::Completion::Status::Exited && missing_on_device(completion)) {
      return contract::failed(not_found("Recording " + id + " not found on the device",
                                        Json{{"sessionId", id}, {"reason", "no_such_recording"}}));
    }
    if (failure.error().code == "RECORDING_PULL_FAILED") {
      std::string said(trim(completion.err));
      if (said.empty()) said = "Unknown error";
      failure.error().message = "Failed to pull recording from device: " + said.substr(0, 2000);
      failure.error().details["sessionId"] = id;
    }
    return contract::failed(failure.error());
  }
  std::uintmax_t bytes = 0;
  if (const int error = sync_file(staged, bytes); error != 0) {
    return contract::failed(local_failure("read the pulled file", staged, error));
  }
  bool already_present = false;
  if (request.force) {
    if (::rename(staged.c_str(), local.c_str()) != 0) {
      return contract::failed(local_failure("write", local, errno));
    }
  } else if (::link(staged.c_str(), local.c_str()) != 0) {
    // link(2) never replaces: an existing file is kept, and is the pull when it is the same.
    if (errno != EEXIST) return contract::failed(local_failure("write", local, errno));
    if (const int error = same_bytes(staged, bytes, local, already_present); error != 0) {
      return contract::failed(local_failure("read", local, error));
    }
    if (!already_present) return contract::failed(exists_error(local));
  }
  Json out = Json::object();
  out["ok"] = true;
  out["localPath"] = local.lexically_normal().string();
  out["sessionId"] = id;
  out["deviceId"] = serial;
  out["bytes"] = bytes;
  out["alreadyPresent"] = already_present;
  return out;
}

}  // namespace clawperator::recording
