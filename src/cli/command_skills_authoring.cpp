// `clawperator skills compile-artifact|init|new|validate` (docs/skills.md): the subcommands that
// write or check a skill's files; each is a thin shell over src/skills.
#include <cstdio>
#include <filesystem>

#include "clawperator/io/log.hpp"
#include "clawperator/skills/artifact_compiler.hpp"
#include "clawperator/skills/scaffold.hpp"
#include "clawperator/skills/skill_validation.hpp"
#include "command_skills.hpp"

namespace clawperator::cli {
namespace {

CommandResult authoring_usage(std::string message, std::string example) {
  contract::HostError error = contract::usage_error("USAGE", std::move(message));
  error.top_level["example"] = std::move(example);
  return failure(error);
}

CommandResult document_or_error(const contract::Outcome<Json>& outcome) {
  if (!outcome) return failure(outcome.error());
  return success(*outcome);
}

std::optional<std::string> compile_artifact_skill_id(const SkillsFlags& flags) {
  // --skill-id first, as in the original; then the word after compile-artifact.
  if (flags.skill_id && !flags.skill_id->empty()) return flags.skill_id;
  if (!flags.target.empty()) return flags.target;
  return std::nullopt;
}

}  // namespace

CommandResult run_skills_compile_artifact(const SkillsFlags& flags) {
  const auto skill_id = compile_artifact_skill_id(flags);
  if (!skill_id || !flags.artifact || flags.artifact->empty()) {
    return authoring_usage(
        "skills compile-artifact requires a skill id and --artifact: skills compile-artifact "
        "<skill_id> --artifact <name> [--vars <json>] (or --skill-id <skill_id> instead of the "
        "positional id)",
        "clawperator skills compile-artifact com.android.settings.open-entry --artifact "
        "open-entry --vars '{\"ENTRY_TEXT\":\"Display\"}'");
  }
  const auto registry = load_skills_registry(flags);
  if (!registry) return failure(registry.error());
  skills::CompileRequest request;
  request.skill_id = *skill_id;
  request.artifact = *flags.artifact;
  request.vars_json = flags.vars.value_or("{}");
  auto compiled = skills::compile_artifact(*registry, request);
  if (!compiled) return failure(compiled.error());
  return success(std::move(compiled->document));
}

namespace {

// Where skills init (and skills new --init) makes the registry: DIR/skills/skills-registry.json
// when a directory is given, else the registry this invocation would look for first
// (--registry, CLAWPERATOR_SKILLS_REGISTRY, ./skills) but never the installed one, which
// `skills install` owns.
skills::RegistryLocation registry_to_create(const SkillsFlags& flags,
                                            const std::optional<std::string>& directory) {
  skills::RegistryLookup lookup = skills::process_registry_lookup(flags.registry);
  if (directory) {
    lookup.flag = (std::filesystem::path(*directory) / "skills" / "skills-registry.json").string();
  }
  lookup.home.reset();
  skills::RegistryLocation location = skills::locate_registry(lookup);
  return location;
}

}  // namespace

CommandResult run_skills_init(const SkillsFlags& flags) {
  if (!flags.target.empty() && flags.registry) {
    return authoring_usage(
        "skills init takes a directory or --registry, not both: skills init [DIR] | skills init "
        "--registry <file>",
        "clawperator skills init my-skills");
  }
  std::optional<std::string> directory;
  if (!flags.target.empty()) directory = flags.target;
  return document_or_error(skills::init_registry(registry_to_create(flags, directory)));
}

CommandResult run_skills_new(const SkillsFlags& flags) {
  if (flags.target.empty()) {
    return authoring_usage(
        "skills new requires a skill id: skills new <skill_id> [--summary <text>] [--init]",
        "clawperator skills new com.example.app.check-status --summary "
        "\"Reads the status screen\"");
  }
  if (flags.init) {
    // The registry that would be used, made when it is missing; one that exists is used as it
    // is, as without --init.
    const skills::RegistryLocation found =
        skills::locate_registry(skills::process_registry_lookup(flags.registry));
    std::error_code error;
    if (!std::filesystem::exists(std::filesystem::symlink_status(found.path, error))) {
      const auto created = skills::init_registry(registry_to_create(flags, std::nullopt));
      if (!created) return failure(created.error());
    }
  }
  const auto registry = load_skills_registry(flags);
  if (!registry) return failure(registry.error());
  return document_or_error(skills::scaffold_skill(*registry, {flags.target, flags.summary}));
}

CommandResult run_skills_validate(const SkillsFlags& flags, const GlobalOptions& options) {
  if (flags.target.empty() == !flags.all) {
    return authoring_usage(
        "skills validate takes one skill id or --all: skills validate <skill_id> [--dry-run] "
        "[--strict] | skills validate --all [--dry-run] [--strict]",
        "clawperator skills validate --all --dry-run");
  }
  const auto registry = load_skills_registry(flags);
  if (!registry) return failure(registry.error());
  auto outcome = flags.all
                     ? skills::validate_all_skills(*registry, flags.dry_run, flags.strict)
                     : skills::validate_skill(*registry, flags.target, flags.dry_run, flags.strict);
  if (!outcome) return failure(outcome.error());
  if (options.output == OutputFormat::Pretty) {
    // For a person, each warning on stderr too; stdout stays the one document.
    const Json& checked = flags.all ? (*outcome)["validSkills"] : Json::array({*outcome});
    for (const Json& item : checked) {
      for (const Json& warning : item["warnings"]) {
        const std::string line = "  [WARN] " + item["skill"]["id"].get<std::string>() + ": " +
                                 warning["reason"].get<std::string>() + "\n";
        std::fputs(line.c_str(), stderr);
      }
    }
  }
  if (flags.dry_run) {
    // As the original: a note per valid skill whose payload only its script makes, in the log
    // and, for a person (--output pretty), on stderr; stdout stays the one document.
    const Json& skills_checked = flags.all ? (*outcome)["validSkills"] : Json::array({*outcome});
    for (const Json& item : skills_checked) {
      if (!item["checks"]["artifactPaths"].empty()) continue;
      Json fields = Json::object();
      fields["skillId"] = item["skill"]["id"];
      fields["payloadValidation"] = "skipped";
      io::log_event(io::LogLevel::Debug, "cli.validation", fields);
      if (options.output == OutputFormat::Pretty) {
        std::fputs("  [INFO] Payload validation skipped: no pre-compiled artifacts\n", stderr);
      }
    }
  }
  return success(std::move(*outcome));
}

}  // namespace clawperator::cli
