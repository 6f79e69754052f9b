// What `clawperator serve` keeps between requests and how results come back (issue 28 item 8,
// docs/serve.md): each device's logcat reader stays warm, as `mcp serve` keeps it, and is
// reaped at exit; --result-transport and CLAWPERATOR_RESULT_TRANSPORT reach its executions.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "farm_fixture.hpp"
#include "served.hpp"

namespace clawperator::testing {
namespace {

// The server's logcat readers now: its children that run `adb ... logcat`.
std::vector<pid_t> logcat_readers_of(pid_t server) {
  std::vector<pid_t> readers;
  for (const auto& [pid, cmdline] : children_of(server)) {
    if (cmdline.find(" logcat ") != std::string::npos) readers.push_back(pid);
  }
  return readers;
}

}  // namespace

TEST_CASE("serve: a device's logcat reader stays warm between requests and is reaped at exit",
          "[serve][api]") {
  Farm farm({"default"});
  Served served(farm);
  const std::string serial = farm.serials().front();
  CHECK(logcat_readers_of(served.pid()).empty());

  const HttpReply first =
      served.post("/execute", json{{"execution", snapshot_payload("warm-1")}}.dump());
  CHECK(first.status == 200);
  const std::vector<pid_t> kept = logcat_readers_of(served.pid());
  REQUIRE(kept.size() == 1);
  // The next requests (an execution and a snapshot) take the same reader and give it back.
  CHECK(served.post("/execute", json{{"execution", snapshot_payload("warm-2")}}.dump()).status ==
        200);
  CHECK(served.post("/snapshot", "{}").status == 200);
  CHECK(logcat_readers_of(served.pid()) == kept);
  // Without a resultTransport member: logcat, as the CLI's default output has it.
  CHECK(!first.body.contains("resultTransport"));

  CHECK(served.stop(SIGTERM) == 0);
  CHECK(processes_mentioning(serial) == 0);
}

TEST_CASE("serve: a kept reader's server takes the next requests' shell calls", "[serve][api]") {
  // docs/wire-protocol.md §2.7: the relay of the reader kept warm proved the adb server, so the
  // next requests' broadcasts are spoken to it, not run as adb processes.
  Farm farm({"default"});
  Served served(farm, {}, {{"CLAWPERATOR_LOG_LEVEL", "debug"}});
  for (const char* id : {"server-1", "server-2", "server-3"}) {
    CHECK(served.post("/execute", json{{"execution", snapshot_payload(id)}}.dump()).status == 200);
  }
  CHECK(served.stop(SIGTERM) == 0);
  std::vector<json> broadcasts;
  for (json& call : farm.logged_events("adb.command")) {
    if (call["argv"].back().get<std::string>().find("am broadcast") != std::string::npos) {
      broadcasts.push_back(std::move(call));
    }
  }
  REQUIRE(broadcasts.size() >= 3);
  // The last request's reader was kept by the one before it.
  CHECK(broadcasts.back().value("via", "") == "server");
  CHECK(broadcasts[broadcasts.size() - 2].value("via", "") == "server");
}

TEST_CASE("serve: --result-transport and CLAWPERATOR_RESULT_TRANSPORT reach its executions",
          "[serve][api]") {
  Farm farm({"default"});
  SECTION("--result-transport direct") {
    Served served(farm, {"--result-transport", "direct"});
    const HttpReply executed =
        served.post("/execute", json{{"execution", snapshot_payload("direct-1")}}.dump());
    CHECK(executed.status == 200);
    CHECK(executed.body["resultTransport"]["used"] == "direct");
    CHECK(served.stop() == 0);
  }
  SECTION("CLAWPERATOR_RESULT_TRANSPORT=auto") {
    Served served(farm, {}, {{"CLAWPERATOR_RESULT_TRANSPORT", "auto"}});
    const HttpReply executed = served.post("/snapshot", "{}");
    CHECK(executed.status == 200);
    CHECK(executed.body["resultTransport"]["used"] == "direct");
    CHECK(served.stop() == 0);
  }
  SECTION("a value that is none of the three is refused at start, as by every command") {
    const RunResult refused = farm.clawperator({"serve", "--result-transport", "socket"});
    CHECK(refused.exit_code == 2);
    CHECK(json::parse(refused.out)["code"] == "USAGE");
  }
}

}  // namespace clawperator::testing
