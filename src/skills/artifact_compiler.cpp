#include "clawperator/skills/artifact_compiler.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/io/bounded_file.hpp"
#include "clawperator/transport/sha256.hpp"
#include "skill_files.hpp"

namespace clawperator::skills {
namespace {

using contract::HostError;

bool ends_with_recipe_suffix(std::string_view name) {
  if (name.size() < kRecipeSuffix.size()) return false;
  const std::string_view tail = name.substr(name.size() - kRecipeSuffix.size());
  for (std::size_t i = 0; i < tail.size(); ++i) {
    const char c = tail[i];
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower != kRecipeSuffix[i]) return false;
  }
  return true;
}

// Every compile error names the skill and the registry.
HostError compile_error(const Registry& registry, std::string code, std::string message,
                        std::string_view skill_id, Json details = Json::object(),
                        bool readiness = false) {
  details["skillId"] = std::string(skill_id);
  add_registry_fields(details, registry);
  return readiness
             ? contract::readiness_error(std::move(code), std::move(message), std::move(details))
             : contract::validation_error(std::move(code), std::move(message), std::move(details));
}

// A finite double as ECMAScript's Number::toString writes it, from the shortest round-trip
// digits that dump_json finds: fixed notation for 1e-7 <= |x| < 1e21, else d.ddde+n.
std::string js_number_text(double number) {
  if (number == 0) return "0";  // -0 too
  std::string text = dump_json(Json(number));
  std::string sign;
  if (text[0] == '-') {
    sign = "-";
    text.erase(0, 1);
  }
  // text is "ddd.ddd" or "d.ddde[+-]xx": gather the digits and the decimal exponent n, the
  // value being 0.<digits> x 10^n.
  long exponent = 0;
  if (const auto e = text.find_first_of("eE"); e != std::string::npos) {
    exponent = std::stol(text.substr(e + 1));
    text.erase(e);
  }
  std::string digits;
  long point = static_cast<long>(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '.') {
      point = static_cast<long>(i);
    } else {
      digits += text[i];
    }
  }
  long n = point + exponent;
  while (!digits.empty() && digits.front() == '0') {
    digits.erase(0, 1);
    --n;
  }
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  const long k = static_cast<long>(digits.size());
  std::string out;
  if (k <= n && n <= 21) {
    out = digits + std::string(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out = digits.substr(0, static_cast<std::size_t>(n)) + "." +
          digits.substr(static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out = "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  } else {
    const long shown = n - 1;
    out = digits.substr(0, 1) + (k > 1 ? "." + digits.substr(1) : "") + "e" +
          (shown < 0 ? "-" : "+") + std::to_string(shown < 0 ? -shown : shown);
  }
  return sign + out;
}

std::string escape_for_json_string(std::string_view value) {
  // The quoted JSON string without its quotes: the placeholder already stands between quotes.
  const std::string quoted = quote_json(value);
  return quoted.substr(1, quoted.size() - 2);
}

// The key as a JavaScript array index: "0", or digits without a leading zero, below 2^32 - 1.
std::optional<std::uint64_t> js_array_index(const std::string& key) {
  if (key.empty() || key.size() > 10 || (key.size() > 1 && key[0] == '0')) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : key) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (value >= 4294967295ULL) return std::nullopt;
  return value;
}

bool is_placeholder_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string artifact_base_name(std::string_view name) {
  if (ends_with_recipe_suffix(name)) name.remove_suffix(kRecipeSuffix.size());
  return std::string(name);
}

std::string js_string_of(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string:
      return value.get<std::string>();
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_float: {
      const double number = value.get<double>();
      // JSON holds no NaN or infinity; a parsed number is always finite.
      return std::isfinite(number) ? js_number_text(number) : dump_json(value);
    }
    default:
      return dump_json(value);
  }
}

contract::Outcome<CompileVars> parse_compile_vars(std::string_view vars_json) {
  const Json parsed = parse_json(vars_json.empty() ? std::string_view("{}") : vars_json);
  if (parsed.is_discarded()) {
    Json details = Json::object();
    details["varsJson"] = std::string(vars_json);
    return contract::failed(contract::validation_error("COMPILE_VARS_PARSE_FAILED",
                                                       "Invalid --vars JSON", std::move(details)));
  }
  CompileVars vars;
  if (parsed.is_object()) {
    for (const auto& [key, value] : parsed.items()) vars[key] = js_string_of(value);
  } else if (parsed.is_array()) {
    for (std::size_t i = 0; i < parsed.size(); ++i)
      vars[std::to_string(i)] = js_string_of(parsed[i]);
  }
  return vars;
}

std::string compile_seed_hash(std::string_view skill_id, std::string_view artifact_base,
                              const CompileVars& vars) {
  // JavaScript enumerates an object's array-index keys ("0", "7", "12") first, in numeric
  // order, then the others in insertion order, here sorted: JSON.stringify writes them so.
  std::vector<std::pair<std::uint64_t, const std::string*>> index_keys;
  Json sorted = Json::object();
  for (const auto& [key, value] : vars) {
    if (auto index = js_array_index(key)) {
      index_keys.emplace_back(*index, &key);
    }
  }
  std::sort(index_keys.begin(), index_keys.end());
  for (const auto& [index, key] : index_keys) sorted[*key] = vars.at(*key);
  for (const auto& [key, value] : vars) {
    if (!js_array_index(key)) sorted[key] = value;  // std::map: sorted by key
  }
  Json seed = Json::object();
  seed["skillId"] = std::string(skill_id);
  seed["artifactName"] = std::string(artifact_base);
  seed["vars"] = std::move(sorted);
  // dump_json is compact, as JSON.stringify.
  return transport::sha256_hex(dump_json(seed)).substr(0, 12);
}

std::string substitute_placeholders(std::string_view text, const CompileVars& vars,
                                    std::string& missing) {
  missing.clear();
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "{{") == 0) {
      std::size_t end = i + 2;
      while (end < text.size() && is_placeholder_char(text[end])) ++end;
      if (end > i + 2 && text.compare(end, 2, "}}") == 0) {
        const std::string name(text.substr(i + 2, end - i - 2));
        const auto found = vars.find(name);
        if (found == vars.end() || found->second.empty()) {
          if (missing.empty()) missing = name;
          out.append(text.substr(i, end + 2 - i));
        } else {
          out += escape_for_json_string(found->second);
        }
        i = end + 2;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

contract::Outcome<CompiledArtifact> compile_artifact(const Registry& registry,
                                                     const CompileRequest& request) {
  const SkillEntry* skill = registry.find(request.skill_id);
  if (!skill) return contract::failed(skill_not_found(registry, request.skill_id));

  const std::string base = artifact_base_name(request.artifact);
  const std::string artifact_name = base + std::string(kRecipeSuffix);
  const std::string* artifact_path = nullptr;
  for (const std::string& listed : skill->artifacts) {
    const bool suffixed = listed.size() > artifact_name.size() &&
                          listed.compare(listed.size() - artifact_name.size(), artifact_name.size(),
                                         artifact_name) == 0 &&
                          listed[listed.size() - artifact_name.size() - 1] == '/';
    if (listed == artifact_name || suffixed) {
      artifact_path = &listed;
      break;
    }
  }
  if (!artifact_path) {
    Json details = Json::object();
    details["artifactName"] = artifact_name;
    return contract::failed(
        compile_error(registry, "ARTIFACT_NOT_FOUND",
                      "Artifact not found: " + artifact_name + " (skill: " + request.skill_id + ")",
                      request.skill_id, std::move(details)));
  }

  auto user_vars = parse_compile_vars(request.vars_json);
  if (!user_vars) {
    HostError error = user_vars.error();
    error.details["skillId"] = request.skill_id;
    add_registry_fields(error.details, registry);
    return contract::failed(std::move(error));
  }
  CompileVars vars = *user_vars;
  const std::string hash = compile_seed_hash(request.skill_id, base, *user_vars);
  if (vars["COMMAND_ID"].empty()) vars["COMMAND_ID"] = "cmd-" + hash;
  if (vars["TASK_ID"].empty()) vars["TASK_ID"] = "task-" + hash;

  auto resolved = resolve_inside(registry, *artifact_path, "artifacts");
  if (!resolved) {
    HostError error = resolved.error();
    error.details["skillId"] = request.skill_id;
    error.details["artifactName"] = artifact_name;
    add_registry_fields(error.details, registry);
    return contract::failed(std::move(error));
  }
  std::string text;
  if (auto read = io::read_regular_file(*resolved, contract::limits::kMaxPayloadInputBytes, text);
      !read) {
    Json details = Json::object();
    details["artifactName"] = artifact_name;
    details["path"] = resolved->string();
    details["reason"] = read.error().message;
    return contract::failed(
        compile_error(registry, "REGISTRY_READ_FAILED",
                      "Cannot read artifact: " + resolved->string() + ": " + read.error().message,
                      request.skill_id, std::move(details),
                      /*readiness=*/true));
  }

  std::string missing;
  const std::string filled = substitute_placeholders(text, vars, missing);
  if (!missing.empty()) {
    Json details = Json::object();
    details["placeholder"] = missing;
    details["artifactName"] = artifact_name;
    return contract::failed(compile_error(registry, "COMPILE_VAR_MISSING",
                                          "Missing required variable: " + missing, request.skill_id,
                                          std::move(details)));
  }

  const Json payload = parse_json(filled);
  if (payload.is_discarded()) {
    Json details = Json::object();
    details["artifactName"] = artifact_name;
    details["path"] = "";
    details["reason"] = "the compiled artifact is not valid JSON";
    return contract::failed(compile_error(
        registry, "COMPILE_VALIDATION_FAILED",
        "Artifact " + artifact_name + " is not valid JSON once its variables are filled in",
        request.skill_id, std::move(details)));
  }
  contract::ValidationOutcome outcome = contract::validate_execution(payload);
  if (!outcome.valid) {
    // The validator's own evidence (path, reason, actionId, actionType, invalidKeys, issues).
    const HostError invalid = contract::validation_failure(outcome.issues);
    Json details = invalid.details;
    details["artifactName"] = artifact_name;
    return contract::failed(
        compile_error(registry, "COMPILE_VALIDATION_FAILED",
                      "Artifact " + artifact_name + " is not a valid execution: " + invalid.message,
                      request.skill_id, std::move(details)));
  }
  CompiledArtifact compiled{std::move(*outcome.valid), Json::object()};
  compiled.execution.mode = "artifact_compiled";
  // A compiled payload the device would refuse is no compiled payload.
  if (auto too_large = contract::check_payload_size(compiled.execution); !too_large) {
    Json details = too_large.error().details;
    details["artifactName"] = artifact_name;
    details["path"] = "";
    details["reason"] = too_large.error().message;
    return contract::failed(compile_error(
        registry, "COMPILE_VALIDATION_FAILED",
        "Artifact " + artifact_name + " is not a valid execution: " + too_large.error().message,
        request.skill_id, std::move(details)));
  }
  compiled.document["execution"] = contract::to_device_json(compiled.execution);
  add_registry_fields(compiled.document, registry);
  return compiled;
}

}  // namespace clawperator::skills
