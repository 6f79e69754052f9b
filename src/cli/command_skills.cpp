// `clawperator skills list|get|search|…`: one CLI11 subcommand whose first word picks the
// handler (docs/skills.md). list, get and search are here; the others have a file each.
#include "command_skills.hpp"

#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/service/skills.hpp"
#include "clawperator/skills/queries.hpp"

namespace clawperator::cli {
namespace {

using contract::HostError;

constexpr std::string_view kSubcommands = action_word_list("skills");

CommandResult usage(std::string message, const std::string& argument = {}) {
  HostError error = contract::usage_error("USAGE", std::move(message));
  if (!argument.empty()) error.details["argument"] = argument;
  return failure(error);
}

CommandResult run_get(const SkillsFlags& flags) {
  if (flags.target.empty()) return usage("skills get requires a skill id: skills get <skill_id>");
  return run_skills_get(flags.target, flags.registry);
}

CommandResult run_search(const SkillsFlags& flags) {
  skills::SearchFilter filter;
  filter.app = flags.app;
  filter.intent = flags.intent;
  filter.keyword = flags.keyword;
  if (!filter.keyword && !flags.target.empty()) filter.keyword = flags.target;
  if (filter.empty()) {
    HostError error = contract::usage_error(
        "USAGE",
        "skills search requires a keyword or a filter: skills search <keyword> | --keyword "
        "<text> | --app <package_id> | --intent <intent>");
    error.top_level["example"] = "clawperator skills search settings";
    return failure(error);
  }
  return run_skills_list(filter, flags.registry);
}

CommandResult run_skills(const SkillsFlags& flags, const GlobalOptions& options) {
  if (options.timeout && flags.action != "run") {
    // Only a script run has a deadline to set; ignoring it would let a CI job believe the
    // command is bounded.
    HostError error =
        contract::usage_error("USAGE", options.timeout_flag + " bounds skills run only; skills " +
                                           flags.action + " does not take it");
    error.details["flag"] = options.timeout_flag;
    return failure(error);
  }
  if (!flags.script_args.empty() && flags.action != "run") {
    // Only a script takes the words after `--`; dropping them would hide a mistake.
    return usage("unexpected argument '" + flags.script_args.front() + "'",
                 flags.script_args.front());
  }
  if (flags.action == "list") return run_skills_list({}, flags.registry);
  if (flags.action == "get") return run_get(flags);
  if (flags.action == "search") return run_search(flags);
  if (flags.action == "compile-artifact") return run_skills_compile_artifact(flags);
  if (flags.action == "init") return run_skills_init(flags);
  if (flags.action == "new") return run_skills_new(flags);
  if (flags.action == "validate") return run_skills_validate(flags, options);
  if (flags.action == "run") return run_skills_run(flags, options);
  if (flags.action == "install" || flags.action == "update" || flags.action == "sync") {
    return run_skills_sync(flags, options);
  }
  if (flags.action.empty()) {
    return usage("skills requires a subcommand: skills " + std::string(kSubcommands) + " ...");
  }
  return usage(
      "Unknown skills subcommand: " + flags.action + ". Use: skills " + std::string(kSubcommands),
      flags.action);
}

}  // namespace

contract::Outcome<skills::Registry> load_skills_registry(const SkillsFlags& flags) {
  return skills::load_registry(
      skills::locate_registry(skills::process_registry_lookup(flags.registry)));
}

CommandResult run_skills_list(const skills::SearchFilter& filter,
                              const std::optional<std::string>& registry_flag) {
  service::Session session;
  session.skills_registry = registry_flag;
  return result_of(service::skills_list(session, filter));
}

CommandResult run_skills_get(const std::string& skill_id,
                             const std::optional<std::string>& registry_flag) {
  service::Session session;
  session.skills_registry = registry_flag;
  return result_of(service::skills_get(session, skill_id));
}

void register_skills_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<SkillsFlags>();
  CommandLine command = root.add_subcommand(
      "skills", "Find, compile, scaffold, validate and run skills (reusable automations)");
  command.group("Skills");
  command.add_option("action", flags->action, std::string(kSubcommands));
  command.add_option("target", flags->target,
                     "The skill id (search: the keyword; init: the directory)");
  command
      .add_option("--registry", flags->registry,
                  "The skills registry file (default: $CLAWPERATOR_SKILLS_REGISTRY, else "
                  "./skills/skills-registry.json, else the installed one)")
      .value_name(kFileValue);
  command.add_option("--app", flags->app, "search: the application id, exactly");
  command.add_option("--intent", flags->intent, "search: the intent, exactly");
  command.add_option("--keyword", flags->keyword,
                     "search: text in the id, summary or application id (any case)");
  command.add_option("--skill-id", flags->skill_id,
                     "compile-artifact: the skill id (instead of the word after it)");
  command.add_option("--artifact", flags->artifact,
                     "compile-artifact: the artifact, NAME or NAME.recipe.json");
  command.add_option("--vars", flags->vars,
                     "compile-artifact: the {{NAME}} values, one JSON object (default {})");
  command.add_option("--summary", flags->summary, "new: the skill's one-line summary");
  command.add_flag("--init", flags->init,
                   "new: create an empty registry first when there is none (as skills init)");
  command.add_flag("--all", flags->all, "validate: every skill of the registry");
  command.add_flag("--dry-run", flags->dry_run,
                   "validate: also check every artifact as a payload, placeholders left in");
  command.add_flag("--strict", flags->strict,
                   "validate: fail (SKILL_VALIDATION_FAILED) on a warning, such as the "
                   "scaffold's placeholder text left in");
  command.add_option("--expect-contains", flags->expect_contains,
                     "run: fail (SKILL_OUTPUT_ASSERTION_FAILED) unless the script's stdout "
                     "contains this text");
  command.add_flag("--skip-validate", flags->skip_validate,
                   "run: skip the dry-run validation gate");
  command.add_option("--ref", flags->ref,
                     "update, sync: the git branch, tag or commit (update: default main)");
  command.add_option("--repo", flags->repo,
                     "install: the repository URL (default: $CLAWPERATOR_SKILLS_REPO, else "
                     "https://github.com/clawperator/clawperator-skills)");
  set_command_footer(command,
                     "Examples:\n"
                     "  clawperator skills list\n"
                     "  clawperator skills search settings\n"
                     "  clawperator skills init\n"
                     "  clawperator skills compile-artifact <id> --artifact <name> --vars '{}'\n"
                     "  clawperator skills new com.example.app.check-status\n"
                     "  clawperator skills validate --all --dry-run\n"
                     "  clawperator skills run com.example.app.check --timeout 60000 -- --verbose\n"
                     "  clawperator skills install",
                     "120000 ms, skills run only: the script's deadline");
  Command entry{command.app(),
                [flags](const GlobalOptions& options) { return run_skills(*flags, options); },
                {"--registry", "--app", "--intent", "--keyword", "--skill-id", "--artifact",
                 "--vars", "--summary", "--init", "--all", "--dry-run", "--strict",
                 "--expect-contains", "--skip-validate", "--ref", "--repo"},
                /*takes_timeout=*/true};
  // Only a run has a report; the suite is named by the skill.
  entry.report_subject = [flags]() -> std::optional<report::Subject> {
    if (flags->action != "run") return std::nullopt;
    return report::Subject{"skills run", report::Naming::SkillId};
  };
  // skills run ID -- ARGS: the script's arguments, verbatim (flags too).
  entry.take_rest = [flags](std::vector<std::string> rest) {
    flags->script_args = std::move(rest);
  };
  commands.push_back(std::move(entry));
}

}  // namespace clawperator::cli
