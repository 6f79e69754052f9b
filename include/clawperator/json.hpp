// One JSON type for everything we print: key order is part of readability, so
// objects keep insertion order.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace clawperator {

using Json = nlohmann::ordered_json;

// Serialises without ever throwing: invalid UTF-8 (from binary input echoed in
// a message) is replaced rather than aborting the one JSON document we owe.
std::string dump_json(const Json& value, bool pretty = false);

}  // namespace clawperator
