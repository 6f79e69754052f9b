// `clawperator serve` through the real adb against virtual devices, called with curl: every
// route, every status the scenarios produce, the limits, the guard, the event stream and the
// shutdown.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "farm_fixture.hpp"
#include "serve_process.hpp"
#include "served.hpp"
#include "wait_until.hpp"

namespace clawperator::testing {

TEST_CASE("serve: the read-only routes and the errors catalog", "[serve][api]") {
  Farm farm({"default"});
  Served served(farm);
  // A token of 256 random bits, in the inspector's URL and in a 0600 file for scripts.
  REQUIRE(served.token().size() == 64);
  CHECK(served.token().find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(served.stderr_text() ==
        "Clawperator API server listening on http://127.0.0.1:" + std::to_string(served.port()) +
            "/#token=" + served.token() + "\n");
  const std::string token_file =
      served.state_dir() + "/serve-" + std::to_string(served.port()) + ".token";
  CHECK(slurp(token_file) == served.token() + "\n");
  CHECK((std::filesystem::status(token_file).permissions() & std::filesystem::perms::all) ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
  const HttpReply ping = served.get("/ping");
  CHECK(ping.status == 200);
  CHECK(ping.body == json{{"ok", true}});
  const HttpReply version = served.get("/version");
  CHECK(version.status == 200);
  CHECK(version.body["version"] == CLAWPERATOR_VERSION);

  const HttpReply devices = served.get("/devices");
  CHECK(devices.status == 200);
  CHECK(devices.body == json::parse(farm.clawperator({"devices"}).out));
  CHECK(devices.body["devices"][0]["serial"] == farm.serials().front());

  const HttpReply errors = served.get("/errors");
  CHECK(errors.status == 200);
  CHECK(errors.body == json::parse(farm.clawperator({"errors"}).out));
  const HttpReply one = served.get("/errors/NO_DEVICES");
  CHECK(one.status == 200);
  CHECK(one.body["error"]["code"] == "NO_DEVICES");
  const HttpReply unknown = served.get("/errors/NOPE_NOT_A_CODE");
  CHECK(unknown.status == 404);
  CHECK(unknown.body == json::parse(farm.clawperator({"errors", "NOPE_NOT_A_CODE"}).out));

  const HttpReply missing = served.get("/no/such/route");
  CHECK(missing.status == 404);
  CHECK(missing.body["code"] == "ROUTE_NOT_FOUND");
  CHECK(curl(served.url("/ping"), "DELETE").body["code"] == "ROUTE_NOT_FOUND");
  CHECK(served.stop() == 0);
  CHECK(served.stdout_text().empty());
  CHECK(!std::filesystem::exists(token_file));
}

TEST_CASE("serve: executions answer with the CLI's document and the mapped status",
          "[serve][api]") {
  Farm farm({"default"});
  Served served(farm);
  const std::string serial = farm.serials().front();

  // A run: the document `clawperator exec` prints for the same payload.
  const json payload = snapshot_payload("serve-same-1");
  const HttpReply executed = served.post("/execute", json{{"execution", payload}}.dump());
  CHECK(executed.status == 200);
  CHECK(executed.body["ok"] == true);
  CHECK(executed.body["deviceId"] == serial);
  std::ofstream(served.dir() + "/payload.json") << payload.dump();
  const json cli = json::parse(farm.clawperator({"exec", served.dir() + "/payload.json"}).out);
  CHECK(without_timing(executed.body) == without_timing(cli));

  // Validation: the CLI's document, 400.
  json invalid = payload;
  invalid["timeoutMs"] = 5;
  const HttpReply rejected = served.post("/execute", json{{"execution", invalid}}.dump());
  CHECK(rejected.status == 400);
  CHECK(rejected.body["code"] == "EXECUTION_VALIDATION_FAILED");
  std::ofstream(served.dir() + "/invalid.json") << invalid.dump();
  CHECK(rejected.body ==
        json::parse(farm.clawperator({"exec", served.dir() + "/invalid.json"}).out));

  // The route-local errors.
  CHECK(served.post("/execute", "{\"execution\":").body["code"] == "INVALID_JSON");
  CHECK(served.post("/execute", "{\"execution\":").status == 400);
  CHECK(served.post("/execute", "{}").body["code"] == "MISSING_EXECUTION");
  CHECK(served.post("/execute", "[]").body["code"] == "INVALID_BODY");
  const HttpReply unknown_field =
      served.post("/execute", json{{"execution", payload}, {"extra", 1}}.dump());
  CHECK(unknown_field.status == 400);
  CHECK(unknown_field.body["details"]["field"] == "extra");
  const HttpReply blank_device =
      served.post("/execute", json{{"execution", payload}, {"deviceId", " "}}.dump());
  CHECK(blank_device.status == 400);
  CHECK(blank_device.body["code"] == "INVALID_DEVICE_ID");
  const HttpReply no_device =
      served.post("/execute", json{{"execution", payload}, {"deviceId", "no-such-1"}}.dump());
  CHECK(no_device.status == 404);
  CHECK(no_device.body["code"] == "DEVICE_NOT_FOUND");
  CHECK(no_device.body["disposition"].is_object());

  // Bodies over 100 KB are refused before they are read.
  const HttpReply large =
      served.post("/execute", "{\"execution\":\"" + std::string(110 * 1024, 'x') + "\"}");
  CHECK(large.status == 413);
  CHECK(large.body["code"] == "PAYLOAD_TOO_LARGE");

  // snapshot, screenshot (and its PNG), query.
  const HttpReply snapshot = served.post("/snapshot", "");
  CHECK(snapshot.status == 200);
  CHECK(snapshot.body["envelope"]["stepResults"][0]["data"]["text"].get<std::string>().find(
            "<hierarchy") != std::string::npos);
  const HttpReply shot = served.post("/screenshot", json{{"deviceId", serial}}.dump());
  CHECK(shot.status == 200);
  const std::string url = shot.body["envelope"]["stepResults"][0]["data"]["artifactUrl"];
  const RunResult png = run_binary(
      "/usr/bin/curl", {"-sS", "-o", served.dir() + "/shot.png", "-w", "%{http_code}", "-H",
                        "Authorization: Bearer " + served.token(), served.url(url)});
  CHECK(png.out == "200");
  CHECK(slurp(served.dir() + "/shot.png").rfind("\x89PNG", 0) == 0);
  CHECK(served.get("/artifacts/..%2F..%2Fetc%2Fpasswd").status == 404);
  CHECK(served.post("/screenshot", json{{"path", "/tmp/x.png"}}.dump()).status == 400);

  const HttpReply query =
      served.post("/query", json{{"matcher", {{"textEquals", "Settings"}}}}.dump());
  INFO(query.text);
  CHECK(query.status == 200);
  CHECK(query.body["count"] == 1);
  CHECK(query.body["matches"][0]["text"] == "Settings");
  CHECK(served.post("/query", json{{"matcher", {{"bogus", "x"}}}}.dump()).status == 400);

  // The payload (what a user types) never reaches the access log.
  const json typed = {
      {"commandId", "serve-typed"},
      {"taskId", "t"},
      {"source", "serve-test"},
      {"expectedFormat", "android-ui-automator"},
      {"timeoutMs", 10000},
      {"actions",
       json::array(
           {{{"id", "t"},
             {"type", "enter_text"},
             {"params", {{"matcher", {{"textEquals", "nope"}}}, {"text", "pa55-word-typed"}}}}})}};
  served.post("/execute", json{{"execution", typed}}.dump());
  CHECK(served.stop() == 0);
  std::string log;
  for (const auto& entry : std::filesystem::directory_iterator(farm.log_dir())) {
    log += slurp(entry.path().string());
  }
  CHECK(log.find("serve.http.request") != std::string::npos);
  CHECK(log.find("serve.server.started") != std::string::npos);
  CHECK(log.find("pa55-word-typed") == std::string::npos);
}

TEST_CASE("serve: two devices and no deviceId is a 400", "[serve][api]") {
  Farm farm({"default", "default"});
  Served served(farm);
  const HttpReply ambiguous = served.post("/snapshot", "{}");
  CHECK(ambiguous.status == 400);
  CHECK(ambiguous.body["code"] == "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED");
  const HttpReply chosen = served.post("/snapshot", json{{"deviceId", farm.serials()[1]}}.dump());
  CHECK(chosen.status == 200);
  CHECK(chosen.body["deviceId"] == farm.serials()[1]);
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: Host and Origin of a browser request must be the server's own", "[serve][api]") {
  Farm farm({"default"});
  Served served(farm);
  const std::string own = "127.0.0.1:" + std::to_string(served.port());
  CHECK(served.get("/devices", {"Origin: http://" + own}).status == 200);
  const HttpReply foreign = served.get("/devices", {"Origin: http://evil.example"});
  CHECK(foreign.status == 403);
  CHECK(foreign.body["code"] == "FORBIDDEN_ORIGIN");
  CHECK(foreign.body["details"]["header"] == "Origin");
  const HttpReply posted = served.post("/execute", "{}", {"Origin: http://evil.example"});
  CHECK(posted.status == 403);
  const HttpReply rebound =
      served.get("/devices", {"Host: rebound.example:" + std::to_string(served.port())});
  CHECK(rebound.status == 403);
  CHECK(rebound.body["details"]["header"] == "Host");
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: beyond loopback a bearer token is required on every route but /ping",
          "[serve][api]") {
  Farm farm({"default"});
  const RunResult refused = farm.clawperator({"serve", "--host", "0.0.0.0", "--no-token"});
  CHECK(refused.exit_code == 2);
  CHECK(json::parse(refused.out)["code"] == "USAGE");
  CHECK(json::parse(refused.out)["details"]["flag"] == "--no-token");
  CHECK(json::parse(farm.clawperator({"serve", "--port", "70000"}).out)["message"] ==
        "Invalid port number. Must be 1-65535.");

  Served served(farm, {"--host", "0.0.0.0"}, {{"CLAWPERATOR_SERVE_TOKEN", "t0ken-xyz"}});
  // A token of the user's own is not printed.
  CHECK(served.stderr_text() == "Clawperator API server listening on http://0.0.0.0:" +
                                    std::to_string(served.port()) + "\n");
  CHECK(served.anonymous_get("/ping").status == 200);
  const HttpReply anonymous = served.anonymous_get("/devices");
  CHECK(anonymous.status == 401);
  CHECK(anonymous.body["code"] == "UNAUTHORIZED");
  CHECK(served.anonymous_get("/devices", {"Authorization: Bearer wrong"}).status == 401);
  CHECK(curl(served.url("/execute"), "POST", served.body("{}"), {"Authorization: Bearer t0ken-xy"})
            .status == 401);
  CHECK(served.anonymous_get("/devices", {"Authorization: Bearer t0ken-xyz"}).status == 200);
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: an event subscriber sees the executions others send", "[serve][api]") {
  Farm farm({"default"});
  Served served(farm);
  const std::string events = served.dir() + "/events";
  Background subscriber("/usr/bin/curl",
                        {"-sS", "-N", "--max-time", "30", "-H",
                         "Authorization: Bearer " + served.token(), served.url("/events")},
                        {}, events, served.dir() + "/events.err");
  for (int attempt = 0; attempt < 250 && slurp(events).find("heartbeat") == std::string::npos;
       ++attempt) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  CHECK(served.post("/snapshot", "{}").status == 200);
  CHECK(served.post("/snapshot", json{{"deviceId", "no-such-2"}}.dump()).status == 404);
  for (int attempt = 0; attempt < 250 && slurp(events).find("no-such-2") == std::string::npos;
       ++attempt) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  // Shutdown closes the stream: curl ends on its own.
  CHECK(served.stop() == 0);
  CHECK(subscriber.stop(0, milliseconds(5000)) == 0);
  const std::string text = slurp(events);
  INFO(text);
  CHECK(text.rfind("event: heartbeat\ndata: {\"code\":\"CONNECTED\"", 0) == 0);
  std::vector<std::string> names;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("event: ", 0) == 0) names.push_back(line.substr(7));
  }
  // The host failure is an execution event only, never a synthetic result.
  CHECK(names == std::vector<std::string>{"heartbeat", "clawperator:execution",
                                          "clawperator:result", "clawperator:execution"});
}

TEST_CASE("serve: a locked device is 409, the event stream's client limit 503", "[serve][api]") {
  Farm farm({"locked"});
  Served served(farm);
  // Readiness refuses a locked phone before anything is sent: the newest mapping's 409.
  const HttpReply locked = served.post("/snapshot", "{}");
  CHECK(locked.status == 409);
  CHECK(locked.body["code"] == "DEVICE_NOT_INTERACTIVE");
  CHECK(locked.body["disposition"]["delivery"] == "not_delivered");
  CHECK(locked.body["details"]["dispatchState"] == "not_dispatched");

  // Sixteen event streams at once (include/clawperator/serve/server.hpp): the next is 503.
  std::vector<std::unique_ptr<Background>> subscribers;
  for (int i = 0; i < 16; ++i) {
    const std::string out = served.dir() + "/events-" + std::to_string(i);
    subscribers.push_back(std::make_unique<Background>(
        "/usr/bin/curl",
        std::vector<std::string>{"-sS", "-N", "--max-time", "60", "-H",
                                 "Authorization: Bearer " + served.token(), served.url("/events")},
        std::map<std::string, std::string>{}, out, out + ".err"));
    for (int attempt = 0; attempt < 250 && slurp(out).find("heartbeat") == std::string::npos;
         ++attempt) {
      std::this_thread::sleep_for(milliseconds(20));
    }
    REQUIRE(slurp(out).find("heartbeat") != std::string::npos);
  }
  const HttpReply over = served.get("/events");
  CHECK(over.status == 503);
  CHECK(over.body["code"] == "SSE_CLIENT_LIMIT");
  // The API itself still answers beside the streams.
  CHECK(served.get("/ping").status == 200);
  CHECK(served.stop() == 0);
  for (auto& subscriber : subscribers) CHECK(subscriber->stop(0, milliseconds(5000)) == 0);
}

TEST_CASE("serve: envelope timeout, a busy device, and a shutdown that cancels truthfully",
          "[serve][api]") {
  Farm farm({"never-answer"});
  Served served(farm);
  const std::string serial = farm.serials().front();
  // The first holds the device for its result wait (1 s + 5 s); the second waits for the lock
  // as long as its own budget (1 s) and gives up.
  std::thread first([&] {
    const HttpReply timeout =
        served.post("/execute", json{{"execution", snapshot_payload("slow-1", 1000)}}.dump());
    CHECK(timeout.status == 504);
    CHECK(timeout.body["code"] == "RESULT_ENVELOPE_TIMEOUT");
  });
  const bool waiting_for_result = wait_until(
      [&] { return farm.logged_for("broadcast.dispatched", "slow-1"); }, milliseconds(30000));
  if (waiting_for_result) {
    const HttpReply busy =
        served.post("/execute", json{{"execution", snapshot_payload("slow-2", 1000)}}.dump());
    CHECK(busy.status == 423);
    CHECK(busy.body["code"] == "EXECUTION_CONFLICT_IN_FLIGHT");
  }
  first.join();
  REQUIRE(waiting_for_result);

  // In flight at SIGTERM: answered as cancelled, with its dispatch state; the server exits 0.
  HttpReply cancelled;
  std::thread waiting([&] {
    cancelled =
        served.post("/execute", json{{"execution", snapshot_payload("slow-3", 60000)}}.dump());
  });
  const bool in_flight = wait_until(
      [&] { return farm.logged_for("broadcast.dispatched", "slow-3"); }, milliseconds(30000));
  const auto stopping = std::chrono::steady_clock::now();
  CHECK(served.stop(SIGTERM) == 0);
  CHECK(std::chrono::steady_clock::now() - stopping < std::chrono::seconds(5));
  waiting.join();
  REQUIRE(in_flight);
  CHECK(cancelled.status == 503);  // the server is going away
  CHECK(cancelled.body["code"] == "RESULT_TRANSPORT_CANCELLED");
  // Its dispatch state as it was (the readiness probe or the result wait was cut short).
  const std::string dispatch_state = cancelled.body["details"].value("dispatchState", "");
  CHECK((dispatch_state == "dispatched" || dispatch_state == "not_dispatched"));
  // Every adb child of the server was reaped: nothing mentions the device any more.
  CHECK(processes_mentioning(serial) == 0);
}

}  // namespace clawperator::testing
