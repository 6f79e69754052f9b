// Load: 50 concurrent requests across 5 virtual devices, all answered correctly, no device
// running two executions at once (its Operator log alternates received / finished), and
// nothing left running after shutdown.
#include <catch2/catch.hpp>
#include <mutex>
#include <sstream>
#include <thread>

#include "farm_fixture.hpp"
#include "serve_process.hpp"
#include "served.hpp"

namespace clawperator::testing {

TEST_CASE("serve load: 50 concurrent executions on 5 devices", "[serve][load]") {
  Farm farm({"default", "default", "default", "default", "default"});
  Served served(farm);
  constexpr int kRequests = 50;
  std::vector<HttpReply> replies(kRequests);
  std::vector<std::thread> clients;
  for (int i = 0; i < kRequests; ++i) {
    clients.emplace_back([&, i] {
      const std::string serial = farm.serials()[static_cast<std::size_t>(i) % 5];
      const nlohmann::json body = {{"execution", snapshot_payload("load-" + std::to_string(i))},
                                   {"deviceId", serial}};
      replies[static_cast<std::size_t>(i)] = served.post("/execute", body.dump(), {}, 120);
    });
  }
  for (std::thread& client : clients) client.join();
  for (int i = 0; i < kRequests; ++i) {
    const HttpReply& reply = replies[static_cast<std::size_t>(i)];
    INFO(i << ": " << reply.text.substr(0, 400));
    CHECK(reply.status == 200);
    CHECK(reply.body["ok"] == true);
    CHECK(reply.body["deviceId"] == farm.serials()[static_cast<std::size_t>(i) % 5]);
    CHECK(reply.body["envelope"]["commandId"] == "load-" + std::to_string(i));
  }
  for (const std::string& serial : farm.serials()) {
    const RunResult log = farm.adb({"-s", serial, "logcat", "-d"});
    std::istringstream lines(log.out);
    std::string order;
    int executions = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.find("] received taskId=") != std::string::npos) order += 'R';
      if (line.find("] finished: ") != std::string::npos) order += 'F';
      if (line.find("[commandId=load-") != std::string::npos &&
          line.find("] received ") != std::string::npos) {
        ++executions;
      }
    }
    INFO(serial << ": " << order);
    CHECK(executions == kRequests / 5);
    CHECK(order.find("RR") == std::string::npos);
  }
  CHECK(served.stop() == 0);
  for (const std::string& serial : farm.serials()) CHECK(processes_mentioning(serial) == 0);
}

}  // namespace clawperator::testing
