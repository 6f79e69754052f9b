// Reading an ACTION_AGENT_COMMAND payload (docs/payload.md) the way every app on the virtual
// device that receives it does — the Operator and the scenario's forger — without throwing on
// a member of the wrong type.
#pragma once

#include <string>

#include "clawperator/json.hpp"

namespace clawperator::vdevice::android {

// The member's string value; "" when it is absent or not a string.
inline std::string string_member(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace clawperator::vdevice::android
