// What `clawperator serve` refuses, through the real adb against virtual devices (issue 26,
// docs/serve.md §4): a caller's host path, a request without the token, frames from other
// sites, and clients that send too much, too slowly or too often. Each refusal is checked for
// its status and code and for having changed nothing (the file's bytes, the device's log).
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "clawperator/text.hpp"
#include "farm_fixture.hpp"
#include "raw_http.hpp"
#include "serve_process.hpp"
#include "served.hpp"
#include "wait_until.hpp"

namespace clawperator::testing {
namespace {

using Clock = std::chrono::steady_clock;

json screenshot_payload(const std::string& id, const std::string& type, const json& params) {
  json action = {{"id", "shot"}, {"type", type}};
  if (!params.is_null()) action["params"] = params;
  return {{"commandId", id},        {"taskId", id},
          {"source", "serve-test"}, {"expectedFormat", "android-ui-automator"},
          {"timeoutMs", 30000},     {"actions", json::array({action})}};
}

// Whether the device's Operator ever saw a command with this id.
bool device_saw(const Farm& farm, const std::string& id) {
  return farm.adb({"-s", farm.serials().front(), "logcat", "-d"}).out.find(id) != std::string::npos;
}

// The value of a response header (first occurrence, name in any case); "" when absent.
std::string header_value(const std::string& head, const std::string& name) {
  std::istringstream lines(head);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string wanted = name;
    for (char& c : wanted) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (key == wanted) return std::string(trim(line.substr(colon + 1)));
  }
  return "";
}

void check_security_headers(const std::string& head) {
  INFO(head);
  const std::string policy = header_value(head, "Content-Security-Policy");
  CHECK(policy.find("default-src 'self'") != std::string::npos);
  CHECK(policy.find("frame-ancestors 'none'") != std::string::npos);
  CHECK(header_value(head, "X-Frame-Options") == "DENY");
  CHECK(header_value(head, "X-Content-Type-Options") == "nosniff");
  CHECK(header_value(head, "Referrer-Policy") == "no-referrer");
  CHECK(header_value(head, "Cache-Control") == "no-store");
}

// The status of a raw response ("HTTP/1.1 413 …" -> 413), 0 when none.
int status_of(const std::string& response) {
  if (response.rfind("HTTP/1.1 ", 0) != 0) return 0;
  return std::atoi(response.c_str() + 9);
}

json body_of(const std::string& response) {
  const auto start = response.find("\r\n\r\n");
  if (start == std::string::npos) return json();
  return json::parse(response.substr(start + 4), nullptr, false);
}

}  // namespace

TEST_CASE("serve: a take_screenshot path from an HTTP caller is refused under every alias",
          "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  const std::string victim = served.dir() + "/victim.txt";
  const std::string original = "export PATH=/usr/bin # a file of ours\n";
  std::ofstream(victim, std::ios::binary) << original;
  int number = 0;
  for (const char* type : {"take_screenshot", "screenshot", "capture_screenshot"}) {
    for (const char* alias : {"path", "file", "filePath", "output_path"}) {
      const std::string id = "serve-path-" + std::to_string(++number);
      const HttpReply refused = served.post(
          "/execute", json{{"execution", screenshot_payload(id, type, {{alias, victim}})}}.dump());
      INFO(type << " " << alias << ": " << refused.text);
      CHECK(refused.status == 400);
      CHECK(refused.body["code"] == "EXECUTION_VALIDATION_FAILED");
      CHECK(refused.body["details"]["path"] == std::string("actions.0.params.") + alias);
      CHECK(refused.body["disposition"]["delivery"] == "not_delivered");
      CHECK(slurp(victim) == original);
      CHECK(!device_saw(farm, id));
    }
  }
  CHECK(served.stop() == 0);
  CHECK(slurp(victim) == original);
}

TEST_CASE("serve: a screenshot through the server is kept privately and fetched by id",
          "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  const std::string store = served.state_dir() + "/serve-artifacts-" + std::to_string(served.pid());
  struct stat status {};
  REQUIRE(::lstat(store.c_str(), &status) == 0);
  CHECK(S_ISDIR(status.st_mode));
  CHECK((status.st_mode & 0777) == 0700);

  const HttpReply shot = served.post("/screenshot", "{}");
  REQUIRE(shot.status == 200);
  const json data = shot.body["envelope"]["stepResults"][0]["data"];
  INFO(shot.text);
  CHECK(!data.contains("path"));
  const std::string id = data["artifactId"];
  CHECK(data["artifactUrl"] == "/artifacts/" + id);
  // No host path reaches the caller.
  CHECK(shot.text.find(served.state_dir()) == std::string::npos);

  // /execute's own take_screenshot (no path given) goes to the same store.
  const HttpReply executed = served.post(
      "/execute",
      json{{"execution", screenshot_payload("serve-own-shot", "take_screenshot", nullptr)}}.dump());
  REQUIRE(executed.status == 200);
  const std::string second = executed.body["envelope"]["stepResults"][0]["data"]["artifactId"];
  CHECK(second != id);
  CHECK(executed.text.find(served.state_dir()) == std::string::npos);

  for (const std::string& each : {id, second}) {
    const std::string out = served.dir() + "/" + each + ".png";
    const RunResult fetched =
        run_binary("/usr/bin/curl",
                   {"-sS", "-o", out, "-w", "%{http_code} %{content_type}", "-H",
                    "Authorization: Bearer " + served.token(), served.url("/artifacts/" + each)});
    CHECK(fetched.out == "200 image/png");
    CHECK(slurp(out).rfind("\x89PNG", 0) == 0);
    CHECK(slurp(out) == slurp(store + "/" + each + ".png"));
  }
  // Same token rules as every route; an id the server did not make is no file.
  CHECK(served.anonymous_get("/artifacts/" + id).status == 401);
  const HttpReply unknown = served.get("/artifacts/shot-1-nothing");
  CHECK(unknown.status == 404);
  CHECK(unknown.body["code"] == "ROUTE_NOT_FOUND");
  std::ofstream(store + "/planted.png") << "not ours";
  CHECK(served.get("/artifacts/planted").status == 404);

  CHECK(served.stop() == 0);
  CHECK(!std::filesystem::exists(store));
}

TEST_CASE("serve: without the token every route but /ping and the inspector's files is 401",
          "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  const std::vector<std::string> gets = {"/version",
                                         "/devices",
                                         "/errors",
                                         "/errors/NO_DEVICES",
                                         "/events",
                                         "/skills",
                                         "/artifacts/shot-1-abc",
                                         "/inspector/a/b"};
  for (const std::string& path : gets) {
    INFO(path);
    const HttpReply refused = served.anonymous_get(path);
    CHECK(refused.status == 401);
    CHECK(refused.body["code"] == "UNAUTHORIZED");
    CHECK(refused.body["disposition"]["delivery"] == "not_delivered");
    CHECK(served.anonymous_get(path, {"Authorization: Bearer " + served.token() + "x"}).status ==
          401);
    check_security_headers(refused.headers);
  }
  const json payload = snapshot_payload("serve-anonymous-1");
  for (const std::string path : {"/execute", "/snapshot", "/screenshot", "/query"}) {
    INFO(path);
    const std::string body = path == "/execute" ? json{{"execution", payload}}.dump()
                             : path == "/query" ? json{{"matcher", {{"textEquals", "x"}}}}.dump()
                                                : "{}";
    const HttpReply refused = served.anonymous_post(path, body);
    CHECK(refused.status == 401);
    CHECK(refused.body["code"] == "UNAUTHORIZED");
  }
  CHECK(!device_saw(farm, "serve-anonymous-1"));
  CHECK(served.anonymous_get("/ping").status == 200);
  // The inspector's page and files hold no data: a browser loads them without the token, which
  // the page then reads from the URL's fragment (src/serve/inspector/inspector.js).
  for (const std::string path : {"/", "/inspector/inspector.js", "/inspector/inspector.css"}) {
    INFO(path);
    const HttpReply page = served.anonymous_get(path);
    CHECK(page.status == 200);
    CHECK(header_value(page.headers, "Set-Cookie").empty());
    check_security_headers(page.headers);
  }
  // The scheme in any case.
  CHECK(served.anonymous_get("/version", {"Authorization: bEaReR " + served.token()}).status ==
        200);

  // Never a cookie: one named as the inspector's once was is no credential, and no response
  // sets any.
  const std::string name = "clawperator_token_" + std::to_string(served.port());
  const HttpReply cookie =
      served.anonymous_get("/devices", {"Cookie: " + name + "=" + served.token()});
  CHECK(cookie.status == 401);
  // Never a query: ?token= is refused, the right token included and beside the right bearer,
  // and sets nothing.
  for (const std::string path : {"/?token=", "/devices?token=", "/ping?token="}) {
    INFO(path);
    const HttpReply query = served.anonymous_get(path + served.token());
    CHECK(query.status == 401);
    CHECK(query.body["code"] == "UNAUTHORIZED");
    CHECK(query.body["details"]["parameter"] == "token");
    CHECK(header_value(query.headers, "Set-Cookie").empty());
    CHECK(header_value(query.headers, "Location").empty());
    CHECK(served.get(path + served.token()).status == 401);
  }
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: --no-token is loopback only and says so once", "[serve][security]") {
  Farm farm({"default"});
  Served served(farm, {"--no-token"});
  CHECK(served.token().empty());
  CHECK(served.stderr_text() ==
        "clawperator: warning: --no-token: any process of any local user can drive the devices "
        "through this server\nClawperator API server listening on http://127.0.0.1:" +
            std::to_string(served.port()) + "\n");
  CHECK(served.anonymous_get("/devices").status == 200);
  CHECK(!std::filesystem::exists(served.state_dir() + "/serve-" + std::to_string(served.port()) +
                                 ".token"));
  CHECK(served.stop() == 0);
  const RunResult both = farm.clawperator({"serve", "--no-token", "--token", "x"});
  CHECK(both.exit_code == 2);
  CHECK(json::parse(both.out)["details"]["flag"] == "--no-token");
}

TEST_CASE("serve: every response carries the security headers", "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  for (const std::string path :
       {"/ping", "/version", "/devices", "/errors", "/errors/NO_DEVICES", "/errors/NOPE", "/",
        "/inspector/inspector.js", "/inspector/inspector.css", "/artifacts/shot-1-abc", "/nope"}) {
    INFO(path);
    check_security_headers(served.get(path).headers);
  }
  for (const std::string path : {"/execute", "/snapshot", "/screenshot", "/query"}) {
    INFO(path);
    check_security_headers(served.post(path, "{\"bad\":1}").headers);
  }
  const HttpReply screenshot = served.post("/screenshot", "{}");
  check_security_headers(
      curl(served.url(screenshot.body["envelope"]["stepResults"][0]["data"]["artifactUrl"]
                          .get<std::string>()),
           "GET", "", served.authorized())
          .headers);
  // The event stream's head, and a refusal the gate writes itself.
  const int stream = connect_local(served.port());
  REQUIRE(send_all(stream, request_head("GET", "/events", served.port(), served.token())));
  const std::string head = receive(stream, milliseconds(5000), 200);
  CHECK(status_of(head) == 200);
  check_security_headers(head.substr(0, head.find("\r\n\r\n")));
  ::close(stream);
  const int large = connect_local(served.port());
  REQUIRE(send_all(large, request_head("POST", "/execute", served.port(), served.token(),
                                       "Content-Length: 999999999\r\n")));
  const std::string refused = receive(large, milliseconds(5000));
  CHECK(status_of(refused) == 413);
  check_security_headers(refused.substr(0, refused.find("\r\n\r\n")));
  ::close(large);
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: a 10 MB chunked body is 413 with the server's memory bounded",
          "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  REQUIRE(served.get("/version").status == 200);
  const long before = resident_kib(served.pid());
  REQUIRE(before > 0);
  long largest = before;

  const int fd = connect_local(served.port());
  REQUIRE(send_all(fd, request_head("POST", "/execute", served.port(), served.token(),
                                    "Content-Type: application/json\r\n"
                                    "Transfer-Encoding: chunked\r\n")));
  std::atomic<bool> sending{true};
  std::thread sender([&] {
    const std::string chunk = "10000\r\n" + std::string(0x10000, ' ') + "\r\n";
    for (int i = 0; i < 160 && sending; ++i) {  // 10 MiB
      if (!send_all(fd, chunk)) break;
    }
  });
  const std::string response = receive(fd, milliseconds(20000));
  sending = false;
  ::shutdown(fd, SHUT_RDWR);
  sender.join();
  ::close(fd);
  largest = std::max(largest, resident_kib(served.pid()));
  INFO(response);
  CHECK(status_of(response) == 413);
  CHECK(body_of(response)["code"] == "PAYLOAD_TOO_LARGE");

  // A length-less body is no body (HTTP/1.1): the route sees none, the 10 MB are never read.
  const int bare = connect_local(served.port());
  REQUIRE(send_all(bare, request_head("POST", "/execute", served.port(), served.token())));
  std::thread flood([&] {
    const std::string block(0x10000, 'x');
    for (int i = 0; i < 160; ++i) {
      if (!send_all(bare, block)) break;
    }
  });
  const std::string answered = receive(bare, milliseconds(20000));
  ::shutdown(bare, SHUT_RDWR);
  flood.join();
  ::close(bare);
  largest = std::max(largest, resident_kib(served.pid()));
  CHECK(status_of(answered) == 400);
  CHECK(body_of(answered)["code"] == "MISSING_EXECUTION");
  // Generous: the body alone would be 10 240 KiB, twice that in a growing string.
  CHECK(largest - before < 4096);
  CHECK(served.get("/version").status == 200);
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: 64 clients dripping bytes do not stop a normal request", "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  std::vector<int> drippers;
  for (int i = 0; i < 64; ++i) {
    const int fd = connect_local(served.port());
    REQUIRE(fd >= 0);
    REQUIRE(send_all(fd, "GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
    drippers.push_back(fd);
  }
  std::atomic<bool> dripping{true};
  std::thread drip([&] {
    // One header byte per client every 200 ms, never a whole request, for 8 s: less than the
    // deadline, so that each refusal finds a quiet connection to close.
    const auto until = Clock::now() + std::chrono::seconds(8);
    while (dripping && Clock::now() < until) {
      for (const int fd : drippers) (void)::send(fd, "X", 1, MSG_NOSIGNAL);
      std::this_thread::sleep_for(milliseconds(200));
    }
  });
  // The normal requests come once the server holds every dripping connection.
  const bool held = wait_until([&] { return all_accepted(drippers); }, milliseconds(10000));
  if (!held) {
    dripping = false;
    drip.join();
    for (const int fd : drippers) ::close(fd);
    FAIL("the server did not accept the 64 dripping connections");
  }
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int fd = connect_local(served.port());
    const auto start = Clock::now();
    REQUIRE(send_all(fd, request_head("GET", "/version", served.port(), served.token())));
    const std::string response = receive(fd, milliseconds(5000));
    const auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
    ::close(fd);
    INFO(response);
    CHECK(status_of(response) == 200);
    CHECK(took < milliseconds(1000));
  }
  // The whole-request deadline (10 s from the connection) cuts every one of them with 408.
  int timed_out = 0;
  for (const int fd : drippers) {
    const std::string response = receive(fd, milliseconds(14000), 1);
    const std::string rest = receive(fd, milliseconds(2000));
    if (status_of(response + rest) == 408 && body_of(response + rest)["code"] == "REQUEST_TIMEOUT")
      ++timed_out;
  }
  dripping = false;
  drip.join();
  for (const int fd : drippers) ::close(fd);
  CHECK(timed_out == 64);
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: one address may hold 96 connections, the next is 503", "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  std::vector<int> idle;
  for (int i = 0; i < 96; ++i) {
    const int fd = connect_local(served.port());
    REQUIRE(fd >= 0);
    idle.push_back(fd);
  }
  // Accepted in the gate's own time: wait until it has counted them all.
  std::string refused;
  for (int attempt = 0; attempt < 50 && status_of(refused) != 503; ++attempt) {
    const int fd = connect_local(served.port());
    send_all(fd, request_head("GET", "/version", served.port(), served.token()));
    refused = receive(fd, milliseconds(2000));
    ::close(fd);
  }
  CHECK(status_of(refused) == 503);
  CHECK(body_of(refused)["code"] == "TOO_MANY_CONNECTIONS");
  // Every refusal arrives whole, and the client may finish sending: a socket closed with the
  // request unread answers the rest with a reset, and a client still sending (curl with a body)
  // fails on its write and never reads the 503. 4 MiB outgrows the loopback's buffers.
  for (int i = 0; i < 5; ++i) {
    CAPTURE(i);
    const int fd = connect_local(served.port());
    CHECK(send_all(fd, request_head("POST", "/execute", served.port(), served.token()) +
                           std::string(4 << 20, 'x')));
    const std::string reply = receive(fd, milliseconds(3000));
    ::close(fd);
    CHECK(status_of(reply) == 503);
    CHECK(body_of(reply)["code"] == "TOO_MANY_CONNECTIONS");
  }
  for (const int fd : idle) ::close(fd);
  int status = 0;
  for (int attempt = 0; attempt < 50 && status != 200; ++attempt) {
    status = served.get("/version").status;
    if (status != 200) std::this_thread::sleep_for(milliseconds(100));
  }
  CHECK(status == 200);
  CHECK(served.stop() == 0);
}

// How much the server's resident set may grow while it publishes events nobody reads. Under
// AddressSanitizer, freed memory is held in its quarantine (256 MiB by default) and its shadow
// grows with every allocation, so the resident set measures ASan's bookkeeping more than the
// server's own (33 MiB seen, where the Release build stays under 16 MiB): there the bound only
// catches a gross leak, and the Release run holds the real one.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kResidentGrowthLimitKib = 64 * 1024;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr long kResidentGrowthLimitKib = 64 * 1024;
#else
constexpr long kResidentGrowthLimitKib = 16 * 1024;
#endif
#else
constexpr long kResidentGrowthLimitKib = 16 * 1024;
#endif

TEST_CASE("serve: a stalled event-stream subscriber is dropped with memory bounded",
          "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  const int stalled = connect_local(served.port(), 4096);
  REQUIRE(send_all(stalled, request_head("GET", "/events", served.port(), served.token())));
  CHECK(receive(stalled, milliseconds(5000), 1).rfind("HTTP/1.1 200", 0) == 0);
  const long before = resident_kib(served.pid());
  long largest = before;
  // Executions publish events the subscriber never reads: the server stops writing to it
  // (its write timeout) or drops it (its queue's bound), but never holds on to them all.
  const auto until = Clock::now() + std::chrono::seconds(40);
  int runs = 0;
  std::size_t published = 0;
  for (; runs < 60 && Clock::now() < until; ++runs) {
    const HttpReply snapshot = served.post("/snapshot", "{}");
    CHECK(snapshot.status == 200);
    published += 2 * snapshot.text.size();  // its execution event and its result event
    largest = std::max(largest, resident_kib(served.pid()));
  }
  INFO(runs << " snapshots, about " << published << " bytes of events");
  // Still not reading for longer than the server's write timeout (5 s): reading earlier would
  // unstall the stream. Then the server must have let go of it.
  std::this_thread::sleep_for(milliseconds(8000));
  CHECK(closed_within(stalled, milliseconds(20000)));
  ::close(stalled);
  CHECK(largest - before < kResidentGrowthLimitKib);
  // A subscriber that reads is served as before.
  const int reader = connect_local(served.port());
  REQUIRE(send_all(reader, request_head("GET", "/events", served.port(), served.token())));
  CHECK(receive(reader, milliseconds(3000)).find("event: heartbeat") != std::string::npos);
  ::close(reader);
  CHECK(served.stop() == 0);
}

}  // namespace clawperator::testing

namespace clawperator::testing {

TEST_CASE("serve: a body nested past 64 levels is JSON_TOO_DEEP, however small",
          "[serve][security]") {
  Farm farm({"default"});
  Served served(farm);
  // 14 KB nested 7,000 deep, inside the body limit: refused for its depth, not its size.
  const std::string deep =
      R"({"execution":)" + std::string(7000, '[') + std::string(7000, ']') + "}";
  for (const std::string route : {"/execute", "/snapshot", "/evidence/capture"}) {
    CAPTURE(route);
    const HttpReply reply = served.post(route, deep);
    CHECK(reply.status == 400);
    CHECK(reply.body["code"] == "JSON_TOO_DEEP");
    CHECK(reply.body["message"] == "The request body nests deeper than 64 levels");
    CHECK(reply.body["disposition"]["delivery"] == "not_delivered");
  }
  // 64 levels is still a body (the execution's value is an array: the route's own refusal).
  const std::string at_limit =
      R"({"execution":)" + std::string(63, '[') + std::string(63, ']') + "}";
  CHECK(served.post("/execute", at_limit).body["code"] == "INVALID_BODY");
}

}  // namespace clawperator::testing
