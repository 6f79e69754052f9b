// One budget on every front end (issue 45): an execution's timeoutMs bounds the whole run, the
// adb calls before dispatch included, over HTTP and MCP as on the CLI. The device's package
// manager hangs (examples/scenarios/package-list-hangs.json), so the presence check waits on it.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <string>

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
  int input[2];
  REQUIRE(::pipe2(input, O_CLOEXEC) == 0);
  Background server(kBinary, {"mcp", "serve"}, farm.environment().extra_env, dir + "/out",
                    dir + "/err", input[0]);
  ::close(input[0]);
  const auto send = [&](const json& message) {
    const std::string line = message.dump() + "\n";
    REQUIRE(::write(input[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
  };
  send({{"jsonrpc", "2.0"},
        {"id", "init"},
        {"method", "initialize"},
        {"params",
         {{"protocolVersion", "2025-11-25"},
          {"capabilities", json::object()},
          {"clientInfo", {{"name", "budget-test"}, {"version", "1"}}}}}});
  send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  const auto started = Clock::now();
  const json& execution = snapshot_execution();
  send({{"jsonrpc", "2.0"},
        {"id", "run"},
        {"method", "tools/call"},
        {"params",
         {{"name", "execute"},
          {"arguments",
           {{"deviceId", farm.serials().front()},
            {"actions", execution["actions"]},
            {"timeoutMs", 1000}}}}}});
  // The answer, waited for while the server's input stays open: at its end the server would
  // cancel the call and answer RESULT_TRANSPORT_CANCELLED, which this test refuses.
  json answer;
  while (answer.is_null() && Clock::now() - started < milliseconds(60000)) {
    std::istringstream lines(slurp(dir + "/out"));
    for (std::string line; std::getline(lines, line);) {
      const json message = json::parse(line, nullptr, false);
      if (message.is_object() && message.value("id", json()) == "run") answer = message;
    }
    if (answer.is_null()) std::this_thread::sleep_for(milliseconds(50));
  }
  const auto elapsed = Clock::now() - started;
  ::close(input[1]);
  INFO(answer.dump().substr(0, 2000) << "\nstderr: " << slurp(dir + "/err").substr(0, 2000));
  REQUIRE(answer.is_object());
  const json& document = answer["result"]["structuredContent"];
  CHECK(answer["result"]["isError"] == true);
  CHECK(document["code"] != "RESULT_TRANSPORT_CANCELLED");
  CHECK(document["disposition"]["delivery"] == "not_delivered");
  CHECK(elapsed < kBound);
  CHECK(server.stop(0, milliseconds(10000)) == 0);
}

}  // namespace clawperator::testing
