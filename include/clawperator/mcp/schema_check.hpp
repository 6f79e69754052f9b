// Checks tool arguments against the tool's published inputSchema, so that what tools/list
// promises and what tools/call accepts cannot drift apart. Only the JSON Schema keywords our
// generated schemas use are understood (type, properties, required, additionalProperties
// false, enum, minimum, maximum, minLength, maxLength, pattern "\S" or "^[A-Za-z0-9_-]+$",
// minProperties, items, minItems, oneOf, not); a schema using anything else is a programming error
// the tests catch. Pure.
#pragma once

#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::mcp {

// The first problem, if `value` does not conform: its path is the argument's ("a.b", empty for
// the arguments as a whole), its message what is wrong. The MCP server words it
// "<message> (path: a.b)" (src/mcp/tool_calls.cpp).
Expected<void, Problem> check_against_schema(const Json& schema, const Json& value);

// True when `schema` uses only the keywords above (the tests run it on every tool).
bool schema_uses_known_keywords(const Json& schema);

}  // namespace clawperator::mcp
