#include "clawperator/mcp/server.hpp"

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <thread>

#include "clawperator/mcp/jsonrpc.hpp"

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

  Json run_execution(const contract::Execution& execution, const CallTarget& target,
                     const process::CancelToken& cancel) override {
    ++executions;
    max_concurrent = std::max(max_concurrent.load(), ++concurrent);
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
    if (cancelled) {
      return Json::parse(R"({"ok":false,"code":"RESULT_TRANSPORT_CANCELLED","message":"Interrupted",
          "details":{"phase":"result_wait","dispatchState":"dispatched","commandId":")" +
                         execution.command_id + R"("},
          "disposition":{"delivery":"delivered_unverified","retry":"unsafe"}})");
    }
    Json document = Json::object();
    document["ok"] = true;
    document["deviceId"] = target.device_id.value_or("emulator-5554");
    document["commandId"] = execution.command_id;
    return document;
  }
  Json devices() override { return Json::parse(R"({"ok":true,"devices":[]})"); }
  Json doctor(const CallTarget&, bool) override { return Json::parse(R"({"ok":true})"); }
  Json explain_error(const std::string& code) override {
    return Json{{"ok", true}, {"error", {{"code", code}}}};
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
        Json::parse(R"({"ok":true,"session":{"deviceId":"dev-a"}})"));
  session.send(call(2, "snapshot", "{}"));
  const Json snapshot = session.next_answer();
  CHECK(snapshot["id"] == 2);
  CHECK(snapshot["result"]["structuredContent"]["deviceId"] == "dev-a");
  CHECK_FALSE(snapshot["result"].contains("isError"));
  session.send(call(3, "explain_error", R"({"code":"NODE_NOT_FOUND"})"));
  CHECK(session.next_answer()["result"]["structuredContent"]["error"]["code"] == "NODE_NOT_FOUND");
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
  std::this_thread::sleep_for(200ms);
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
  std::this_thread::sleep_for(100ms);
  session.close_input();
  const Json answer = session.next_answer();
  CHECK(answer["id"] == 1);
  CHECK(answer["result"]["structuredContent"]["code"] == "RESULT_TRANSPORT_CANCELLED");
  CHECK(session.exit_code() == 0);
}
