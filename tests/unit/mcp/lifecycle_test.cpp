#include "clawperator/mcp/lifecycle.hpp"

#include <catch2/catch.hpp>

#include "clawperator/mcp/jsonrpc.hpp"

using namespace clawperator;
using namespace clawperator::mcp;

TEST_CASE("initialize negotiates one of the four protocol versions", "[mcp][lifecycle]") {
  for (std::string_view version : kProtocolVersions) {
    CHECK(negotiate_protocol_version(Json{{"protocolVersion", version}}) == version);
  }
  CHECK(negotiate_protocol_version(Json{{"protocolVersion", "2023-01-01"}}) == "2025-11-25");
  CHECK(negotiate_protocol_version(Json{{"protocolVersion", 5}}) == "2025-11-25");
  CHECK(negotiate_protocol_version(Json::object()) == "2025-11-25");
  const Json result = initialize_result("2025-06-18");
  CHECK(result["protocolVersion"] == "2025-06-18");
  CHECK(result["capabilities"] == Json{{"tools", {{"listChanged", false}}}});
  CHECK(result["serverInfo"]["name"] == "clawperator");
  CHECK(result["serverInfo"]["version"] == CLAWPERATOR_VERSION);
}

TEST_CASE("requests before initialize are refused, ping never is", "[mcp][lifecycle]") {
  Lifecycle lifecycle;
  CHECK_FALSE(lifecycle.admit("ping"));
  CHECK_FALSE(lifecycle.admit("initialize"));
  const auto refused = lifecycle.admit("tools/list");
  REQUIRE(refused);
  CHECK(refused->code == rpc_error::kInvalidRequest);
  CHECK(refused->message == "Invalid Request: the server is not initialized");
  lifecycle.initialized("2025-03-26");
  CHECK(lifecycle.protocol_version() == "2025-03-26");
  CHECK_FALSE(lifecycle.admit("tools/list"));
  CHECK_FALSE(lifecycle.admit("anything/else"));  // -32601 is the dispatcher's answer
  const auto again = lifecycle.admit("initialize");
  REQUIRE(again);
  CHECK(again->message == "Invalid Request: already initialized");
  CHECK_FALSE(lifecycle.is_ready());
  lifecycle.ready();
  CHECK(lifecycle.is_ready());
}
