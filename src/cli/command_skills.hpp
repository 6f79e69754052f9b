// `clawperator skills <subcommand>` (docs/skills.md): the flags of every subcommand, parsed by
// one CLI11 subcommand, and the handler of each group of subcommands (one file each).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clawperator/cli/command.hpp"
#include "clawperator/skills/registry.hpp"

namespace clawperator::cli {

struct SkillsFlags {
  std::string action;  // list, get, search, compile-artifact, new, validate, run, …
  std::string target;  // the skill id (the keyword of search)
  std::optional<std::string> registry;  // --registry
  // search
  std::optional<std::string> app, intent, keyword;
  // compile-artifact (and exec --skill)
  std::optional<std::string> skill_id, artifact, vars;
  // new (--init: create the registry first when there is none)
  std::optional<std::string> summary;
  bool init = false;
  // validate (--strict: a warning fails)
  bool all = false, dry_run = false, strict = false;
  // run; the script's arguments are the words after `--`
  std::optional<std::string> expect_contains;
  bool skip_validate = false;
  std::vector<std::string> script_args;
  // install, update, sync
  std::optional<std::string> ref, repo;
};

// The registry this invocation uses (--registry, CLAWPERATOR_SKILLS_REGISTRY, ./skills, the
// installed one), loaded; its failure is REGISTRY_READ_FAILED.
contract::Outcome<skills::Registry> load_skills_registry(const SkillsFlags& flags);

// compile-artifact, init, new, validate (src/cli/command_skills_authoring.cpp).
CommandResult run_skills_compile_artifact(const SkillsFlags& flags);
CommandResult run_skills_init(const SkillsFlags& flags);
CommandResult run_skills_new(const SkillsFlags& flags);
CommandResult run_skills_validate(const SkillsFlags& flags, const GlobalOptions& options);
// skills run (command_skills_run.cpp).
CommandResult run_skills_run(const SkillsFlags& flags, const GlobalOptions& options);
// skills install, update and sync (command_skills_sync.cpp).
CommandResult run_skills_sync(const SkillsFlags& flags, const GlobalOptions& options);

}  // namespace clawperator::cli
