// The Operator's result envelope (docs/wire-protocol.md §7.6), read strictly: a field
// of the wrong type is a malformed result, never a guess.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::transport {

inline constexpr std::string_view kResultPrefix = "[Clawperator-Result] ";

struct StepResult {
  std::string id;
  std::string actionType;
  bool success = false;
  // In the Operator's order. Non-string JSON values are kept as their compact JSON text
  // (1 -> "1", true -> "true", null -> "null"); a non-object `data` gives no entries.
  std::vector<std::pair<std::string, std::string>> data;

  // nullptr when the key is absent.
  const std::string* data_value(std::string_view key) const noexcept;
};

struct Envelope {
  std::string commandId;
  std::string taskId;
  std::string status;  // "success" or "failed"
  std::vector<StepResult> steps;
  std::optional<std::string> error;  // absent or null -> nullopt
  std::optional<std::string> errorCode;
  // errorCode was present (as a string or as null): to_json() writes it back only then.
  bool has_error_code_key = false;
};

// json_text is the text after kResultPrefix. On failure, says which field is wrong and how
// (in the message: the path is empty).
Expected<Envelope, Problem> parse_envelope(std::string_view json_text);
// The same for an already parsed document (a distinct name: json converts from strings).
Expected<Envelope, Problem> envelope_from_json(const nlohmann::ordered_json& document);

// Keys: commandId, taskId, status, stepResults[{id, actionType, success, data}], error
// (string or null), and errorCode only when has_error_code_key.
nlohmann::ordered_json to_json(const Envelope& envelope);
// The same, moving the strings out of `envelope` (a large snapshot is not copied).
nlohmann::ordered_json to_json(Envelope&& envelope);

}  // namespace clawperator::transport
