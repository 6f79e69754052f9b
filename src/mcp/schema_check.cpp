#include "clawperator/mcp/schema_check.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "clawperator/text.hpp"

namespace clawperator::mcp {
namespace {

// "a.b" from the path so far and a key.
std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

Unexpected<Problem> at(std::string message, std::string path) {
  return Unexpected(Problem{std::move(path), std::move(message)});
}

using Check = Expected<void, Problem>;

// The two patterns our schemas use: \S (not blank) and an identifier (a recording's session id,
// the Operator's charset, src/recording/device_recordings.cpp).
constexpr std::string_view kIdentifierPattern = "^[A-Za-z0-9_-]+$";

bool is_identifier(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
}

// UTF-16 code units, as a JavaScript client counts a string's length.
std::size_t utf16_length(const std::string& text) {
  std::size_t units = 0;
  for (const unsigned char byte : text) {
    if ((byte & 0xC0) == 0x80) continue;  // continuation byte
    units += byte >= 0xF0 ? 2 : 1;        // four-byte sequences are surrogate pairs
  }
  return units;
}

bool has_type(const Json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "number") return value.is_number();
  if (type == "integer") {
    if (value.is_number_integer() || value.is_number_unsigned()) return true;
    if (!value.is_number_float()) return false;
    const double number = value.get<double>();
    return number == static_cast<double>(static_cast<long long>(number));
  }
  return false;
}

std::string describe_type(const std::string& type) {
  if (type == "object") return "an object";
  if (type == "array") return "an array";
  if (type == "integer") return "an integer";
  return "a " + type;
}

Check check(const Json& schema, const Json& value, const std::string& path);

Check check_object(const Json& schema, const Json& value, const std::string& path) {
  const Json* properties = schema.contains("properties") ? &schema["properties"] : nullptr;
  if (const auto required = schema.find("required"); required != schema.end()) {
    for (const Json& key : *required) {
      if (!value.contains(key.get<std::string>())) {
        return at(key.get<std::string>() + " is required", join(path, key.get<std::string>()));
      }
    }
  }
  const bool closed = schema.contains("additionalProperties") &&
                      schema["additionalProperties"].is_boolean() &&
                      !schema["additionalProperties"].get<bool>();
  for (const auto& [key, member] : value.items()) {
    const bool known = properties != nullptr && properties->contains(key);
    if (!known) {
      if (closed) return at("unknown argument " + key, join(path, key));
      continue;
    }
    CLAWPERATOR_TRY(check((*properties)[key], member, join(path, key)));
  }
  if (const auto min = schema.find("minProperties"); min != schema.end()) {
    if (value.size() < min->get<std::size_t>()) {
      return at("must have at least " + std::to_string(min->get<std::size_t>()) + " field(s)",
                path);
    }
  }
  return {};
}

Check check(const Json& schema, const Json& value, const std::string& path) {
  if (const auto type = schema.find("type"); type != schema.end()) {
    const std::string name = type->get<std::string>();
    if (!has_type(value, name)) return at("must be " + describe_type(name), path);
  }
  if (const auto allowed = schema.find("enum"); allowed != schema.end()) {
    if (std::find(allowed->begin(), allowed->end(), value) == allowed->end()) {
      std::string list;
      for (const Json& option : *allowed) list += (list.empty() ? "" : ", ") + option.dump();
      return at("must be one of: " + list, path);
    }
  }
  if (value.is_number()) {
    const double number = value.get<double>();
    if (const auto min = schema.find("minimum");
        min != schema.end() && number < min->get<double>()) {
      return at("must be >= " + min->dump(), path);
    }
    if (const auto max = schema.find("maximum");
        max != schema.end() && number > max->get<double>()) {
      return at("must be <= " + max->dump(), path);
    }
  }
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    const std::size_t length = utf16_length(text);
    if (const auto min = schema.find("minLength"); min != schema.end() && length < *min) {
      return at("must not be empty", path);
    }
    if (const auto max = schema.find("maxLength"); max != schema.end() && length > *max) {
      return at("must be at most " + max->dump() + " characters", path);
    }
    if (const auto pattern = schema.find("pattern"); pattern != schema.end()) {
      if (*pattern == kIdentifierPattern) {
        if (!is_identifier(text)) {
          return at("must use only letters, digits, '-' and '_'", path);
        }
      } else if (is_blank(text)) {
        // \S, and JavaScript's \s is the white space of text.hpp.
        return at("must not be blank", path);
      }
    }
  }
  if (value.is_object()) CLAWPERATOR_TRY(check_object(schema, value, path));
  if (value.is_array()) {
    if (const auto min = schema.find("minItems"); min != schema.end() && value.size() < *min) {
      return at("must have at least " + min->dump() + " item(s)", path);
    }
    if (const auto max = schema.find("maxItems"); max != schema.end() && value.size() > *max) {
      return at("must have at most " + max->dump() + " item(s)", path);
    }
    if (const auto items = schema.find("items"); items != schema.end()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        CLAWPERATOR_TRY(check(*items, value[i], join(path, std::to_string(i))));
      }
    }
  }
  if (const auto one_of = schema.find("oneOf"); one_of != schema.end()) {
    std::size_t matches = 0;
    for (const Json& option : *one_of) {
      if (check(option, value, path)) ++matches;
    }
    if (matches != 1) {
      const std::string hint = one_of->size() > 0 && schema.contains("description")
                                   ? schema["description"].get<std::string>()
                                   : "must match exactly one of the allowed shapes";
      return at(hint, path);
    }
  }
  if (const auto negated = schema.find("not"); negated != schema.end()) {
    if (check(*negated, value, path)) {  // it conforms to what it must not
      return at(negated->value("description", std::string("is not allowed here")), path);
    }
  }
  return {};
}

constexpr std::array<std::string_view, 20> kKnownKeywords = {
    "type",      "properties", "required",      "additionalProperties",
    "enum",      "minimum",    "maximum",       "minLength",
    "maxLength", "pattern",    "minProperties", "items",
    "minItems",  "oneOf",      "not",           "description",
    "title",     "default",    "$schema",       "maxItems"};

}  // namespace

Expected<void, Problem> check_against_schema(const Json& schema, const Json& value) {
  return check(schema, value, "");
}

bool schema_uses_known_keywords(const Json& schema) {
  if (!schema.is_object()) return false;
  for (const auto& [key, member] : schema.items()) {
    if (std::find(kKnownKeywords.begin(), kKnownKeywords.end(), key) == kKnownKeywords.end()) {
      return false;
    }
    if (key == "pattern" && member != "\\S" && member != kIdentifierPattern) return false;
    if (key == "properties") {
      for (const auto& [name, property] : member.items()) {
        (void)name;
        if (!schema_uses_known_keywords(property)) return false;
      }
    }
    if ((key == "items" || key == "not") && !schema_uses_known_keywords(member)) return false;
    if (key == "oneOf") {
      for (const Json& option : member) {
        if (!schema_uses_known_keywords(option)) return false;
      }
    }
  }
  return true;
}

}  // namespace clawperator::mcp
