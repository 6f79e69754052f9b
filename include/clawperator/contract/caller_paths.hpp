// A caller on the far side of a trust boundary (an MCP client, an HTTP caller of `serve`)
// never names a file on our host: a take_screenshot path would be a write anywhere this user
// may write. Both servers refuse it with this one check, before anything is sent. Pure.
#pragma once

#include <optional>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/json.hpp"

namespace clawperator::contract {

// The first take_screenshot action (any alias of the type) of `actions` whose params name a
// host path under any alias of `path` (`file`, `filePath`, `output_path`): the issue at
// "actions.<i>.params.<key as written>". nullopt when none does, or `actions` is no array.
std::optional<ValidationIssue> find_caller_host_path(const Json& actions);

}  // namespace clawperator::contract
