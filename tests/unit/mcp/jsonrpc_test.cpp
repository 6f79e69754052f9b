#include "clawperator/mcp/jsonrpc.hpp"

#include <catch2/catch.hpp>

namespace {

using namespace clawperator;
using namespace clawperator::mcp;

Malformed malformed(std::string_view line) {
  const Message message = parse_message(line);
  REQUIRE(std::holds_alternative<Malformed>(message));
  return std::get<Malformed>(message);
}

}  // namespace

TEST_CASE("a request, a notification and a response are told apart", "[mcp][jsonrpc]") {
  const Message request = parse_message(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})");
  REQUIRE(std::holds_alternative<Request>(request));
  CHECK(std::get<Request>(request).id == 7);
  CHECK(std::get<Request>(request).method == "tools/list");
  CHECK(std::get<Request>(request).params == Json::object());

  const Message with_params =
      parse_message("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\",\"params\":{\"x\":1}}\r");
  REQUIRE(std::holds_alternative<Request>(with_params));
  CHECK(std::get<Request>(with_params).id == "a");
  CHECK(std::get<Request>(with_params).params["x"] == 1);

  const Message notification =
      parse_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  REQUIRE(std::holds_alternative<Notification>(notification));
  CHECK(std::get<Notification>(notification).method == "notifications/initialized");

  CHECK(std::holds_alternative<Response>(parse_message(R"({"jsonrpc":"2.0","id":1,"result":{}})")));
  // An answer to our elicitation/create: its result (or error) reaches the call that asked.
  const Message answer = parse_message(
      R"({"jsonrpc":"2.0","id":"clawperator-confirm-1","result":{"action":"accept","content":{"confirm":true}}})");
  REQUIRE(std::holds_alternative<Response>(answer));
  CHECK(std::get<Response>(answer).id == "clawperator-confirm-1");
  CHECK(std::get<Response>(answer).result["content"]["confirm"] == true);
  CHECK(std::get<Response>(answer).error.is_null());
  const Message refusal =
      parse_message(R"({"jsonrpc":"2.0","id":"q","error":{"code":-32601,"message":"no"}})");
  REQUIRE(std::holds_alternative<Response>(refusal));
  CHECK(std::get<Response>(refusal).result.is_null());
  CHECK(std::get<Response>(refusal).error["code"] == -32601);
}

TEST_CASE("what is not JSON is -32700 and answered with a null id", "[mcp][jsonrpc]") {
  for (std::string_view line : {"{", "not json", "{\"jsonrpc\":\"2.0\",", "\xff\xfe", ""}) {
    const Malformed error = malformed(line);
    CHECK(error.code == rpc_error::kParseError);
    CHECK(error.id == nullptr);
    CHECK(error.answer);
  }
}

TEST_CASE("JSON that is not a request is -32600", "[mcp][jsonrpc]") {
  struct Case {
    std::string_view line;
    Json id;
    bool answer;
  };
  const Case cases[] = {
      {"[]", nullptr, true},
      {"42", nullptr, true},
      {R"({"id":1,"method":"ping"})", 1, true},
      {R"({"jsonrpc":"1.0","id":1,"method":"ping"})", 1, true},
      {R"({"jsonrpc":"2.0","id":1})", 1, true},
      {R"({"jsonrpc":"2.0","id":null,"method":"ping"})", nullptr, true},
      {R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})", nullptr, true},
      {R"({"jsonrpc":"2.0","id":{},"method":"ping"})", nullptr, true},
      {R"({"jsonrpc":"2.0","id":2,"method":5})", 2, true},
      // Notification-shaped: nothing is owed.
      {R"({"jsonrpc":"2.0","method":5})", nullptr, false},
  };
  for (const Case& c : cases) {
    INFO(c.line);
    const Malformed error = malformed(c.line);
    CHECK(error.code == rpc_error::kInvalidRequest);
    CHECK(error.id == c.id);
    CHECK(error.answer == c.answer);
  }
}

TEST_CASE("the lines we send are one compact JSON line each", "[mcp][jsonrpc]") {
  const std::string result = result_line(1, Json{{"text", "a\nb"}});
  CHECK(result == "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"a\\nb\"}}\n");
  CHECK(result.find('\n') == result.size() - 1);
  CHECK(error_line(nullptr, -32700, "Parse error") ==
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse "
        "error\"}}\n");
  CHECK(error_line("x", -32602, "bad", Json{{"code", "E"}}) ==
        "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"error\":{\"code\":-32602,\"message\":\"bad\","
        "\"data\":{\"code\":\"E\"}}}\n");
  CHECK(
      notification_line("notifications/progress", Json{{"progress", 1}}) ==
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n");
}

TEST_CASE("params that are not an object are -32602", "[mcp][jsonrpc]") {
  for (std::string_view params : {"[1]", "\"y\"", "3", "null", "true"}) {
    INFO(params);
    const Malformed request = malformed(R"({"jsonrpc":"2.0","id":3,"method":"ping","params":)" +
                                        std::string(params) + "}");
    CHECK(request.code == rpc_error::kInvalidParams);
    CHECK(request.id == 3);
    CHECK(request.answer);
    CHECK(request.message == "Invalid params: params must be an object");
    // A notification is owed nothing, whatever its params.
    CHECK_FALSE(
        malformed(R"({"jsonrpc":"2.0","method":"x","params":)" + std::string(params) + "}").answer);
  }
}

TEST_CASE("a JSON array is a batch of messages, each classified alone", "[mcp][jsonrpc]") {
  const Message message = parse_message(
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"},7,[]])");
  REQUIRE(std::holds_alternative<Batch>(message));
  const std::vector<Json>& elements = std::get<Batch>(message).elements;
  REQUIRE(elements.size() == 4);
  CHECK(std::holds_alternative<Request>(classify_message(elements[0])));
  CHECK(std::holds_alternative<Notification>(classify_message(elements[1])));
  for (const Json& element : {elements[2], elements[3]}) {
    const Message inner = classify_message(element);
    REQUIRE(std::holds_alternative<Malformed>(inner));
    CHECK(std::get<Malformed>(inner).code == rpc_error::kInvalidRequest);
    CHECK(std::get<Malformed>(inner).id == nullptr);
  }
  // An empty batch is one invalid request, answered alone.
  CHECK(malformed("[]").message == "Invalid Request: the batch is empty");
}
