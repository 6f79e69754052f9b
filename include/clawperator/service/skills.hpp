// A skill run as a caller across the trust boundary asks for it (an HTTP body, an MCP call's
// arguments): one reader, so that both refuse the same things (docs/skills.md, "Over HTTP and
// MCP").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/cancel.hpp"
#include "clawperator/service/session.hpp"
#include "clawperator/skills/queries.hpp"
#include "clawperator/skills/skill_run.hpp"

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

// `skills list` (an empty filter) and `skills search`, and `skills get ID`, from the session's
// registry: the documents without "ok" (a front end adds it, or makes the failure its own).
contract::Outcome<Json> skills_list(const Session& session, const skills::SearchFilter& filter);
contract::Outcome<Json> skills_get(const Session& session, const std::string& skill_id);

// One `skills run`, the same from the CLI, MCP and HTTP: the skill, its arguments, the device the
// call chose (else the session's), the session's rules for the script (script_guard) and its
// lock wait (nullopt: skill_run_lock_wait_ms), output passed live to `on_output` when set.
struct SkillRun {
  std::string skill_id;
  SkillRunArguments arguments;
  Target target;
  skills::OutputCallback on_output;
};
skills::SkillRunReport run_skill(const Session& session, const SkillRun& run,
                                 const process::CancelToken& cancel);

// For a caller across the trust boundary (serve's POST /skills/<id>/run, MCP's skills_run):
// the script's `stdout` and `stderr` renamed `output` and `errorOutput`, on success and failure
// alike, since the redaction drops `stdout`/`stderr` (adb's words elsewhere, contract/
// redaction.cpp) and the script's output is the result here (docs/skills.md, "Over HTTP and
// MCP").
void name_script_output_for_remote(Json& document);

}  // namespace clawperator::service
