// `clawperator skills compile-artifact|new|validate` (docs/skills.md): the subcommands that
// write or check a skill's files; each is a thin shell over src/skills.
#include <cstdio>

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

CommandResult run_skills_new(const SkillsFlags& flags) {
  if (flags.target.empty()) {
    return authoring_usage(
        "skills new requires a skill id: skills new <skill_id> [--summary <text>]",
        "clawperator skills new com.example.app.check-status --summary "
        "\"Reads the status screen\"");
  }
  const auto registry = load_skills_registry(flags);
  if (!registry) return failure(registry.error());
  return document_or_error(skills::scaffold_skill(*registry, {flags.target, flags.summary}));
}

CommandResult run_skills_validate(const SkillsFlags& flags, const GlobalOptions& options) {
  if (flags.target.empty() == !flags.all) {
    return authoring_usage(
        "skills validate takes one skill id or --all: skills validate <skill_id> [--dry-run] | "
        "skills validate --all [--dry-run]",
        "clawperator skills validate --all --dry-run");
  }
  const auto registry = load_skills_registry(flags);
  if (!registry) return failure(registry.error());
  auto outcome = flags.all ? skills::validate_all_skills(*registry, flags.dry_run)
                           : skills::validate_skill(*registry, flags.target, flags.dry_run);
  if (!outcome) return failure(outcome.error());
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
