// POST /visual-text/ACTION (docs/serve.md, "Text on the screen"): the same service as
// `clawperator click --visual-text` and the visual_text_* MCP tools, through the real adb and the
// virtual device whose Flutter-like shop draws labels its tree lacks
// (examples/scenarios/drawn-text.json). Bodies are read by the service's one reader.
#include "served.hpp"

namespace clawperator::testing {

TEST_CASE("serve: visual-text query, click and wait find drawn text, refusals name their field",
          "[serve][visual-text]") {
  Farm farm({"drawn-text"});
  REQUIRE(farm.adb({"-s", farm.serials().front(), "shell", "am", "start", "-n",
                    "com.example.fluttershop/.MainActivity"})
              .exit_code == 0);
  Served served(farm);

  HttpReply reply = served.post("/visual-text/query", R"({"contains":"EUR"})");
  INFO(reply.text);
  REQUIRE(reply.status == 200);
  CHECK(reply.body["count"] == 2);  // the price line and the delivery line

  reply = served.post("/visual-text/click", R"({"text":"Details"})");
  CHECK(reply.status == 502);  // the catalog's status of NODE_AMBIGUOUS
  CHECK(reply.body["code"] == "NODE_AMBIGUOUS");

  reply = served.post("/visual-text/click", R"({"text":"Buy now"})");
  REQUIRE(reply.status == 200);
  CHECK(reply.body["visualText"]["text"] == "Buy now");
  reply = served.post("/visual-text/wait", R"({"text":"Back to shop","timeoutMs":5000})");
  CHECK(reply.status == 200);

  for (const auto& [action, body, field] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"click", R"({})", "text"},
           {"click", R"({"text":"a","contains":"b"})", "contains"},
           {"query", R"({"text":"a","long":true})", "long"},
           {"read", R"({"text":"a","region":"1,2,3,4"})", "region"},
           {"wait", R"({"text":"a","timeoutMs":0})", "timeoutMs"},
       }) {
    INFO(action << " " << body);
    const HttpReply refused = served.post("/visual-text/" + action, body);
    CHECK(refused.status == 400);
    CHECK(refused.body["code"] == "INVALID_BODY");
    CHECK(refused.body["details"]["field"] == field);
  }
}

}  // namespace clawperator::testing
