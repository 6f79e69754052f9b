// `skills compile-artifact` (docs/skills.md, "Artifacts and compile-artifact"): an artifact is an
// execution payload template with {{NAME}} placeholders inside its JSON strings; compiling fills
// them from --vars (plus deterministic COMMAND_ID and TASK_ID), validates the result as `exec`
// does and marks it mode "artifact_compiled". The same inputs give byte-identical output,
// whatever the key order of --vars. Pure apart from reading the artifact file.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/skills/registry.hpp"

namespace clawperator::skills {

inline constexpr std::string_view kRecipeSuffix = ".recipe.json";

// `name` with a trailing ".recipe.json" (any case) removed: the artifact's base name.
std::string artifact_base_name(std::string_view name);

// A JSON value as JavaScript's String(v) writes it: a string as is, numbers as JS prints them
// (100, 1.5, 1e+21), true/false, "null"; an array or object as its compact JSON text (JS
// would give "[object Object]" or the comma-joined elements, which no placeholder can want).
std::string js_string_of(const Json& value);

// --vars: one JSON object (an array counts, its indices are the keys; any other JSON value
// gives no variables), every value converted with js_string_of; the map keeps them sorted by
// key. COMPILE_VARS_PARSE_FAILED with details.varsJson on a syntax error.
using CompileVars = std::map<std::string, std::string>;
contract::Outcome<CompileVars> parse_compile_vars(std::string_view vars_json);

// The first 12 hex digits of SHA-256 over JSON.stringify({skillId, artifactName, vars}), vars
// sorted by key: the seed of the generated cmd-/task- ids.
std::string compile_seed_hash(std::string_view skill_id, std::string_view artifact_base,
                              const CompileVars& vars);

// Fills every {{NAME}} ([A-Za-z0-9_]+) of `text` with its variable, JSON-string-escaped (the
// placeholders stand inside JSON strings), in one pass: a value is never scanned again. The
// first placeholder without a non-empty value, in textual order, is returned in `missing`.
std::string substitute_placeholders(std::string_view text, const CompileVars& vars,
                                    std::string& missing);

struct CompileRequest {
  std::string skill_id;
  std::string artifact;          // bare or with .recipe.json
  std::string vars_json = "{}";  // --vars
};

struct CompiledArtifact {
  contract::Execution execution;  // validated, mode "artifact_compiled"
  Json document;  // {"execution": <compact normalised payload>, registryPath, registrySource}
};

// §2.5 steps 2-10 on a loaded registry. Errors: SKILL_NOT_FOUND, ARTIFACT_NOT_FOUND,
// COMPILE_VARS_PARSE_FAILED, REGISTRY_READ_FAILED (the artifact file), SKILL_VALIDATION_FAILED
// (its path leads outside the repository), COMPILE_VAR_MISSING, COMPILE_VALIDATION_FAILED
// (details.path, details.reason, details.issues of the payload validator); every one carries
// details.skillId and the registry fields.
contract::Outcome<CompiledArtifact> compile_artifact(const Registry& registry,
                                                     const CompileRequest& request);

}  // namespace clawperator::skills
