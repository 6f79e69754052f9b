// Where an execution payload comes from: inline JSON, a file, or stdin ("-").
// The only place that reads a user's payload file.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::io {

// Reads at most `limit` bytes from `fd`. Refuses (too_large) as soon as one byte
// more arrives, so an oversized input is never read whole.
struct BoundedRead {
  std::string bytes;
  bool too_large = false;
  int error = 0;  // errno of a failed read, 0 when fine
};
BoundedRead read_bounded(int fd, std::size_t limit);

// Resolves the payload argument as the original CLI did (docs/contract.md §1.2): text
// starting with '{' is inline JSON; '[' is a file if one exists, else inline
// JSON; "-" is stdin; anything else is a file path. Errors are
// EXECUTION_VALIDATION_FAILED or PAYLOAD_TOO_LARGE.
contract::Outcome<Json> load_payload(std::string_view argument, int stdin_fd = 0);

}  // namespace clawperator::io
