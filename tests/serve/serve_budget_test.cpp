// One budget on every front end (issue 45): an execution's timeoutMs bounds the whole run, the
// adb calls before dispatch included, over HTTP and MCP as on the CLI. The device's package
// manager hangs (examples/scenarios/package-list-hangs.json), so the presence check waits on it.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "mcp_session.hpp"
#include "served.hpp"

namespace clawperator::testing {
namespace {

using Clock = std::chrono::steady_clock;

// timeoutMs 1000 plus the documented 5 s result grace, with room for a loaded machine (the
// sanitizer build). Without the budget each of them waits on `pm list packages` for ten minutes.
constexpr auto kBound = milliseconds(1000 + 5000 + 3000);

json snapshot_execution() {
  return snapshot_payload("budget", 1000);
}

}  // namespace

TEST_CASE("serve: an execution on a device whose package manager hangs ends within its budget",
          "[serve][budget]") {
  Farm farm({"package-list-hangs"});
  Served served(farm);
  const auto started = Clock::now();
  const HttpReply reply =
      served.post("/execute", json{{"execution", snapshot_execution()}}.dump(), {}, 30);
  const auto elapsed = Clock::now() - started;
  INFO(reply.text.substr(0, 2000));
  CHECK(elapsed < kBound);
  CHECK(reply.body["ok"] == false);
  CHECK(reply.body["disposition"]["delivery"] == "not_delivered");
  CHECK(served.stop() == 0);
}

TEST_CASE("mcp serve: an execution on a device whose package manager hangs ends within its budget",
          "[serve][budget][mcp]") {
  Farm farm({"package-list-hangs"});
  const TemporaryDirectory scratch("mcp-budget");
  const std::string dir = scratch.path().string();
  McpSession session(farm.environment().extra_env, dir);
  const auto started = Clock::now();
  const json& execution = snapshot_execution();
  session.call_tool("run", "execute",
                    {{"deviceId", farm.serials().front()},
                     {"actions", execution["actions"]},
                     {"timeoutMs", 1000}});
  // The answer, waited for while the server's input stays open: at its end the server would
  // cancel the call and answer RESULT_TRANSPORT_CANCELLED, which this test refuses.
  const json answer = session.answer("run", milliseconds(60000));
  const auto elapsed = Clock::now() - started;
  INFO(answer.dump().substr(0, 2000) << "\nstderr: " << session.stderr_text().substr(0, 2000));
  REQUIRE(answer.is_object());
  const json& document = answer["result"]["structuredContent"];
  CHECK(answer["result"]["isError"] == true);
  CHECK(document["code"] != "RESULT_TRANSPORT_CANCELLED");
  CHECK(document["disposition"]["delivery"] == "not_delivered");
  CHECK(elapsed < kBound);
  CHECK(session.stop(milliseconds(10000)) == 0);
}

}  // namespace clawperator::testing
