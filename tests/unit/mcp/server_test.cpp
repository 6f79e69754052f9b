#include "clawperator/mcp/server.hpp"

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <thread>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/mcp/jsonrpc.hpp"
#include "wait_until.hpp"

namespace {

using namespace clawperator;
using namespace clawperator::mcp;
using namespace std::chrono_literals;

// Answers executions after `delay`, or when cancelled, as exec does.
class FakeHost final : public ToolHost {
 public:
  std::chrono::milliseconds delay{0};
  std::atomic<int> executions{0};
  std::atomic<int> concurrent{0};
  std::atomic<int> max_concurrent{0};
  // Set before the session starts: the document every execution answers, and where the
  // server may keep its own files.
  std::optional<Json> answer;
  std::optional<std::filesystem::path> artifacts;

  Json run_execution(const contract::Execution& execution, const CallTarget& target,
                     const process::CancelToken& cancel) override {
    ++executions;
    // A compare-exchange, not max(load, ++) then store: two calls starting together must not
    // overwrite each other's count (the test saw 1 under load once).
    const int now_running = ++concurrent;
    int seen = max_concurrent.load();
    while (seen < now_running && !max_concurrent.compare_exchange_weak(seen, now_running)) {
    }
    const auto until = std::chrono::steady_clock::now() + delay;
    bool cancelled = false;
    while (std::chrono::steady_clock::now() < until) {
      if (cancel.cancelled()) {
        cancelled = true;
        break;
      }
      pollfd entry{cancel.fd(), POLLIN, 0};
      (void)poll(&entry, 1, 10);
    }
    --concurrent;
    if (answer && !cancelled) return *answer;
    if (cancelled) {
      return Json::parse(R"({"ok":false,"code":"RESULT_TRANSPORT_CANCELLED","message":"Interrupted",
          "details":{"phase":"result_wait","dispatchState":"dispatched","commandId":")" +
                         execution.command_id + R"("},
          "disposition":{"delivery":"delivered_unverified","retry":"unsafe"}})");
    }
    Json document = Json::object();
    document["ok"] = true;
    // What the server lets the host ask the human (the action policy's confirm rules).
    document["askable"] = static_cast<bool>(target.ask_person);
    if (ask_on_every_call && target.ask_person) {
      document["confirmed"] = target.ask_person("Step 1 (tap): click on \"Send\"");
    }
    document["deviceId"] = target.device_id.value_or("emulator-5554");
    document["commandId"] = execution.command_id;
    document["timeoutMs"] = execution.timeout_ms.value();
    Json types = Json::array();
    for (const contract::Action& action : execution.actions) {
      types.push_back(contract::action_spec(action.type).name);
    }
    document["actionTypes"] = std::move(types);
    return document;
  }
  // Each payload as run_execution answers it, in one document (what the server passes on is
  // checked, not the sequence's own rules: tests/integration has those).
  Json run_sequence(const contract::Sequence& sequence, const CallTarget& target,
                    const process::CancelToken& cancel) override {
    Json parts = Json::array();
    for (const contract::Execution& execution : sequence.executions) {
      parts.push_back(run_execution(execution, target, cancel));
    }
    return Json{{"ok", true}, {"sequence", {{"count", parts.size()}}}, {"executions", parts}};
  }
  Json devices() override { return Json::parse(R"({"ok":true,"devices":[]})"); }
  bool ask_on_every_call = false;
  Json doctor(const CallTarget&, bool) override { return Json::parse(R"({"ok":true})"); }
  Json explain_error(const std::string& code) override {
    return Json{{"ok", true}, {"error", {{"code", code}}}};
  }
  Json skills_list(const Json& arguments) override {
    Json entry = {{"id", "com.example.check"}, {"path", "skills/com.example.check"}};
    return Json{{"ok", true},
                {"count", 1},
                {"skills", Json::array({entry})},
                {"filter", arguments},
                {"registryPath", "/home/someone/skills/skills-registry.json"}};
  }
  Json skills_run(const Json& arguments, const CallTarget& target,
                  const process::CancelToken&) override {
    return Json{{"ok", false},
                {"code", "SKILL_EXECUTION_FAILED"},
                {"skillId", arguments.value("skillId", "")},
                {"deviceId", target.device_id.value_or("emulator-5554")},
                {"stdout", "step 1 done\n"},
                {"stderr", "boom in /tmp/x\n"},
                {"skillResult", {{"status", "failed"}, {"checkpoints", Json::array()}}}};
  }
  Json recording_compile(const Json& arguments, const CallTarget& target,
                         const process::CancelToken&) override {
    Json execution = {{"commandId", "recording-" + arguments.value("sessionId", "latest")},
                      {"actions", Json::array({{{"id", "open_app-1"},
                                                {"type", "open_app"},
                                                {"params", {{"applicationId", "com.x"}}}}})}};
    return Json{{"ok", true},
                {"sessionId", arguments.value("sessionId", "latest")},
                {"closeAppFirst", arguments.value("closeAppFirst", false)},
                {"deviceId", target.device_id.value_or("emulator-5554")},
                {"execution", std::move(execution)},
                {"sourcePath", "/tmp/clawperator-recording-x/r.ndjson"}};
  }
  Json emulator_provision(const Json& arguments, const process::CancelToken&) override {
    return Json{{"ok", true},
                {"type", "emulator"},
                {"avdName", "clawperator-pixel"},
                {"serial", "emulator-5554"},
                {"booted", true},
                {"action", "created"},
                {"headless", arguments.value("headless", false)},
                {"logFile", "/tmp/clawperator-0/emulator-clawperator-pixel.log"}};
  }
  Json skills_get(const std::string& skill_id) override {
    return Json{
        {"ok", false}, {"code", "SKILL_NOT_FOUND"}, {"message", "Skill not found: " + skill_id}};
  }
  Json evidence_capture(const Json& arguments, const CallTarget&,
                        const process::CancelToken&) override {
    return Json{{"ok", true},
                {"status", "complete"},
                {"evidenceId", "6e708990-1abd-4d9e-b2f9-16313db7629e"},
                {"bundleDir", "/home/u/.clawperator/evidence/bundles/6e708990"},
                {"manifestPath", "/home/u/.clawperator/evidence/bundles/6e708990/manifest.json"},
                {"manifest",
                 {{"label", arguments.value("label", Json())},
                  {"artifacts", Json::array({{{"path", "screenshot.png"}}})}}}};
  }
  Json evidence_video(std::string_view action, const Json& arguments, const CallTarget&) override {
    const std::string status = action == "start"    ? "recording"
                               : action == "status" ? "recording"
                                                    : "complete";
    return Json{{"ok", true},
                {"sessionId", arguments.value("sessionId", "0e708990-1abd-4d9e-b2f9-16313db7629e")},
                {"status", status},
                {"bundleDir", "/home/u/.clawperator/evidence/bundles/0e708990"},
                {"manifestPath", "/home/u/.clawperator/evidence/bundles/0e708990/manifest.json"},
                {"manifest", {{"status", status}}}};
  }
  // webview_*: the actions asked for; a screenshot writes its PNG to webview_png.
  std::vector<std::string> webview_actions;
  std::vector<std::string> visual_text_actions;
  std::optional<std::filesystem::path> webview_png;
  Json with_recognised_text(Json document, const process::CancelToken&) override {
    document["compact"]["recognisedLines"] = 0;
    return document;
  }
  Json visual_text(service::VisualTextAction action, const Json& arguments, const CallTarget&,
                   const process::CancelToken&) override {
    visual_text_actions.emplace_back(service::to_string(action));
    // Words read on the screen that look like a host path come back as they were read.
    return Json{{"ok", true},
                {"count", 1},
                {"matches", Json::array({{{"text", "/home/u/Buy now"}, {"echo", arguments}}})}};
  }
  Json webview(service::WebviewAction action, const Json& arguments, const CallTarget&,
               const process::CancelToken&) override {
    webview_actions.emplace_back(service::to_string(action));
    if (action == service::WebviewAction::Screenshot && webview_png) {
      std::ofstream(*webview_png, std::ios::binary) << "\x89PNG-bytes";
      return Json{{"ok", true}, {"path", webview_png->string()}, {"bytes", 10}};
    }
    // A page on this host whose value names a path: the page's words come back as they are.
    return Json{{"ok", true},
                {"value", {{"path", "/home/u/notes.txt"}, {"echo", arguments}}},
                {"page", {{"url", "file:///home/u/page.html"}, {"id", "P1"}}},
                {"socket", {{"name", "webview_devtools_remote_4321"}}}};
  }
  std::optional<std::string> artifact_path(const std::string& name) override {
    if (!artifacts) return std::nullopt;
    return (*artifacts / name).string();
  }
};

// A server on two pipes, run on its own thread.
class Session {
 public:
  explicit Session(FakeHost& host) {
    REQUIRE(pipe(in_) == 0);
    REQUIRE(pipe(out_) == 0);
    ServerOptions options;
    options.input_fd = in_[0];
    options.output_fd = out_[1];
    options.max_calls_in_flight = 4;
    options_ = options;
    result_ = std::async(std::launch::async, [this, &host] { return serve(options_, host); });
  }
  ~Session() {
    close_input();
    if (result_.valid()) result_.wait();
    ::close(in_[0]);
    ::close(out_[0]);
    ::close(out_[1]);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void send(const std::string& text) {
    REQUIRE(::write(in_[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  void close_input() {
    if (in_[1] >= 0) ::close(in_[1]);
    in_[1] = -1;
  }
  // The next line the server wrote, within `limit`.
  Json next(std::chrono::milliseconds limit = 5000ms) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (pending_.find('\n') == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) FAIL("no line from the server in time");
      pollfd entry{out_[0], POLLIN, 0};
      if (poll(&entry, 1, static_cast<int>(left.count())) <= 0) continue;
      char buffer[4096];
      const ssize_t got = ::read(out_[0], buffer, sizeof buffer);
      REQUIRE(got > 0);
      pending_.append(buffer, static_cast<std::size_t>(got));
    }
    const std::size_t end = pending_.find('\n');
    const std::string line = pending_.substr(0, end);
    pending_.erase(0, end + 1);
    Json message = Json::parse(line, nullptr, false);
    REQUIRE_FALSE(message.is_discarded());
    return message;
  }
  // The next message that is not a progress notification.
  Json next_answer() {
    for (;;) {
      Json message = next();
      if (message.value("method", "") != "notifications/progress") return message;
    }
  }
  int exit_code() { return result_.get(); }
  void initialize(const std::string& version = "2025-11-25") {
    send(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" +
         version +
         R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
         "\n");
    const Json answer = next();
    REQUIRE(answer["result"]["protocolVersion"] == version);
    send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
         "\n");
  }

 private:
  int in_[2] = {-1, -1};
  int out_[2] = {-1, -1};
  ServerOptions options_;
  std::string pending_;
  std::future<int> result_;
};

std::string call(int id, const std::string& tool, const std::string& arguments,
                 const std::string& meta = "") {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"tools/call","params":{"name":")" + tool + R"(","arguments":)" + arguments +
         (meta.empty() ? "" : R"(,"_meta":)" + meta) + "}}\n";
}

}  // namespace

TEST_CASE("the server answers the lifecycle and exits 0 at EOF", "[mcp][server]") {
  FakeHost host;
  Session session(host);
  session.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"
               "\n");
  CHECK(session.next()["error"]["code"] == rpc_error::kInvalidRequest);
  session.send(R"({"jsonrpc":"2.0","id":2,"method":"ping"})"
               "\n");
  CHECK(session.next() == Json::parse(R"({"jsonrpc":"2.0","id":2,"result":{}})"));
  session.initialize("2025-06-18");
  session.send(R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})"
               "\n");
  const Json list = session.next();
  CHECK(list["id"] == 3);
  CHECK(list["result"]["tools"].size() == tool_definitions().size());
  session.send(R"({"jsonrpc":"2.0","id":4,"method":"resources/list"})"
               "\n");
  const Json unknown = session.next();
  CHECK(unknown["error"]["code"] == rpc_error::kMethodNotFound);
  CHECK(unknown["error"]["message"] == "Method not found: resources/list");
  session.close_input();
  CHECK(session.exit_code() == 0);
}

TEST_CASE("garbage lines get JSON-RPC errors and the server goes on", "[mcp][server]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send("{oops\n");
  CHECK(
      session.next() ==
      Json::parse(
          R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not JSON"}})"));
  session.send("[1,2]\n\n   \n");
  CHECK(session.next()["error"]["code"] == -32600);
  session.send(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}})"
               "\n");
  const Json unknown_tool = session.next();
  CHECK(unknown_tool["error"]["code"] == -32602);
  CHECK(unknown_tool["error"]["message"] == "Unknown tool: nope");
  session.send(call(6, "press", R"({"key":"menu"})"));
  CHECK(session.next()["error"]["code"] == -32602);
  session.send(call(7, "execute", R"({"actions":[{"id":"a","type":"warp"}]})"));
  const Json invalid = session.next();
  CHECK(invalid["error"]["code"] == -32602);
  CHECK(invalid["error"]["data"]["code"] == "EXECUTION_ACTION_UNSUPPORTED");
  // A params object the action does not accept: the validator's own refusal, with its data.
  session.send(
      call(11, "execute", R"({"actions":[{"id":"a","type":"snapshot","params":{"x":1}}]})"));
  const Json bad_params = session.next();
  CHECK(bad_params["error"]["code"] == -32602);
  CHECK(bad_params["error"]["data"]["code"] == "EXECUTION_VALIDATION_FAILED");
  CHECK(bad_params["error"]["data"]["details"]["path"] == "actions.0.params");
  CHECK(host.executions == 0);
  session.send(R"({"jsonrpc":"2.0","id":8,"method":"ping"})"
               "\n");
  CHECK(session.next()["id"] == 8);
}

TEST_CASE("a tool call runs through the host and is framed as a tool result", "[mcp][server]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send(call(1, "configure", R"({"deviceId":"dev-a"})"));
  const Json configured = session.next();
  CHECK(configured["result"]["structuredContent"] ==
        Json::parse(R"({"ok":true,"session":{"deviceId":"dev-a"},
                        "disposition":{"delivery":"not_delivered","retry":"safe"}})"));
  session.send(call(2, "snapshot", "{}"));
  const Json snapshot = session.next_answer();
  CHECK(snapshot["id"] == 2);
  CHECK(snapshot["result"]["structuredContent"]["deviceId"] == "dev-a");
  CHECK_FALSE(snapshot["result"].contains("isError"));
  session.send(call(3, "explain_error", R"({"code":"NODE_NOT_FOUND"})"));
  CHECK(session.next_answer()["result"]["structuredContent"]["error"]["code"] == "NODE_NOT_FOUND");
}

TEST_CASE("skills_list keeps the entries' relative paths and drops the registry's path",
          "[mcp][server][skills]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send(call(1, "skills_list", R"({"keyword":"check"})"));
  const Json listed = session.next_answer()["result"]["structuredContent"];
  CHECK(listed["skills"][0]["path"] == "skills/com.example.check");
  CHECK(listed["filter"]["keyword"] == "check");
  CHECK_FALSE(listed.contains("registryPath"));
  session.send(call(2, "skills_get", R"({"skillId":"nope"})"));
  const Json missing = session.next_answer()["result"];
  CHECK(missing["isError"] == true);
  CHECK(missing["structuredContent"]["code"] == "SKILL_NOT_FOUND");
  session.send(call(3, "skills_get", R"({})"));
  CHECK(session.next_answer()["error"]["code"] == -32602);
}

TEST_CASE("skills_run's script output survives the redaction under output and errorOutput",
          "[mcp][server][skills]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send(call(1, "skills_run", R"({"skillId":"com.example.check","args":["a"]})"));
  const Json answer = session.next_answer()["result"];
  CHECK(answer["isError"] == true);
  const Json& body = answer["structuredContent"];
  CHECK(body["code"] == "SKILL_EXECUTION_FAILED");
  CHECK(body["output"] == "step 1 done\n");
  CHECK(body["errorOutput"].get<std::string>().find("boom") == 0);
  CHECK_FALSE(body.contains("stdout"));
  CHECK_FALSE(body.contains("stderr"));
  CHECK(body["skillResult"]["status"] == "failed");
  // The schema bounds what a caller may ask of a run.
  session.send(call(2, "skills_run", R"({"skillId":"x","timeoutMs":600001})"));
  CHECK(session.next_answer()["error"]["code"] == -32602);
  session.send(call(3, "skills_run", R"({"skillId":"x","args":[1]})"));
  CHECK(session.next_answer()["error"]["code"] == -32602);
  Json many = Json::array();
  for (int i = 0; i < 65; ++i) many.push_back("a");
  session.send(call(4, "skills_run", Json{{"skillId", "x"}, {"args", many}}.dump()));
  const Json refused = session.next_answer()["error"];
  CHECK(refused["code"] == -32602);
  CHECK(refused["message"].get<std::string>().find("at most 64") != std::string::npos);
}

TEST_CASE("recording_compile returns the payload whole and no host path",
          "[mcp][server][recording]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send(call(1, "recording_compile", R"({"sessionId":"checkout","closeAppFirst":true})"));
  const Json answer = session.next_answer()["result"];
  CHECK_FALSE(answer.contains("isError"));
  const Json& body = answer["structuredContent"];
  CHECK(body["sessionId"] == "checkout");
  CHECK(body["closeAppFirst"] == true);
  CHECK(body["execution"]["actions"][0]["type"] == "open_app");
  CHECK_FALSE(body.contains("sourcePath"));
  // The id is the Operator's charset, checked before anything runs.
  session.send(call(2, "recording_compile", R"({"sessionId":"../x"})"));
  CHECK(session.next_answer()["error"]["code"] == -32602);
  session.send(call(3, "recording_compile", R"({"path":"/etc/passwd"})"));
  CHECK(session.next_answer()["error"]["code"] == -32602);
  // start and stop are executions of the recording rows, with the CLI's ids and budgets.
  session.send(call(4, "recording_start", R"({"sessionId":"checkout"})"));
  const Json started = session.next_answer()["result"]["structuredContent"];
  CHECK(started["actionTypes"] == Json::array({"start_recording"}));
  CHECK(started["commandId"].get<std::string>().rfind("mcp-recording_start-", 0) == 0);
  CHECK(started["timeoutMs"] == 10000);
  session.send(call(5, "recording_stop", "{}"));
  const Json stopped = session.next_answer()["result"]["structuredContent"];
  CHECK(stopped["actionTypes"] == Json::array({"stop_recording"}));
  CHECK(stopped["timeoutMs"] == 15000);
}

TEST_CASE("notifications/cancelled stops that call alone and it is still answered",
          "[mcp][server][cancel]") {
  FakeHost host;
  host.delay = 1500ms;
  Session session(host);
  session.initialize();
  const auto started = std::chrono::steady_clock::now();
  session.send(call(1, "wait", R"({"selector":{"text":"Never"}})", R"({"progressToken":"p1"})"));
  session.send(call(2, "snapshot", "{}"));
  // Both calls in flight before the cancellation.
  REQUIRE(clawperator::testing::wait_until([&] { return host.concurrent == 2; }, 1000ms));
  session.send(
      R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}})"
      "\n");
  const Json first = session.next_answer();
  CHECK(first["id"] == 1);
  CHECK(first["result"]["isError"] == true);
  CHECK(first["result"]["structuredContent"]["code"] == "RESULT_TRANSPORT_CANCELLED");
  CHECK(first["result"]["structuredContent"]["details"]["dispatchState"] == "dispatched");
  CHECK(std::chrono::steady_clock::now() - started < 1200ms);
  const Json second = session.next_answer();
  CHECK(second["id"] == 2);
  CHECK(second["result"]["structuredContent"]["ok"] == true);
  CHECK(host.max_concurrent == 2);
}

TEST_CASE("a long call with a progress token gets progress notifications", "[mcp][server]") {
  FakeHost host;
  host.delay = 2300ms;
  Session session(host);
  session.initialize();
  session.send(call(1, "wait", R"({"selector":{"text":"x"}})", R"({"progressToken":7})"));
  const Json progress = session.next();
  CHECK(progress["method"] == "notifications/progress");
  CHECK(progress["params"]["progressToken"] == 7);
  CHECK(progress["params"]["progress"].get<long long>() >= 900);
  CHECK(progress["params"]["total"] == 30000);
  CHECK(session.next_answer()["id"] == 1);
}

TEST_CASE("stdin EOF cancels the calls in flight, answers them, then exits",
          "[mcp][server][cancel]") {
  FakeHost host;
  host.delay = 10000ms;
  Session session(host);
  session.initialize();
  session.send(call(1, "snapshot", "{}"));
  // The call in flight before the end of the input.
  REQUIRE(clawperator::testing::wait_until([&] { return host.concurrent == 1; }, 5000ms));
  session.close_input();
  const Json answer = session.next_answer();
  CHECK(answer["id"] == 1);
  CHECK(answer["result"]["structuredContent"]["code"] == "RESULT_TRANSPORT_CANCELLED");
  CHECK(session.exit_code() == 0);
}

namespace {

// A successful snapshot execution's document, as exec prints it.
Json snapshot_document(const std::string& xml) {
  Json step = {{"id", "snap"},
               {"actionType", "snapshot"},
               {"success", true},
               {"data", {{"text", xml}, {"foreground_package", "com.android.settings"}}}};
  return Json{{"ok", true},
              {"deviceId", "emulator-5554"},
              {"terminalSource", "clawperator_result"},
              {"envelope",
               {{"commandId", "mcp-snapshot-1-abc"},
                {"taskId", "mcp-snapshot-1-abc"},
                {"status", "success"},
                {"stepResults", Json::array({step})}}},
              {"disposition", {{"delivery", "delivered_verified"}, {"retry", "safe"}}}};
}

const char* kHierarchy =
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
    "<node index=\"0\" text=\"Wi-Fi\" resource-id=\"android:id/title\" "
    "class=\"android.widget.TextView\" content-desc=\"\" bounds=\"[0,0][10,10]\" />"
    "<node index=\"1\" text=\"Bluetooth\" class=\"android.widget.TextView\" "
    "bounds=\"[0,10][10,20]\" /></hierarchy>";

}  // namespace

TEST_CASE("a compact snapshot keeps its nodes' paths and leaves the XML out", "[mcp][server]") {
  FakeHost host;
  host.answer = snapshot_document(kHierarchy);
  Session session(host);
  session.initialize();
  session.send(call(1, "snapshot", R"({"compact":true,"maxNodes":1,"maxTextChars":3})"));
  const Json result = session.next_answer()["result"];
  CHECK_FALSE(result.contains("isError"));
  const Json& body = result["structuredContent"];
  CHECK(body["ok"] == true);
  CHECK(body["terminalSource"] == "clawperator_result");
  CHECK_FALSE(body["envelope"]["stepResults"][0]["data"].contains("text"));
  CHECK(body["envelope"]["stepResults"][0]["data"]["foreground_package"] == "com.android.settings");
  const Json& compact = body["compact"];
  CHECK(compact["schemaVersion"] == 1);
  CHECK(compact["commandId"] == "mcp-snapshot-1-abc");
  CHECK(compact["totalNodes"] == 2);
  CHECK(compact["returnedNodes"] == 1);
  CHECK(compact["truncated"] == true);
  REQUIRE(compact["nodes"].size() == 1);
  CHECK(compact["nodes"][0]["text"] == "Wi-");
  CHECK(compact["nodes"][0].contains("nodePath"));
  CHECK_FALSE(compact.contains("rawArtifactPath"));
  // The text item says the same as structuredContent.
  CHECK(Json::parse(result["content"][0]["text"].get<std::string>()) == body);
}

TEST_CASE("saveRaw keeps the XML in a new private file of the state directory", "[mcp][server]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mcp-artifacts-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  FakeHost host;
  host.answer = snapshot_document(kHierarchy);
  host.artifacts = dir;
  {
    Session session(host);
    session.initialize();
    session.send(call(1, "snapshot", R"({"compact":true,"saveRaw":true})"));
    const Json body = session.next_answer()["result"]["structuredContent"];
    REQUIRE(body["ok"] == true);
    const std::filesystem::path raw = dir / "snapshot-mcp-snapshot-1-abc.xml";
    CHECK(body["compact"]["rawArtifactPath"] == raw.string());
    std::ifstream in(raw);
    const std::string written((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    CHECK(written == kHierarchy);
    CHECK((std::filesystem::status(raw).permissions() & std::filesystem::perms::all) ==
          (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
    // The same name again is never overwritten: a failure that says so, after the dispatch.
    session.send(call(2, "snapshot", R"({"compact":true,"saveRaw":true})"));
    const Json again = session.next_answer()["result"];
    CHECK(again["isError"] == true);
    CHECK(again["structuredContent"]["code"] == "SNAPSHOT_ARTIFACT_WRITE_FAILED");
    CHECK(again["structuredContent"]["details"]["dispatchState"] == "dispatched");
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("compact snapshot failures are error results with their codes", "[mcp][server]") {
  {
    FakeHost host;
    host.answer = snapshot_document("<root><node/></root>");
    Session session(host);
    session.initialize();
    session.send(call(1, "snapshot", R"({"compact":true})"));
    const Json bad_xml = session.next_answer()["result"];
    CHECK(bad_xml["isError"] == true);
    CHECK(bad_xml["structuredContent"]["code"] == "SNAPSHOT_EXTRACTION_FAILED");
    CHECK(bad_xml["structuredContent"]["details"]["phase"] == "post_processing");
    CHECK(bad_xml["structuredContent"].contains("disposition"));
  }
  // No state directory: saveRaw cannot keep the XML anywhere.
  FakeHost host;
  host.answer = snapshot_document(kHierarchy);
  Session session(host);
  session.initialize();
  session.send(call(2, "snapshot", R"({"compact":true,"saveRaw":true})"));
  const Json no_dir = session.next_answer()["result"];
  CHECK(no_dir["isError"] == true);
  CHECK(no_dir["structuredContent"]["code"] == "SNAPSHOT_ARTIFACT_WRITE_FAILED");
  CHECK(no_dir["structuredContent"]["details"]["dispatchState"] == "dispatched");
}

TEST_CASE("query_ui's parsed query survives the redaction whole", "[mcp][server]") {
  FakeHost host;
  host.answer = Json::parse(R"({"ok":true,"deviceId":"emulator-5554",
      "envelope":{"status":"success","stepResults":[]},
      "query":{"nodes":[{"nodePath":"0.1","parentPath":"0","text":"Wi-Fi"}],"totalMatches":1},
      "disposition":{"delivery":"delivered_verified","retry":"safe"}})");
  Session session(host);
  session.initialize();
  session.send(call(1, "query_ui", R"({"matcher":{"textContains":"Wi"}})"));
  const Json body = session.next_answer()["result"]["structuredContent"];
  CHECK(body["query"] == host.answer->at("query"));
}

TEST_CASE("payload rules refuse the new tools' bad combinations with -32602", "[mcp][server]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send(call(1, "click", R"({"coordinate":{"x":1,"y":2},"strict":true})"));
  const Json strict = session.next();
  CHECK(strict["error"]["code"] == rpc_error::kInvalidParams);
  CHECK(strict["error"]["message"].get<std::string>().find(
            "coordinate cannot use strict or container") != std::string::npos);
  CHECK(strict["error"]["message"].get<std::string>().find("(path: actions.0.params") !=
        std::string::npos);
  session.send(call(2, "click", R"({"coordinate":{"x":1,"y":2},"container":{"id":"list"}})"));
  CHECK(session.next()["error"]["code"] == rpc_error::kInvalidParams);
  session.send(call(3, "swipe", R"({"start":{"x":5,"y":5},"end":{"x":5,"y":5},"durationMs":100})"));
  const Json same = session.next();
  CHECK(same["error"]["code"] == rpc_error::kInvalidParams);
  CHECK(same["error"]["message"] == "swipe start and end must differ (path: actions.0.params.end)");
  session.send(call(4, "drag",
                    R"({"start":{"x":5,"y":5},"end":{"x":5,"y":5},"holdDurationMs":100,)"
                    R"("moveDurationMs":100})"));
  CHECK(session.next()["error"]["code"] == rpc_error::kInvalidParams);
  CHECK(host.executions == 0);
}

TEST_CASE("with 2025-03-26 negotiated a JSON-RPC batch gets one array of answers",
          "[mcp][server][batch]") {
  FakeHost host;
  host.delay = 100ms;
  Session session(host);
  session.initialize("2025-03-26");
  std::string batch = R"([{"jsonrpc":"2.0","id":1,"method":"ping"},)";
  batch += call(2, "snapshot", "{}");
  batch.pop_back();  // its newline
  batch += R"(,{"jsonrpc":"2.0","method":"notifications/progress","params":{}},)"
           R"(5,{"jsonrpc":"2.0","id":3,"method":"tools/list","params":"x"}])"
           "\n";
  session.send(batch);
  // No progress token: the next line is the batch's answer.
  const Json answers = session.next();
  INFO(answers.dump(2));
  REQUIRE(answers.is_array());
  REQUIRE(answers.size() == 4);
  std::map<std::string, Json> by_id;
  for (const Json& answer : answers) by_id[answer["id"].dump()] = answer;
  CHECK(by_id["1"]["result"] == Json::object());
  // 2025-03-26 has no structuredContent: the document is the text content.
  CHECK(Json::parse(by_id["2"]["result"]["content"][0]["text"].get<std::string>())["ok"] == true);
  CHECK(by_id["3"]["error"]["code"] == rpc_error::kInvalidParams);
  CHECK(by_id["null"]["error"]["code"] == rpc_error::kInvalidRequest);
  CHECK(host.executions == 1);

  // Notifications only: nothing is owed, not even an empty array.
  session.send(R"([{"jsonrpc":"2.0","method":"notifications/progress","params":{}}])"
               "\n");
  session.send(R"({"jsonrpc":"2.0","id":9,"method":"ping"})"
               "\n");
  CHECK(session.next()["id"] == 9);
  // initialize inside a batch is refused as any second initialize is.
  session.send(R"([{"jsonrpc":"2.0","id":10,"method":"initialize","params":{}}])"
               "\n");
  const Json again = session.next();
  REQUIRE(again.is_array());
  CHECK(again[0]["error"]["code"] == rpc_error::kInvalidRequest);
}

TEST_CASE("a JSON-RPC batch is refused before initialize and under other versions",
          "[mcp][server][batch]") {
  const std::string ping_batch = R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"
                                 "\n";
  SECTION("before initialize") {
    FakeHost host;
    Session session(host);
    session.send(ping_batch);
    const Json refusal = session.next();
    CHECK(refusal == Json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,)"
                                 R"("message":"Invalid Request: a JSON-RPC batch needs )"
                                 R"(protocol version 2025-03-26 negotiated first"}})"));
  }
  for (const char* version : {"2025-11-25", "2025-06-18", "2024-11-05"}) {
    SECTION(version) {
      FakeHost host;
      Session session(host);
      session.initialize(version);
      session.send(ping_batch);
      const Json refusal = session.next();
      REQUIRE(refusal.is_object());
      CHECK(refusal["id"] == nullptr);
      CHECK(refusal["error"]["code"] == rpc_error::kInvalidRequest);
      CHECK(refusal["error"]["message"] == "Invalid Request: protocol version " +
                                               std::string(version) +
                                               " has no JSON-RPC batches (only 2025-03-26 has)");
    }
  }
}

TEST_CASE("emulator_provision: the provision document, the log path redacted, bounds refused",
          "[mcp][server][emulator]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send(
      call(1, "emulator_provision", R"({"headless":true,"api":35,"target":"google_apis"})"));
  const Json answer = session.next_answer()["result"];
  CHECK_FALSE(answer.contains("isError"));
  const Json& body = answer["structuredContent"];
  CHECK(body["serial"] == "emulator-5554");
  CHECK(body["action"] == "created");
  CHECK(body["headless"] == true);
  CHECK(body.dump().find("/tmp/clawperator-0") == std::string::npos);
  for (const char* refused :
       {R"({"api":7})", R"({"target":"playstore"})", R"({"abi":"mips"})", R"({"bootTimeoutMs":10})",
        R"({"profile":"../x"})", R"({"name":"x"})"}) {
    INFO(refused);
    session.send(call(2, "emulator_provision", refused));
    CHECK(session.next_answer()["error"]["code"] == -32602);
  }
}

TEST_CASE(
    "evidence tools: the manifest and its path kept, the bundle directory not, pending "
    "sessions an error, bounds refused",
    "[mcp][server][evidence]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send(call(1, "evidence_capture", R"({"label":"checkout","context":{"run":7}})"));
  Json answer = session.next_answer()["result"];
  CHECK_FALSE(answer.contains("isError"));
  Json body = answer["structuredContent"];
  CHECK(body["manifestPath"] == "/home/u/.clawperator/evidence/bundles/6e708990/manifest.json");
  CHECK(body["manifest"]["artifacts"][0]["path"] == "screenshot.png");
  CHECK(body["manifest"]["label"] == "checkout");
  CHECK_FALSE(body.contains("bundleDir"));

  session.send(call(2, "evidence_video_status", R"({"sessionId":"x"})"));
  answer = session.next_answer()["result"];
  CHECK(answer["isError"] == true);  // still recording
  session.send(call(3, "evidence_video_stop", R"({"sessionId":"x"})"));
  answer = session.next_answer()["result"];
  CHECK_FALSE(answer.contains("isError"));  // complete
  session.send(call(4, "evidence_video_start", R"({"durationSeconds":3})"));
  answer = session.next_answer()["result"];
  CHECK_FALSE(answer.contains("isError"));
  CHECK(answer["structuredContent"]["status"] == "recording");

  const std::string long_label = "\"" + std::string(2049, 'a') + "\"";
  const std::string big_context = "{\"k\":\"" + std::string(17000, 'b') + "\"}";
  for (const auto& [tool, refused] : {
           std::pair{"evidence_capture", std::string(R"({"outputDir":"/tmp/x"})")},
           std::pair{"evidence_capture", R"({"label":)" + long_label + "}"},
           std::pair{"evidence_capture", R"({"context":)" + big_context + "}"},
           std::pair{"evidence_capture", std::string(R"({"context":[1]})")},
           std::pair{"evidence_video_start", std::string(R"({})")},
           std::pair{"evidence_video_start", std::string(R"({"durationSeconds":181})")},
           std::pair{"evidence_video_start", std::string(R"({"durationSeconds":0})")},
           std::pair{"evidence_video_start", std::string(R"({"durationSeconds":3,"size":"7x9"})")},
           std::pair{"evidence_video_start",
                     std::string(R"({"durationSeconds":3,"timeoutMs":5000})")},
           std::pair{"evidence_video_start",
                     std::string(R"({"durationSeconds":3,"recorder":"ffmpeg"})")},
           std::pair{"evidence_video_status", std::string(R"({})")},
           std::pair{"evidence_video_stop", std::string(R"({"sessionId":"x","deviceId":"y"})")},
       }) {
    INFO(tool << " " << refused.substr(0, 80));
    session.send(call(5, tool, refused));
    CHECK(session.next_answer()["error"]["code"] == -32602);
  }
}

TEST_CASE(
    "webview tools: the service's reading of the arguments, the page's words whole, the "
    "screenshot as an image",
    "[mcp][server][webview]") {
  FakeHost host;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mcp-webview-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  host.webview_png = dir / "shot.png";
  Session session(host);
  session.initialize();
  session.send(call(1, "webview_eval", R"({"expression":"document.title","pageId":"P1"})"));
  Json answer = session.next_answer()["result"];
  CHECK_FALSE(answer.contains("isError"));
  CHECK(answer["structuredContent"]["value"]["path"] == "/home/u/notes.txt");
  CHECK(answer["structuredContent"]["value"]["echo"]["expression"] == "document.title");
  CHECK(answer["structuredContent"]["page"]["url"] == "file:///home/u/page.html");

  session.send(call(2, "webview_screenshot", "{}"));
  answer = session.next_answer()["result"];
  REQUIRE(answer["content"].size() == 2);
  CHECK(answer["content"][1]["type"] == "image");
  CHECK(answer["content"][1]["mimeType"] == "image/png");
  CHECK_FALSE(answer["structuredContent"].contains("path"));
  CHECK_FALSE(std::filesystem::exists(*host.webview_png));  // read, then removed
  CHECK(host.webview_actions == std::vector<std::string>{"eval", "screenshot"});

  for (const auto& [tool, refused] : {
           std::pair{"webview_click", R"({"selector":"  "})"},
           std::pair{"webview_click", R"({})"},
           std::pair{"webview_query", R"({"selector":"a","pageId":"P","url":"x"})"},
           std::pair{"webview_query", R"({"selector":"a","text":"x"})"},
           std::pair{"webview_type", R"({"selector":"a"})"},
           std::pair{"webview_wait", R"({"selector":"a","timeoutMs":600001})"},
           std::pair{"webview_eval", R"({"expression":" "})"},
           std::pair{"webview_screenshot", R"({"path":"/tmp/x.png"})"},
           std::pair{"webview_list", R"({"app":""})"},
       }) {
    INFO(tool << " " << refused);
    session.send(call(3, tool, refused));
    CHECK(session.next_answer()["error"]["code"] == -32602);
  }
  CHECK(host.webview_actions.size() == 2);  // nothing refused reached the host
  std::filesystem::remove_all(dir);
}

TEST_CASE("visual_text tools: the service's reading of the arguments, the words read whole",
          "[mcp][server][visual-text]") {
  FakeHost host;
  Session session(host);
  session.initialize();
  session.send(call(1, "visual_text_click", R"({"text":"Buy now","index":1,"long":true})"));
  Json answer = session.next_answer()["result"];
  CHECK_FALSE(answer.contains("isError"));
  CHECK(answer["structuredContent"]["matches"][0]["text"] == "/home/u/Buy now");
  CHECK(answer["structuredContent"]["matches"][0]["echo"]["index"] == 1);
  session.send(call(2, "visual_text_query", R"({"contains":"EUR","region":"[0,0][1080,600]"})"));
  CHECK_FALSE(session.next_answer()["result"].contains("isError"));
  CHECK(host.visual_text_actions == std::vector<std::string>{"click", "query"});

  for (const auto& [tool, refused] : {
           std::pair{"visual_text_click", R"({})"},
           std::pair{"visual_text_click", R"({"text":"a","contains":"b"})"},
           std::pair{"visual_text_click", R"({"text":"  "})"},
           std::pair{"visual_text_query", R"({"text":"a","long":true})"},
           std::pair{"visual_text_query", R"({"text":"a","region":"0,0,10,10"})"},
           std::pair{"visual_text_wait", R"({"text":"a","timeoutMs":0})"},
           std::pair{"visual_text_read", R"({"text":"a","index":-1})"},
           std::pair{"visual_text_read", R"({"text":"a","ocrLang":"../x"})"},
           std::pair{"visual_text_read", R"({"text":"a","minConfidence":101})"},
       }) {
    INFO(tool << " " << refused);
    session.send(call(3, tool, refused));
    CHECK(session.next_answer()["error"]["code"] == -32602);
  }
  CHECK(host.visual_text_actions.size() == 2);  // nothing refused reached the host
}

TEST_CASE("elicitation: a client that declares it is asked, and only its accepted yes is a yes",
          "[mcp][server][policy]") {
  const std::string click = R"({"selector":{"text":"Send"}})";
  SECTION("no elicitation capability, or a protocol before it: nobody to ask") {
    for (const std::string version : {"2025-11-25", "2025-03-26"}) {
      FakeHost host;
      host.ask_on_every_call = true;
      Session session(host);
      session.send(
          R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" +
          version + R"(","capabilities":)" +
          (version == "2025-03-26" ? R"({"elicitation":{}})" : "{}") +
          R"(,"clientInfo":{"name":"t","version":"1"}}})"
          "\n");
      REQUIRE(session.next()["result"]["protocolVersion"] == version);
      session.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                   "\n");
      session.send(call(1, "click", click));
      const Json answer = session.next_answer();
      INFO(answer.dump());
      const Json body = Json::parse(answer["result"]["content"][0]["text"].get<std::string>());
      CHECK(body["askable"] == false);
      CHECK_FALSE(body.contains("confirmed"));
    }
  }
  SECTION("declared: elicitation/create with a boolean form, then the answer") {
    FakeHost host;
    host.ask_on_every_call = true;
    Session session(host);
    session.send(
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}})"
        "\n");
    REQUIRE(session.next()["result"]["protocolVersion"] == "2025-06-18");
    session.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                 "\n");
    for (const auto& [reply, expected] :
         {std::pair{std::string(R"({"action":"accept","content":{"confirm":true}})"), true},
          std::pair{std::string(R"({"action":"accept","content":{"confirm":false}})"), false},
          std::pair{std::string(R"({"action":"decline"})"), false},
          std::pair{std::string(R"({"action":"cancel"})"), false}}) {
      INFO(reply);
      session.send(call(2, "click", click));
      const Json question = session.next_answer();
      REQUIRE(question.value("method", "") == "elicitation/create");
      CHECK(question["params"]["message"].get<std::string>().find("Send") != std::string::npos);
      CHECK(question["params"]["requestedSchema"]["properties"]["confirm"]["type"] == "boolean");
      session.send(R"({"jsonrpc":"2.0","id":)" + question["id"].dump() + R"(,"result":)" + reply +
                   "}\n");
      const Json answer = session.next_answer();
      const Json body = answer["result"]["structuredContent"];
      CHECK(body["askable"] == true);
      CHECK(body["confirmed"] == expected);
    }
  }
}
