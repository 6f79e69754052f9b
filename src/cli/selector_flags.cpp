#include "clawperator/cli/selector_flags.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <tuple>

#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/contract/matcher_fields.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/text.hpp"

namespace clawperator::cli {
namespace {

using contract::HostError;

// The shorthands in the order the original checked and mapped them (and lists them in help);
// what each one is comes from the matcher table (contract/matcher_fields.hpp).
constexpr std::array<contract::MatcherField, 6> kShorthandOrder = {
    contract::MatcherField::TextEquals,          contract::MatcherField::TextContains,
    contract::MatcherField::ResourceId,          contract::MatcherField::ContentDescEquals,
    contract::MatcherField::ContentDescContains, contract::MatcherField::Role,
};

// The JSON flag, then the shorthands in kShorthandOrder.
using FlagNames = std::array<std::string_view, kShorthandOrder.size() + 1>;
FlagNames flag_names(SelectorScope scope) {
  FlagNames names{};
  names[0] = scope == SelectorScope::Element ? "--selector" : "--container-selector";
  for (std::size_t i = 0; i < kShorthandOrder.size(); ++i) {
    const contract::MatcherFieldRow& row = contract::matcher_field_row(kShorthandOrder[i]);
    names[i + 1] = scope == SelectorScope::Element ? row.flag : row.container_flag;
  }
  return names;
}

const std::vector<FlagOccurrence>* occurrences(const TypedFlags& typed, std::string_view name) {
  const auto it = typed.find(name);
  return it == typed.end() ? nullptr : &it->second;
}

// The one value of a flag typed once; nullopt when it has none or starts with
// "-" (the original read the next token, and a dash meant another flag).
std::optional<std::string> single_value(const std::vector<FlagOccurrence>& typed) {
  const FlagOccurrence& occurrence = typed.front();
  if (occurrence.empty() || occurrence.front().rfind('-', 0) == 0) return std::nullopt;
  return occurrence.front();
}

// A pixel position: a non-negative integer as Number() reads it ("12", "1e2", "7.0").
std::optional<long long> pixel(const std::string& text) {
  if (text.empty() || text.front() == '-') return std::nullopt;
  const auto value = contract::parse_milliseconds(text);
  if (!value || *value < 0 || *value > INT_MAX || static_cast<long long>(*value) != *value) {
    return std::nullopt;
  }
  return static_cast<long long>(*value);
}

constexpr std::string_view kTargetChoices =
    "  --text <text>           Exact visible text\n"
    "  --text-contains <text>  Partial text match\n"
    "  --id <resource-id>      Android resource ID\n"
    "  --desc <text>           Content description\n"
    "  --desc-contains <text>  Partial content description\n"
    "  --role <role>           Element role\n";
constexpr std::string_view kCoordinateChoice =
    "  --coordinate <x> <y>    Exact coordinates (pixels)\n";
constexpr std::string_view kSelectorChoice = "  --selector <json>       Raw JSON (advanced)";

}  // namespace

std::span<const contract::MatcherField> shorthand_fields() {
  return kShorthandOrder;
}

std::span<const std::string_view> selector_flag_names(SelectorScope scope) {
  static const FlagNames kElementFlags = flag_names(SelectorScope::Element);
  static const FlagNames kContainerFlags = flag_names(SelectorScope::Container);
  if (scope == SelectorScope::Element) return kElementFlags;
  return kContainerFlags;
}

bool has_selector_flag(const TypedFlags& typed, SelectorScope scope) {
  for (const std::string_view name : selector_flag_names(scope)) {
    if (typed.contains(name)) return true;
  }
  return false;
}

SelectorResolution resolve_selector(const TypedFlags& typed, SelectorScope scope) {
  const auto names = selector_flag_names(scope);
  CLAWPERATOR_TRY(repeated_flag(typed, names));

  std::array<std::optional<std::string>, std::tuple_size_v<FlagNames>> values;
  bool any = false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto* typed_values = occurrences(typed, names[i]);
    if (typed_values == nullptr) continue;
    values[i] = single_value(*typed_values);
    if (!values[i])
      return contract::failed(invalid_flags(std::string(names[i]) + " requires a value", names[i]));
    any = true;
  }
  if (!any) return std::optional<Json>{};

  const std::string_view json_flag = names.front();
  const bool has_shorthand =
      std::any_of(values.begin() + 1, values.end(), [](const auto& value) { return !!value; });
  if (values.front() && has_shorthand) {
    return contract::failed(
        invalid_flags(scope == SelectorScope::Element
                          ? "use --selector OR the simple flags, not both"
                          : "use --container-selector OR the --container-* flags, not both"));
  }
  if (values.front()) {
    const std::string& text = *values.front();
    if (trim(text).empty()) {
      return contract::failed(
          invalid_flags(std::string(json_flag) + " value must not be blank", json_flag));
    }
    const Json parsed = Json::parse(text, nullptr, false);
    if (parsed.is_discarded()) {
      return contract::failed(
          invalid_flags(std::string(json_flag) + " must be valid JSON", json_flag));
    }
    if (!parsed.is_object()) {
      return contract::failed(
          invalid_flags(std::string(json_flag) + " must be a JSON object", json_flag));
    }
    // Keys are the payload validator's business, as in the original.
    return std::optional<Json>{parsed};
  }

  Json matcher = Json::object();
  for (std::size_t i = 0; i < kShorthandOrder.size(); ++i) {
    const std::optional<std::string>& value = values[i + 1];
    if (!value) continue;
    const std::string_view name = names[i + 1];
    if (is_blank(*value)) {  // Unicode white space too: the Operator would ignore the field
      return contract::failed(invalid_flags(std::string(name) + " value must not be blank", name));
    }
    matcher[std::string(contract::matcher_field_row(kShorthandOrder[i]).key)] = *value;
  }
  return std::optional<Json>{std::move(matcher)};
}

CoordinateResolution resolve_coordinate(const TypedFlags& typed) {
  return resolve_point(typed, "--coordinate");
}

CoordinateResolution resolve_point(const TypedFlags& typed, std::string_view flag) {
  const auto* typed_values = occurrences(typed, flag);
  if (typed_values == nullptr) return std::optional<service::Coordinate>{};
  const std::string name(flag);
  if (typed_values->size() > 1) {
    return contract::failed(invalid_flags(name + " must not appear more than once", flag));
  }
  const FlagOccurrence& values = typed_values->front();
  const auto x = values.size() == 2 ? pixel(values[0]) : std::nullopt;
  const auto y = values.size() == 2 ? pixel(values[1]) : std::nullopt;
  if (!x || !y) {
    return contract::failed(
        invalid_flags(name + " requires two non-negative integers (x y)", flag));
  }
  return std::optional<service::Coordinate>{service::Coordinate{*x, *y}};
}

HostError missing_selector(std::string_view command, SelectorChoices choices) {
  const std::string name(command);
  if (choices == SelectorChoices::TypeTarget) {
    // --text is the text to type here, so it is no way to find the field: neither in the
    // message nor in the hint, whose catalog text names --text first.
    HostError error = contract::usage_error(
        "MISSING_SELECTOR", name +
                                " requires a selector.\n"
                                "Use one of:\n"
                                "  --id <resource-id>      Android resource ID\n"
                                "  --desc <text>           Content description\n"
                                "  --desc-contains <text>  Partial content description\n"
                                "  --role <role>           Element role\n"
                                "  --text-contains <text>  Partial text match\n"
                                "  --selector <json>       Raw JSON (advanced)\n"
                                "Example:\n"
                                "  clawperator " +
                                name + " \"hello\" --role textfield");
    error.hint = contract::hint_text(contract::HintId::TypeTargetSelectorMissing);
    return error;
  }
  std::string message = name + " requires a selector.\n\nUse one of:\n";
  message += kTargetChoices;
  if (choices == SelectorChoices::WithCoordinate) message += kCoordinateChoice;
  message += kSelectorChoice;
  message += "\n\nExamples:\n  clawperator " + name + " --text \"Wi-Fi\"\n  clawperator " + name +
             " --id \"button_submit\"";
  return contract::usage_error("MISSING_SELECTOR", std::move(message));
}

contract::Status repeated_flag(const TypedFlags& typed, std::span<const std::string_view> names) {
  for (const std::string_view name : names) {
    const auto* typed_values = occurrences(typed, name);
    if (typed_values != nullptr && typed_values->size() > 1) {
      return contract::failed(
          invalid_flags(std::string(name) + " must not appear more than once", name));
    }
  }
  return {};
}

HostError invalid_flags(std::string message, std::string_view flag) {
  HostError error = contract::usage_error("EXECUTION_VALIDATION_FAILED", std::move(message));
  if (!flag.empty()) error.details["flag"] = flag;
  return error;
}

}  // namespace clawperator::cli
