// `clawperator skills install [--repo URL]`, `skills update [--ref REF]`, `skills sync --ref REF`
// (docs/skills.md, "Installing and updating"): the flags as a skills::SyncRequest.
#include "clawperator/process/interrupt.hpp"
#include "clawperator/skills/skills_repository.hpp"
#include "command_skills.hpp"

namespace clawperator::cli {

CommandResult run_skills_sync(const SkillsFlags& flags, const GlobalOptions& options) {
  (void)options;
  if (flags.action == "sync" && !flags.ref) {
    contract::HostError error =
        contract::usage_error("USAGE", "skills sync requires a ref: skills sync --ref <git-ref>");
    error.details["flag"] = "--ref";
    return failure(error);
  }
  if (flags.action == "install" && flags.ref) {
    contract::HostError error = contract::usage_error(
        "USAGE", "skills install clones main; use skills sync --ref <git-ref> for another ref");
    error.details["flag"] = "--ref";
    return failure(error);
  }
  if (!flags.target.empty()) {
    contract::HostError error = contract::usage_error(
        "USAGE", "skills " + flags.action + " takes no argument; use --ref or --repo");
    error.details["argument"] = flags.target;
    return failure(error);
  }
  skills::SyncRequest request;
  request.repository = skills::skills_repository_url(flags.repo);
  request.ref = flags.ref.value_or(std::string(skills::kDefaultSkillsRef));
  request.install = flags.action == "install";
  auto directory = skills::skills_directory();
  if (!directory) return failure(directory.error());
  request.directory = *directory;
  process::install_interrupt_handlers();
  const auto runner = process::make_system_runner();
  auto synced = skills::sync_skills(request, *runner);
  if (!synced) return failure(synced.error());
  return success(std::move(*synced));
}

}  // namespace clawperator::cli
