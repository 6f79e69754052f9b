// Non-blocking reads from a child's stdout or stderr pipe into a capped buffer.
#pragma once

#include <cstddef>
#include <limits>
#include <string>

namespace clawperator::process {

struct OutputSink {
  std::string data;
  std::size_t cap = std::numeric_limits<std::size_t>::max();
  bool truncated = false;
};

enum class DrainResult { Open, Eof };

// Reads what the non-blocking fd holds now, at most `budget` bytes (so that one flooding
// stream cannot starve the other, the deadline or the interrupt check). Bytes beyond the
// sink's cap are read and discarded: the child must never block on a full pipe. A read
// error other than EAGAIN counts as EOF: nothing more can come from that pipe.
DrainResult drain_pipe(int fd, OutputSink& sink, std::size_t budget);

}  // namespace clawperator::process
