// A skill run as a caller across the trust boundary asks for it (an HTTP body, an MCP call's
// arguments): one reader, so that both refuse the same things (docs/skills.md, "Over HTTP and
// MCP").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::service {

struct SkillRunArguments {
  std::vector<std::string> args;  // passed to the script verbatim
  std::optional<std::string> expect_contains;
  bool skip_validate = false;
  std::optional<long long> timeout_ms;
};

// `args` (at most skills::kMaxRemoteSkillArgs strings of at most kMaxRemoteSkillArgBytes, no
// NUL: an argv cannot carry one), `expectContains` (non-empty, the same bound), `skipValidate`,
// `timeoutMs` (1..kMaxRemoteSkillTimeoutMs); members it does not name are the caller's to refuse.
// INVALID_BODY naming the member (`details.field`, "args.2") otherwise.
contract::Outcome<SkillRunArguments> read_skill_run(const Json& arguments);

// How long a remote skill run waits for its device: as long as its own deadline (the default
// deadline when it names none), as an execution queues.
long skill_run_lock_wait_ms(const SkillRunArguments& arguments);

}  // namespace clawperator::service
