// Checks tool arguments against the tool's published inputSchema, so that what tools/list
// promises and what tools/call accepts cannot drift apart. Only the JSON Schema keywords our
// generated schemas use are understood (type, properties, required, additionalProperties
// false, enum, minimum, maximum, minLength, maxLength, pattern "\S" or "^[A-Za-z0-9_-]+$",
// minProperties, items, minItems, oneOf, not); a schema using anything else is a programming error
// the tests catch. Pure.
#pragma once

#include <optional>
#include <string>

#include "clawperator/json.hpp"

namespace clawperator::mcp {

// The first problem as "<what is wrong> (path: a.b)", or nullopt when `value` conforms.
std::optional<std::string> check_against_schema(const Json& schema, const Json& value);

// True when `schema` uses only the keywords above (the tests run it on every tool).
bool schema_uses_known_keywords(const Json& schema);

}  // namespace clawperator::mcp
