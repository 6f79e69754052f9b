// JSON-RPC 2.0 as MCP's stdio transport frames it: one message per line, UTF-8, no embedded
// newline. Pure: a line in, a classified message out; a message in, a line out. Any byte
// sequence gives either a message or the error the peer is owed (docs/mcp.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::mcp {

// The JSON-RPC 2.0 error codes (and MCP's use of them).
namespace rpc_error {
inline constexpr int kParseError = -32700;      // not JSON
inline constexpr int kInvalidRequest = -32600;  // JSON, but not a request
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;  // also: bad tool arguments, unknown tool
inline constexpr int kInternalError = -32603;
}  // namespace rpc_error

// A request: it has an id (a string or an integer, as MCP requires) and expects an answer.
struct Request {
  Json id;
  std::string method;
  Json params;  // an object; {} when absent
};

// A notification: no id, no answer.
struct Notification {
  std::string method;
  Json params;
};

// A response to a request of ours (elicitation/create): its result, or its error.
struct Response {
  Json id;
  Json result;  // null for an error response
  Json error;   // null for a result
};

// What cannot be handled: answered with this error (id null when the id was unreadable),
// unless it was a notification-shaped message (then `answer` is false: nothing is owed).
struct Malformed {
  Json id;  // null or the request's id
  int code = rpc_error::kInvalidRequest;
  std::string message;
  bool answer = true;
};

// A JSON-RPC batch: a non-empty array, each element a message of its own (classify_message).
// MCP 2025-03-26 requires a server to accept one; 2024-11-05 does not have them, and
// 2025-06-18 removed them (the server decides by the negotiated version).
struct Batch {
  std::vector<Json> elements;
};

using Message = std::variant<Request, Notification, Response, Malformed, Batch>;

// Classifies one line (without its newline; a trailing '\r' is tolerated). Never throws but
// std::bad_alloc. An empty array is an invalid request.
Message parse_message(std::string_view line);
// Classifies one parsed message, a batch's element: never a Batch (an array inside a batch is
// an invalid request).
Message classify_message(Json message);

// What we send, as JSON-RPC messages, and as lines: compact JSON, never a raw newline.
Json result_message(const Json& id, Json result);
Json error_message(const Json& id, int code, std::string_view message,
                   std::optional<Json> data = std::nullopt);
std::string message_line(const Json& message);
std::string result_line(const Json& id, Json result);
std::string error_line(const Json& id, int code, std::string_view message,
                       std::optional<Json> data = std::nullopt);
std::string notification_line(std::string_view method, Json params);

}  // namespace clawperator::mcp
