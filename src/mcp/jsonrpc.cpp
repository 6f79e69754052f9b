#include "clawperator/mcp/jsonrpc.hpp"

#include <utility>

namespace clawperator::mcp {
namespace {

// MCP: "the ID MUST NOT be null" and is a string or an integer.
bool valid_id(const Json& id) {
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

Malformed invalid(Json id, std::string message) {
  return Malformed{std::move(id), rpc_error::kInvalidRequest, std::move(message), true};
}

Json envelope(const Json& id) {
  Json message = Json::object();
  message["jsonrpc"] = "2.0";
  message["id"] = id;
  return message;
}

}  // namespace

Message parse_message(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  Json message = parse_json(line);
  if (message.is_discarded()) {
    return Malformed{nullptr, rpc_error::kParseError, "Parse error: the line is not JSON", true};
  }
  if (message.is_array()) {
    // JSON-RPC 2.0 §6: an empty batch is one invalid request, answered alone.
    if (message.empty()) return invalid(nullptr, "Invalid Request: the batch is empty");
    Batch batch;
    batch.elements.reserve(message.size());
    for (Json& element : message) batch.elements.push_back(std::move(element));
    return batch;
  }
  return classify_message(std::move(message));
}

Message classify_message(Json message) {
  if (!message.is_object()) return invalid(nullptr, "Invalid Request: a message is a JSON object");
  const auto id_it = message.find("id");
  const bool has_id = id_it != message.end();
  Json id = has_id && valid_id(*id_it) ? *id_it : Json(nullptr);
  const auto version = message.find("jsonrpc");
  if (version == message.end() || !version->is_string() || *version != "2.0") {
    return invalid(std::move(id), "Invalid Request: jsonrpc must be \"2.0\"");
  }
  const auto method = message.find("method");
  if (method == message.end()) {
    // A response (to a request we never sent) or nonsense.
    if (has_id && (message.contains("result") || message.contains("error"))) {
      return Response{std::move(id), message.value("result", Json()),
                      message.value("error", Json())};
    }
    return invalid(std::move(id), "Invalid Request: method is missing");
  }
  if (has_id && !valid_id(*id_it)) {
    return invalid(nullptr, "Invalid Request: id must be a string or an integer");
  }
  if (!method->is_string()) {
    Malformed error = invalid(std::move(id), "Invalid Request: method must be a string");
    error.answer = has_id;
    return error;
  }
  Json params = Json::object();
  if (const auto found = message.find("params"); found != message.end()) {
    if (!found->is_object()) {
      // MCP's params are always objects; by-position params are not used.
      Malformed error{std::move(id), rpc_error::kInvalidParams,
                      "Invalid params: params must be an object", has_id};
      return error;
    }
    params = std::move(*found);
  }
  if (!has_id) return Notification{method->get<std::string>(), std::move(params)};
  return Request{std::move(id), method->get<std::string>(), std::move(params)};
}

Json result_message(const Json& id, Json result) {
  Json message = envelope(id);
  message["result"] = std::move(result);
  return message;
}

Json error_message(const Json& id, int code, std::string_view message, std::optional<Json> data) {
  Json reply = envelope(id);
  Json error = Json::object();
  error["code"] = code;
  error["message"] = std::string(message);
  if (data) error["data"] = std::move(*data);
  reply["error"] = std::move(error);
  return reply;
}

std::string message_line(const Json& message) {
  // dump_json escapes control characters, so the text holds no raw newline.
  std::string line = dump_json(message);
  line.push_back('\n');
  return line;
}

std::string result_line(const Json& id, Json result) {
  return message_line(result_message(id, std::move(result)));
}

std::string error_line(const Json& id, int code, std::string_view message,
                       std::optional<Json> data) {
  return message_line(error_message(id, code, message, std::move(data)));
}

std::string notification_line(std::string_view method, Json params) {
  Json message = Json::object();
  message["jsonrpc"] = "2.0";
  message["method"] = std::string(method);
  message["params"] = std::move(params);
  return message_line(message);
}

}  // namespace clawperator::mcp
