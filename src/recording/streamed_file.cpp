#include "clawperator/recording/streamed_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "clawperator/io/atomic_file.hpp"
#include "clawperator/recording/events.hpp"

namespace clawperator::recording {
namespace {

constexpr std::size_t kStreamedFileBuffer = std::size_t{1} << 18;

}  // namespace

struct StreamedFile::State {
  std::filesystem::path path;
  std::string temp;
  std::string code;
  int fd = -1;
  std::string buffer;
  bool committed = false;

  ~State() {
    if (fd >= 0) ::close(fd);
    if (!committed && !temp.empty()) ::unlink(temp.c_str());
  }

  contract::HostError failure(const char* operation, int error_number) const {
    return recording_error(
        code,
        "Cannot write " + path.string() + " (" + operation + "): " + std::strerror(error_number),
        Json{{"path", path.string()}, {"errno", error_number}});
  }

  int write_all(std::string_view bytes) const { return io::write_all(fd, bytes); }

  int flush() {
    const int error_number = write_all(buffer);
    buffer.clear();
    return error_number;
  }
};

StreamedFile::StreamedFile(std::unique_ptr<State> state) : state_(std::move(state)) {}
StreamedFile::StreamedFile(StreamedFile&&) noexcept = default;
StreamedFile& StreamedFile::operator=(StreamedFile&&) noexcept = default;
StreamedFile::~StreamedFile() = default;

contract::Outcome<StreamedFile> StreamedFile::create(const std::filesystem::path& path,
                                                     std::string code) {
  auto state = std::make_unique<State>();
  state->path = path;
  state->code = std::move(code);
  const std::filesystem::path directory =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string temp = (directory / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return contract::failed(state->failure("create a temporary file", errno));
  state->fd = fd;
  state->temp = std::move(temp);
  // Readable by the user's other tools like any file they create (mkostemp makes it 0600).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  state->buffer.reserve(kStreamedFileBuffer);
  return StreamedFile(std::move(state));
}

contract::Status StreamedFile::write(std::string_view bytes) {
  State& state = *state_;
  if (state.buffer.size() + bytes.size() > kStreamedFileBuffer) {
    if (const int error_number = state.flush(); error_number != 0)
      return contract::failed(state.failure("write", error_number));
  }
  if (bytes.size() >= kStreamedFileBuffer) {
    // A large piece (a snapshot) goes straight to the file rather than through the buffer.
    if (const int error_number = state.flush(); error_number != 0)
      return contract::failed(state.failure("write", error_number));
    if (const int error_number = state.write_all(bytes); error_number != 0)
      return contract::failed(state.failure("write", error_number));
    return {};
  }
  state.buffer.append(bytes);
  return {};
}

contract::Status StreamedFile::commit() {
  State& state = *state_;
  if (const int error_number = state.flush(); error_number != 0)
    return contract::failed(state.failure("write", error_number));
  if (::fsync(state.fd) != 0) return contract::failed(state.failure("fsync", errno));
  const int fd = state.fd;
  state.fd = -1;
  if (::close(fd) != 0) return contract::failed(state.failure("close", errno));
  if (::rename(state.temp.c_str(), state.path.c_str()) != 0)
    return contract::failed(state.failure("rename", errno));
  state.committed = true;
  return {};
}

}  // namespace clawperator::recording
