#include "pipe_drain.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>

namespace clawperator::process {

DrainResult drain_pipe(int fd, OutputSink& sink, std::size_t budget) {
  // 64 KiB is the default Linux pipe capacity: one read usually empties the pipe.
  std::array<char, std::size_t{64} * 1024> buffer;
  std::size_t total = 0;
  while (total < budget) {
    const std::size_t want = std::min(buffer.size(), budget - total);
    const ssize_t n = ::read(fd, buffer.data(), want);
    if (n == 0) return DrainResult::Eof;
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return DrainResult::Open;
      return DrainResult::Eof;
    }
    const auto got = static_cast<std::size_t>(n);
    total += got;
    const std::size_t room = sink.cap - std::min(sink.cap, sink.data.size());
    const std::size_t keep = std::min(room, got);
    sink.data.append(buffer.data(), keep);
    if (keep < got) sink.truncated = true;
  }
  return DrainResult::Open;
}

}  // namespace clawperator::process
