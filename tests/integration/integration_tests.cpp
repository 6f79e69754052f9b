// The real clawperator binary, through the real adb, against virtual devices.
// Every device runs behind a private adb server that the test tears down.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "farm_fixture.hpp"
#include "test_locations.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::Farm;
using clawperator::testing::kBinary;
using clawperator::testing::kOpenSettings;
using clawperator::testing::processes_mentioning;
using clawperator::testing::read_file;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::scenario;
using clawperator::testing::single_document;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;
namespace vdevice = clawperator::vdevice;

namespace {

json step(const json& document, std::size_t index) {
  REQUIRE(document.contains("envelope"));
  REQUIRE(document["envelope"]["stepResults"].size() > index);
  return document["envelope"]["stepResults"][index];
}

}  // namespace

TEST_CASE("the virtual device behaves like a device to the real adb", "[integration][adb]") {
  Farm farm({"default"});
  const std::string serial = farm.serials().front();
  const RunResult echo = farm.adb({"-s", serial, "shell", "echo", "hi"});
  CHECK(echo.exit_code == 0);
  CHECK(echo.out == "hi\n");
  CHECK(farm.adb({"-s", serial, "shell", "false"}).exit_code == 1);
  const RunResult devices = farm.adb({"devices", "-l"});
  CHECK(devices.out.find(serial) != std::string::npos);
  CHECK(devices.out.find("model:Virtual_Pixel") != std::string::npos);
  const RunResult listed = farm.clawperator({"devices"});
  const json document = single_document(listed);
  REQUIRE(document["devices"].size() == 1);
  CHECK(document["devices"][0]["serial"] == serial);
  CHECK(document["devices"][0]["model"] == "Virtual_Pixel");
}

TEST_CASE("every action type on the happy path", "[integration][actions]") {
  Farm farm({"default"});
  SECTION("open, wait, snapshot, click, read, type, press, sleep, close") {
    const json actions = json::array(
        {kOpenSettings,
         {{"id", "wait"},
          {"type", "wait_for_node"},
          {"params", {{"matcher", {{"textEquals", "Network & internet"}}}, {"timeoutMs", 3000}}}},
         {{"id", "snap"}, {"type", "snapshot"}},
         {{"id", "tap"},
          {"type", "click"},
          {"params", {{"matcher", {{"textEquals", "Network & internet"}}}}}},
         {{"id", "pause"}, {"type", "sleep"}, {"params", {{"durationMs", 200}}}},
         {{"id", "read"},
          {"type", "read_text"},
          {"params", {{"matcher", {{"resourceId", "android:id/summary"}}}}}},
         {{"id", "type"},
          {"type", "enter_text"},
          {"params",
           {{"matcher", {{"resourceId", "android:id/search_src_text"}}}, {"text", "wifi"}}}},
         {{"id", "back"}, {"type", "press_key"}, {"params", {{"key", "back"}}}},
         {{"id", "close"},
          {"type", "close_app"},
          {"params", {{"applicationId", "com.android.settings"}}}}});
    const RunResult result = farm.exec(actions);
    const json document = single_document(result);
    INFO(document.dump(2).substr(0, 4000));
    CHECK(result.exit_code == 0);
    CHECK(document["ok"] == true);
    CHECK(document["envelope"]["stepResults"].size() == actions.size());
    CHECK(step(document, 2)["data"]["text"].get<std::string>().find("<hierarchy") !=
          std::string::npos);
    CHECK(step(document, 6)["data"]["text"] == "wifi");
    CHECK(document["disposition"]["delivery"] == "delivered_verified");
    CHECK(document["disposition"]["retry"] == "unsafe");
  }
  SECTION("scroll, scroll_until, scroll_and_click, read_key_value_pair, wait_for_navigation") {
    const json actions = json::array(
        {kOpenSettings,
         {{"id", "scroll"},
          {"type", "scroll"},
          {"params",
           {{"direction", "down"},
            {"container", {{"resourceId", "com.android.settings:id/recycler_view"}}}}}},
         {{"id", "until"},
          {"type", "scroll_until"},
          {"params", {{"matcher", {{"textEquals", "Location"}}}, {"direction", "down"}}}},
         {{"id", "kv"},
          {"type", "read_key_value_pair"},
          {"params", {{"labelMatcher", {{"textEquals", "Location"}}}}}},
         {{"id", "about"},
          {"type", "scroll_and_click"},
          {"params", {{"matcher", {{"textEquals", "About phone"}}}}}},
         {{"id", "nav"},
          {"type", "wait_for_navigation"},
          {"params", {{"expectedPackage", "com.android.settings"}, {"timeoutMs", 3000}}}}});
    const RunResult result = farm.exec(actions);
    const json document = single_document(result);
    INFO(document.dump(2).substr(0, 4000));
    CHECK(result.exit_code == 0);
    CHECK(document["ok"] == true);
  }
  SECTION("open_uri, take_screenshot (written by the host), recording") {
    const std::string shot = std::filesystem::temp_directory_path() /
                             ("clawperator-it-shot-" + std::to_string(::getpid()) + ".png");
    const json actions = json::array(
        {{{"id", "uri"}, {"type", "open_uri"}, {"params", {{"uri", "https://example.com/"}}}},
         {{"id", "rec"}, {"type", "start_recording"}},
         {{"id", "shot"}, {"type", "take_screenshot"}, {"params", {{"path", shot}}}},
         {{"id", "stop"}, {"type", "stop_recording"}}});
    const RunResult result = farm.exec(actions);
    const json document = single_document(result);
    INFO(document.dump(2).substr(0, 4000));
    CHECK(result.exit_code == 0);
    CHECK(step(document, 2)["data"]["path"] == shot);
    CHECK(read_file(shot).rfind("\x89PNG\r\n\x1a\n", 0) == 0);
    std::filesystem::remove(shot);
  }
  SECTION("a selector that matches nothing: exit 1, safe to retry") {
    const RunResult result = farm.exec(json::array(
        {kOpenSettings,
         {{"id", "tap"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", "Nope"}}}}}}}));
    const json document = single_document(result);
    CHECK(result.exit_code == 1);
    CHECK(document["ok"] == false);
    CHECK(step(document, 1)["data"]["error"] == "NODE_NOT_FOUND");
    // open_app took effect: repeating the whole request is not free of effects.
    CHECK(document["disposition"]["delivery"] == "delivered_verified");
  }
}

TEST_CASE("a payload full of quotes and non-ASCII arrives byte-identical",
          "[integration][quoting]") {
  Farm farm({"default"});
  const std::string text =
      "it's \"quoted\" \\ $HOME `id` $(id) ; && | * ? ~ # ' '' ' é € 漢字 🙂 \\n end";
  const RunResult result = farm.exec(json::array(
      {kOpenSettings,
       {{"id", "search"},
        {"type", "click"},
        {"params", {{"matcher", {{"resourceId", "com.android.settings:id/search_action_bar"}}}}}},
       {{"id", "type"},
        {"type", "enter_text"},
        {"params",
         {{"matcher", {{"resourceId", "android:id/search_src_text"}}}, {"text", text}}}}}));
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(result.exit_code == 0);
  CHECK(step(document, 2)["data"]["text"] == text);
}

TEST_CASE("a payload file with a byte 0xFF is refused and nothing reaches the device",
          "[integration][utf8]") {
  Farm farm({"default"});
  const std::string serial = farm.serials().front();
  // The simulated Operator logs every broadcast it receives, accepted or rejected
  // (src/vdevice/android/operator/operator_runtime.cpp): the device's logcat shows what arrived.
  const auto operator_log = [&farm, &serial] {
    const RunResult dump = farm.adb({"-s", serial, "logcat", "-d", "-s", "TaskScopeDefault"});
    REQUIRE(dump.exit_code == 0);
    return dump.out;
  };
  const std::string head =
      R"({"commandId":"it-not-utf8","taskId":"it","source":"integration",)"
      R"("expectedFormat":"android-ui-automator","timeoutMs":30000,"actions":[)"
      R"({"id":"type","type":"enter_text","params":{"matcher":{"resourceId":"q"},"text":"caf)";
  const std::string path = std::filesystem::path(farm.log_dir()).parent_path() / "bad.json";
  std::ofstream(path, std::ios::binary) << head + "\xFF\"}}]}";

  const RunResult refused = farm.clawperator({"exec", path, "--device", serial});
  const json document = expect_error(refused, "EXECUTION_VALIDATION_FAILED", 2);
  CHECK(document["details"]["byteOffset"] == head.size());
  CHECK(document["details"]["path"] == "");
  CHECK(document["details"]["phase"] == "validation");
  const std::string after_refusal = operator_log();
  CHECK(after_refusal.find("it-not-utf8") == std::string::npos);
  CHECK(after_refusal.find("received") == std::string::npos);
  CHECK(after_refusal.find("Rejected") == std::string::npos);

  // A payload that is UTF-8 does arrive, and the log shows it: the check above can fail.
  const RunResult sent = farm.exec(json::array({{{"id", "snap"}, {"type", "snapshot"}}}));
  CHECK(single_document(sent)["ok"] == true);
  CHECK(operator_log().find("] received taskId=it") != std::string::npos);
}

TEST_CASE("a 5 MB snapshot arrives through chunks", "[integration][chunks]") {
  Farm farm({"large-snapshot"});
  const RunResult result = farm.exec(json::array({{{"id", "snap"}, {"type", "snapshot"}}}));
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  const std::string xml = step(document, 0)["data"]["text"];
  CHECK(xml.size() >= 5u * 1024 * 1024);
  CHECK(xml.find("<hierarchy") != std::string::npos);
  CHECK(document["disposition"]["retry"] == "safe");
}

namespace {

bool accepts_connections(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool connected = connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return connected;
}

// The log's lines of one event, in order.
std::vector<json> logged_events(const Farm& farm, std::string_view name) {
  return farm.logged_events(name);
}

// The debug log's "adb.start" events of the logcat follower, in order.
std::vector<json> follower_starts(const Farm& farm) {
  return logged_events(farm, "adb.start");
}

// The events of `name` that concern the execution `command_id`.
std::vector<json> events_of(const Farm& farm, std::string_view name,
                            const std::string& command_id) {
  std::vector<json> found;
  for (json& event : logged_events(farm, name)) {
    if (event.value("commandId", "") == command_id) found.push_back(std::move(event));
  }
  return found;
}

}  // namespace

TEST_CASE("the log has the original's broadcast.dispatched and envelope.received",
          "[integration][logs]") {
  SECTION("an answered execution: both, between exec.start and exec.result") {
    Farm farm({"default"});
    const json snapshot = json::array({{{"id", "snap"}, {"type", "snapshot"}}});
    const json document = single_document(farm.exec(snapshot));
    REQUIRE(document["ok"] == true);
    const std::string command_id = document["envelope"]["commandId"];
    const std::vector<json> dispatched = events_of(farm, "broadcast.dispatched", command_id);
    const std::vector<json> received = events_of(farm, "envelope.received", command_id);
    REQUIRE(dispatched.size() == 1);
    REQUIRE(received.size() == 1);
    CHECK(dispatched[0]["level"] == "info");
    CHECK(dispatched[0]["taskId"] == "it");
    CHECK(dispatched[0]["deviceId"] == farm.serials().front());
    CHECK(dispatched[0]["operatorPackage"] == "com.clawperator.operator");
    CHECK(dispatched[0]["dispatchMs"].is_number());
    CHECK(received[0]["status"] == "success");
    CHECK(received[0]["resultMs"].is_number());
    const std::string started = events_of(farm, "exec.start", command_id).at(0)["ts"];
    const std::string ended = events_of(farm, "exec.result", command_id).at(0)["ts"];
    CHECK(started <= dispatched[0]["ts"].get<std::string>());
    CHECK(dispatched[0]["ts"].get<std::string>() <= received[0]["ts"].get<std::string>());
    CHECK(received[0]["ts"].get<std::string>() <= ended);
  }
  SECTION("an Operator that never answers: dispatched, nothing received") {
    Farm farm({"never-answer"});
    const json snapshot = json::array({{{"id", "snap"}, {"type", "snapshot"}}});
    const json document = single_document(farm.exec(snapshot, {}, 1000));
    REQUIRE(document["code"] == "RESULT_ENVELOPE_TIMEOUT");
    const std::string command_id = document["details"]["commandId"];
    CHECK(events_of(farm, "broadcast.dispatched", command_id).size() == 1);
    CHECK(events_of(farm, "envelope.received", command_id).empty());
    CHECK(events_of(farm, "exec.failure", command_id).size() == 1);
  }
}

TEST_CASE("the logcat follower goes through the relay unless told not to", "[integration][relay]") {
  Farm farm({"default"});
  farm.set_env("CLAWPERATOR_LOG_LEVEL", "debug");
  const json snapshot = json::array({{{"id", "snap"}, {"type", "snapshot"}}});

  const RunResult relayed = farm.exec(snapshot);
  CHECK(relayed.exit_code == 0);
  CHECK(single_document(relayed)["ok"] == true);
  std::vector<json> starts = follower_starts(farm);
  REQUIRE(!starts.empty());
  CHECK(starts.back().value("relay", "").rfind("localabstract:clawperator-adb-relay-", 0) == 0);

  farm.set_env("CLAWPERATOR_ADB_RELAY", "off");
  const std::size_t before = starts.size();
  const RunResult direct = farm.exec(snapshot);
  CHECK(direct.exit_code == 0);
  CHECK(single_document(direct)["ok"] == true);
  starts = follower_starts(farm);
  REQUIRE(starts.size() > before);
  CHECK_FALSE(starts.back().contains("relay"));
  // The follower's argv is the same either way (docs/wire-protocol.md §6.3).
  CHECK(starts.back()["argv"] == starts.front()["argv"]);

  farm.set_env("CLAWPERATOR_ADB_RELAY", "sometimes");
  const RunResult invalid = farm.exec(snapshot);
  CHECK(invalid.exit_code == 2);
  CHECK(single_document(invalid)["code"] == "USAGE");
}

TEST_CASE("after the relayed follower attached, shell calls speak to the server itself",
          "[integration][relay]") {
  // docs/wire-protocol.md §2.7: the relay saw this adb ask the server for shell v2, so the
  // broadcast (and a presence check beside it) need no adb process; without the relay, every
  // call is an adb process as before.
  Farm farm({"default"});
  farm.set_env("CLAWPERATOR_LOG_LEVEL", "debug");
  const json snapshot = json::array({{{"id", "snap"}, {"type", "snapshot"}}});
  const auto calls_of = [&](std::string_view fragment) {
    std::vector<json> found;
    for (json& call : logged_events(farm, "adb.command")) {
      if (call["argv"].back().get<std::string>().find(fragment) != std::string::npos) {
        found.push_back(std::move(call));
      }
    }
    return found;
  };
  // The first exec probes the Operator (a fresh device); the second finds the record fresh, so
  // its presence check runs beside the dispatch.
  for (int run = 0; run < 2; ++run) REQUIRE(single_document(farm.exec(snapshot))["ok"] == true);
  std::vector<json> broadcasts = calls_of("am broadcast");
  REQUIRE(broadcasts.size() >= 2);
  CHECK(broadcasts.back().value("via", "") == "server");
  const std::vector<json> listings = calls_of("pm list packages");
  REQUIRE(!listings.empty());
  CHECK(listings.back().value("via", "") == "server");
  // What the call brought back is what adb would have: the execution succeeded, and each call
  // spoken to the server completed with the device's exit status.
  for (const json& completed : logged_events(farm, "adb.complete")) {
    if (completed.value("via", "") == "server") CHECK(completed["exitCode"] == 0);
  }

  farm.set_env("CLAWPERATOR_ADB_RELAY", "off");
  const std::size_t before = broadcasts.size();
  REQUIRE(single_document(farm.exec(snapshot))["ok"] == true);
  broadcasts = calls_of("am broadcast");
  REQUIRE(broadcasts.size() > before);
  CHECK_FALSE(broadcasts.back().contains("via"));
}

TEST_CASE("a first exec with --device starts a stopped adb server once", "[integration][relay]") {
  Farm farm({"default"});
  const json snapshot = json::array({{{"id", "snap"}, {"type", "snapshot"}}});
  // The follower and `pm list` run side by side; when both had to start the server, the one
  // that lost the race for its port failed with ADB_SERVER_FAILED. The fresh server has not
  // been told about the virtual device (adb connect), so the device is not found.
  for (const char* relay : {"on", "off", "on"}) {
    CAPTURE(relay);
    farm.set_env("CLAWPERATOR_ADB_RELAY", relay);
    REQUIRE(farm.adb({"kill-server"}).exit_code == 0);
    // kill-server returns before the server has let go of its port.
    for (int attempt = 0; attempt < 150 && accepts_connections(farm.farm().adb_server_port());
         ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE_FALSE(accepts_connections(farm.farm().adb_server_port()));
    const RunResult result = farm.exec(snapshot);
    const json document = single_document(result);
    CHECK(document["code"] == "DEVICE_NOT_FOUND");
    CHECK(result.exit_code == 3);
  }
}

TEST_CASE("device targeting against several devices", "[integration][devices]") {
  Farm farm({"default", "default"});
  const RunResult without_device =
      farm.clawperator({"exec", std::string(CLAWPERATOR_EXAMPLES_DIR) + "/snapshot.json"});
  const json document = single_document(without_device);
  CHECK(without_device.exit_code == 3);
  CHECK(document["code"] == "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED");
  CHECK(document["details"]["devices"].size() == 2);
  CHECK(document["recovery"]["strategy"] == "select_device_then_retry_original");
  const RunResult chosen =
      farm.clawperator({"exec", std::string(CLAWPERATOR_EXAMPLES_DIR) + "/snapshot.json",
                        "--device", farm.serials()[1]});
  CHECK(single_document(chosen)["deviceId"] == farm.serials()[1]);
  CHECK(chosen.exit_code == 0);
  // A serial that is not there: the hint points at the list, never back at the same serial.
  const RunResult wrong =
      farm.clawperator({"exec", std::string(CLAWPERATOR_EXAMPLES_DIR) + "/snapshot.json",
                        "--device", "no-such-serial"});
  const json not_found = single_document(wrong);
  CHECK(not_found["code"] == "DEVICE_NOT_FOUND");
  CHECK(not_found["hint"].get<std::string>().find("no-such-serial") == std::string::npos);
  CHECK(not_found["hint"].get<std::string>().find("clawperator devices") != std::string::npos);
  CHECK(wrong.err.find("--device no-such-serial") == std::string::npos);
  // One line on stderr for the failure: the log's record of it stays in the file.
  CHECK(wrong.err.rfind("clawperator: DEVICE_NOT_FOUND: ", 0) == 0);
  CHECK(std::count(wrong.err.begin(), wrong.err.end(), '\n') == 1);
}

TEST_CASE("an unauthorized and an offline device", "[integration][devices]") {
  Farm farm({"unauthorized", "offline"});
  struct Row {
    std::size_t index;
    const char* code;
  };
  for (const Row& row : {Row{0, "DEVICE_UNAUTHORIZED"}, Row{1, "DEVICE_OFFLINE"}}) {
    CAPTURE(row.code);
    const RunResult result =
        farm.clawperator({"exec", std::string(CLAWPERATOR_EXAMPLES_DIR) + "/snapshot.json",
                          "--device", farm.serials()[row.index]});
    const json document = single_document(result);
    CHECK(result.exit_code == 3);
    CHECK(document["code"] == row.code);
    CHECK(document["disposition"]["delivery"] == "not_delivered");
    CHECK(document["details"]["dispatchState"] == "not_dispatched");
  }
  const json listed = single_document(farm.clawperator({"devices"}));
  REQUIRE(listed["devices"].size() == 2);
}

TEST_CASE("the fault matrix", "[integration][faults]") {
  struct Row {
    const char* scenario;
    bool read_only;
    const char* code;
    int exit_code;
    const char* delivery;
    const char* retry;
    const char* phase;
    const char* dispatch_state;
  };
  const Row rows[] = {
      {"never-answer", false, "RESULT_ENVELOPE_TIMEOUT", 4, "delivered_unverified", "unsafe",
       "result_wait", "dispatched"},
      {"malformed-envelope", false, "RESULT_ENVELOPE_MALFORMED", 4, "delivered_unverified",
       "unsafe", "result_wait", "dispatched"},
      {"bad-checksum", true, "RESULT_ENVELOPE_MALFORMED", 4, "delivered_unverified", "safe",
       "result_wait", "dispatched"},
      {"reorder-chunks", true, "RESULT_ENVELOPE_MALFORMED", 4, "delivered_unverified", "safe",
       "result_wait", "dispatched"},
      {"duplicate-chunk", true, "RESULT_ENVELOPE_MALFORMED", 4, "delivered_unverified", "safe",
       "result_wait", "dispatched"},
      {"drop-chunk", true, "RESULT_ENVELOPE_MALFORMED", 4, "delivered_unverified", "safe",
       "result_wait", "dispatched"},
      {"close-stream-mid-envelope", true, "RESULT_TRANSPORT_EXITED", 4, "delivered_unverified",
       "safe", "result_wait", "dispatched"},
      {"drop-connection-after-dispatch", false, "RESULT_TRANSPORT_EXITED", 4,
       "delivered_unverified", "unsafe", "result_wait", "dispatched"},
      {"drop-connection-before-dispatch", false, "BROADCAST_FAILED", 4, "delivery_uncertain",
       "unsafe", "dispatch", "unknown"},
      {"broadcast-refused", false, "OPERATOR_NOT_INSTALLED", 3, "not_delivered", "safe", "dispatch",
       "not_dispatched"},
      {"operator-missing", false, "OPERATOR_NOT_INSTALLED", 3, "not_delivered", "safe", "readiness",
       "not_dispatched"},
      {"operator-dev-variant", false, "OPERATOR_VARIANT_MISMATCH", 3, "not_delivered", "safe",
       "readiness", "not_dispatched"},
      {"accessibility-off", false, "DEVICE_ACCESSIBILITY_NOT_RUNNING", 3, "not_delivered", "safe",
       "readiness", "not_dispatched"},
      {"stays-asleep", false, "DEVICE_NOT_INTERACTIVE", 3, "not_delivered", "safe", "readiness",
       "not_dispatched"},
      {"locked", false, "DEVICE_NOT_INTERACTIVE", 3, "not_delivered", "safe", "readiness",
       "not_dispatched"},
  };
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.scenario) {
      Farm farm({row.scenario});
      const json actions =
          row.read_only ? json::array({{{"id", "snap"}, {"type", "snapshot"}}})
                        : json::array({kOpenSettings, {{"id", "snap"}, {"type", "snapshot"}}});
      const RunResult result = farm.exec(actions, {"--timeout", "1000"}, 1000);
      const json document = single_document(result);
      INFO(document.dump(2).substr(0, 3000));
      CHECK(document["code"] == row.code);
      CHECK(result.exit_code == row.exit_code);
      CHECK(document["disposition"]["delivery"] == row.delivery);
      CHECK(document["disposition"]["retry"] == row.retry);
      CHECK(document["details"]["phase"] == row.phase);
      CHECK(document["details"]["dispatchState"] == row.dispatch_state);
    }
  }
}

namespace {

// A TCP listener that is not an adb server: it accepts and hangs up at once.
class HangUpListener {
 public:
  HangUpListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(fd_, 16) == 0);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd ready{fd_, POLLIN, 0};
        if (::poll(&ready, 1, 50) > 0) {
          const int client = ::accept(fd_, nullptr, nullptr);
          if (client >= 0) ::close(client);
        }
      }
    });
  }
  ~HangUpListener() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  HangUpListener(const HangUpListener&) = delete;
  HangUpListener& operator=(const HangUpListener&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

TEST_CASE("host faults: adb missing, adb server unreachable", "[integration][faults]") {
  Farm farm({"default"});
  const json actions = json::array({kOpenSettings});
  SECTION("adb missing") {
    const RunResult result = farm.exec(actions, {"--adb", "/nonexistent/adb"});
    const json document = clawperator::testing::expect_error(result, "ADB_NOT_FOUND", 3);
    CHECK(document["details"]["phase"] == "readiness");
    CHECK(document["details"]["dispatchState"] == "not_dispatched");
  }
  SECTION("an adb server port where something else answers") {
    HangUpListener listener;
    RunOptions options = farm.environment();
    options.extra_env["ANDROID_ADB_SERVER_PORT"] = std::to_string(listener.port());
    const std::string payload = std::string(CLAWPERATOR_EXAMPLES_DIR) + "/demo-snapshot-click.json";
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"exec", payload},
          std::vector<std::string>{"exec", payload, "--device", farm.serials().front()}}) {
      CAPTURE(args.size());
      const RunResult result = run_binary(kBinary, args, options);
      const json document = clawperator::testing::expect_error(result, "ADB_SERVER_FAILED", 3);
      CHECK(document["details"]["dispatchState"] == "not_dispatched");
    }
  }
}

TEST_CASE("a result after the deadline is a timeout, and within it a success",
          "[integration][faults]") {
  vdevice::android::Scenario late = scenario("answer-late");
  late.faults.answer_late_ms = 7500;  // past --timeout 1000 + 5000 ms of grace
  Farm farm(Farm::Built{{late}});
  const RunResult result = farm.exec(json::array({kOpenSettings}), {"--timeout", "1000"}, 1000);
  const json document = single_document(result);
  CHECK(document["code"] == "RESULT_ENVELOPE_TIMEOUT");
  CHECK(result.exit_code == 4);
  CHECK(document["disposition"]["delivery"] == "delivered_unverified");
  // The same lateness inside a larger budget is just a slow success.
  const RunResult patient = farm.exec(json::array({kOpenSettings}), {"--timeout", "5000"}, 5000);
  CHECK(single_document(patient)["ok"] == true);
}

TEST_CASE("readiness wakes a sleeping screen, then runs", "[integration][readiness]") {
  Farm farm({"screen-off"});
  const RunResult result = farm.exec(json::array({{{"id", "snap"}, {"type", "snapshot"}}}));
  CHECK(single_document(result)["ok"] == true);
  CHECK(result.exit_code == 0);
}

TEST_CASE("SIGINT and SIGTERM while waiting for the result", "[integration][signals]") {
  Farm farm({"never-answer"});
  for (const int signal : {SIGINT, SIGTERM}) {
    CAPTURE(signal);
    RunOptions options = farm.environment();
    options.signal = signal;
    // Once this run's broadcast went out (taskId demo; the readiness probe's is another).
    const std::size_t sent = farm.logged_count("broadcast.dispatched", R"("taskId":"demo")");
    options.signal_when = [&](const std::string&) {
      return farm.logged_count("broadcast.dispatched", R"("taskId":"demo")") > sent;
    };
    options.signal_after_ms = 30000;
    const std::string payload = std::string(CLAWPERATOR_EXAMPLES_DIR) + "/demo-snapshot-click.json";
    const RunResult result =
        run_binary(kBinary, {"exec", payload, "--device", farm.serials().front()}, options);
    const json document = single_document(result);
    CHECK(result.exit_code == (signal == SIGINT ? 130 : 143));
    CHECK(document["code"] == "RESULT_TRANSPORT_CANCELLED");
    CHECK(document["details"]["dispatchState"] == "dispatched");
    CHECK(document["disposition"]["delivery"] == "delivered_unverified");
    CHECK(document["disposition"]["retry"] == "unsafe");
    // The logcat reader was stopped, not orphaned.
    CHECK(processes_mentioning(farm.serials().front() + " logcat") == 0);
  }
}

TEST_CASE("SIGTERM before dispatch and SIGINT during post-processing", "[integration][signals]") {
  SECTION("during readiness (waking a screen that stays asleep): nothing was sent") {
    Farm farm({"stays-asleep"});
    RunOptions options = farm.environment();
    options.extra_env["CLAWPERATOR_LOG_LEVEL"] = "debug";
    options.signal = SIGTERM;
    // Once readiness tries to wake the screen.
    options.signal_when = [&](const std::string&) {
      return farm.logged_count("adb.command", "wakeup") > 0;
    };
    options.signal_after_ms = 30000;
    const std::string payload = std::string(CLAWPERATOR_EXAMPLES_DIR) + "/demo-snapshot-click.json";
    const RunResult result =
        run_binary(kBinary, {"exec", payload, "--device", farm.serials().front()}, options);
    const json document = single_document(result);
    INFO(document.dump(2).substr(0, 3000));
    CHECK(result.exit_code == 143);
    CHECK(document["code"] == "RESULT_TRANSPORT_CANCELLED");
    CHECK(document["details"]["dispatchState"] == "not_dispatched");
    CHECK(document["disposition"]["delivery"] == "not_delivered");
    CHECK(document["disposition"]["retry"] == "safe");
    CHECK(processes_mentioning(farm.serials().front() + " logcat") == 0);
  }
  SECTION("during the screenshot capture: the envelope is kept, no file is written") {
    vdevice::android::Scenario slow = scenario("default");
    // The signal must land while screencap runs: the exec reaches it within a few hundred
    // milliseconds on a quiet machine, within seconds under CI's parallel load.
    slow.faults.screencap_delay_ms = 15000;
    Farm farm(Farm::Built{{slow}});
    const TemporaryDirectory shots("shot");
    const std::string shot = shots / "screen.png";
    const json payload = {
        {"commandId", "shot-1"},
        {"taskId", "it"},
        {"source", "integration"},
        {"expectedFormat", "android-ui-automator"},
        {"timeoutMs", 30000},
        {"actions",
         json::array(
             {{{"id", "shot"}, {"type", "take_screenshot"}, {"params", {{"path", shot}}}}})}};
    RunOptions options = farm.environment();
    options.extra_env["CLAWPERATOR_LOG_LEVEL"] = "debug";
    options.signal = SIGINT;
    // Once the screencap runs (it answers after 15 s).
    options.signal_when = [&](const std::string&) {
      return farm.logged_count("adb.command", "screencap") > 0;
    };
    options.signal_after_ms = 30000;
    const RunResult result =
        run_binary(kBinary, {"exec", payload.dump(), "--device", farm.serials().front()}, options);
    const json document = single_document(result);
    INFO(document.dump(2).substr(0, 3000));
    CHECK(result.exit_code == 130);
    CHECK(document["code"] == "RESULT_TRANSPORT_CANCELLED");
    CHECK(document["details"]["phase"] == "post_processing");
    CHECK(document["details"]["envelope"]["stepResults"][0]["id"] == "shot");
    CHECK(document["disposition"]["delivery"] == "delivered_verified");
    CHECK(document["disposition"]["retry"] == "safe");
    CHECK(std::filesystem::is_empty(shots.path()));
    // This device's capture only: cases running beside this one take screenshots of their own.
    CHECK(processes_mentioning(farm.serials().front() + " exec-out screencap") == 0);
  }
}

TEST_CASE("kill -9 of the logcat reader mid-wait is RESULT_TRANSPORT_EXITED",
          "[integration][signals]") {
  Farm farm({"never-answer"});
  const std::string reader = farm.serials().front() + " logcat";
  std::atomic<int> killed{0};
  std::atomic<bool> dispatched{false};
  std::thread killer([&] {
    // Once the execution's own broadcast went out (the readiness probe's is logged too, under
    // taskId doctor-handshake) the run waits for its result: kill the reader then, as the OOM
    // killer would.
    dispatched = clawperator::testing::wait_until(
        [&] {
          for (const json& event : farm.logged_events("broadcast.dispatched")) {
            if (event.value("taskId", "") == "it") return true;  // Farm::exec's
          }
          return false;
        },
        std::chrono::seconds(10));
    if (!dispatched) return;
    clawperator::testing::wait_until(
        [&] {
          for (const pid_t pid : clawperator::testing::all_pids()) {
            std::string cmdline =
                clawperator::testing::read_proc_file("/proc/" + std::to_string(pid) + "/cmdline");
            std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
            if (cmdline.find(reader) != std::string::npos) {
              ::kill(pid, SIGKILL);
              killed = pid;
            }
          }
          return killed != 0;
        },
        std::chrono::seconds(5));
  });
  const RunResult result = farm.exec(json::array({kOpenSettings}), {"--timeout", "10000"}, 10000);
  killer.join();
  REQUIRE(dispatched);
  REQUIRE(killed != 0);
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(document["code"] == "RESULT_TRANSPORT_EXITED");
  CHECK(result.exit_code == 4);
  CHECK(document["details"]["phase"] == "result_wait");
  CHECK(document["details"]["dispatchState"] == "dispatched");
  CHECK(document["disposition"]["delivery"] == "delivered_unverified");
  CHECK(document["disposition"]["retry"] == "unsafe");
  CHECK(document["details"]["signal"] == 9);
}

TEST_CASE("every device action command through the real adb", "[integration][commands]") {
  Farm farm({"default"});
  const std::string device = farm.serials().front();
  const std::string shot = std::filesystem::temp_directory_path() /
                           ("clawperator-it-cmd-" + std::to_string(::getpid()) + ".png");
  struct Step {
    std::vector<std::string> args;
    int exit_code;
  };
  // In order: each step leaves the phone where the next one expects it.
  const std::vector<Step> steps = {
      {{"open", "com.android.settings"}, 0},
      {{"snapshot"}, 0},
      {{"wait", "--text", "Network & internet"}, 0},
      {{"read", "--id", "android:id/summary", "--text-contains", "Wi"}, 0},
      {{"click", "--text", "Network & internet"}, 0},
      {{"type", "wifi", "--id", "android:id/search_src_text"}, 0},
      {{"press", "back"}, 0},
      {{"scroll", "down", "--container-id", "com.android.settings:id/recycler_view"}, 0},
      {{"scroll-until", "--text", "Location"}, 0},
      {{"scroll-and-click", "--text", "About phone"}, 0},
      {{"wait-for-nav", "--app", "com.android.settings", "--timeout", "3000"}, 0},
      {{"read-value", "--label", "Model"}, 0},
      {{"back"}, 0},
      {{"sleep", "100"}, 0},
      {{"screenshot", "--path", shot}, 0},
      {{"open", "https://example.com/"}, 0},
      {{"close", "com.android.chrome"}, 0},
      {{"click", "--text", "Definitely not on screen"}, 1},
  };
  for (const Step& step : steps) {
    std::vector<std::string> args = step.args;
    args.insert(args.end(), {"--device", device});
    CAPTURE(args);
    const RunResult result = farm.clawperator(args);
    const json document = single_document(result);
    INFO(document.dump(2).substr(0, 2000));
    CHECK(result.exit_code == step.exit_code);
    CHECK(document.contains("envelope"));
    CHECK(document["deviceId"] == device);
  }
  CHECK(read_file(shot).rfind("\x89PNG\r\n\x1a\n", 0) == 0);
  std::filesystem::remove(shot);
}

TEST_CASE("one execution per device at a time, across processes", "[integration][concurrency]") {
  Farm farm({"default", "default"});
  const json slow =
      json::array({{{"id", "pause"}, {"type", "sleep"}, {"params", {{"durationMs", 1500}}}}});
  RunResult results[3];
  {
    // Two on the first device at once; a third on the other device in parallel.
    std::thread first([&] { results[0] = farm.exec(slow); });
    // The second starts once the first holds the device.
    const bool held = clawperator::testing::wait_until(
        [&] { return farm.lock_holder(farm.serials()[0]).has_value(); }, std::chrono::seconds(20));
    std::thread second([&] { results[1] = farm.exec(slow); });
    std::thread other([&] {
      results[2] = farm.clawperator({"sleep", "1500", "--device", farm.serials()[1]});
    });
    first.join();
    second.join();
    other.join();
    REQUIRE(held);
  }
  CHECK(single_document(results[0])["ok"] == true);
  const json conflict = single_document(results[1]);
  CHECK(conflict["code"] == "EXECUTION_CONFLICT_IN_FLIGHT");
  CHECK(results[1].exit_code == 3);
  CHECK(conflict["recovery"]["strategy"] == "wait_then_retry_original");
  // It names the holder: the first execution's process and commandId.
  CHECK(conflict["details"]["holder"]["commandId"] ==
        single_document(results[0])["envelope"]["commandId"]);
  CHECK(conflict["details"]["holder"]["pid"].is_number_integer());
  CHECK(conflict["message"].get<std::string>().find(
            "commandId \"" + conflict["details"]["holder"]["commandId"].get<std::string>() +
            "\"") != std::string::npos);
  CHECK(single_document(results[2])["ok"] == true);
  // With --lock-wait the second one queues instead.
  RunResult queued[2];
  {
    std::thread first([&] { queued[0] = farm.exec(slow); });
    const bool held = clawperator::testing::wait_until(
        [&] { return farm.lock_holder(farm.serials()[0]).has_value(); }, std::chrono::seconds(20));
    std::thread second([&] { queued[1] = farm.exec(slow, {"--lock-wait", "10000"}); });
    first.join();
    second.join();
    REQUIRE(held);
  }
  CHECK(single_document(queued[0])["ok"] == true);
  CHECK(single_document(queued[1])["ok"] == true);
}
