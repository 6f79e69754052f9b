// `clawperator mcp serve` spoken to over a pipe for one test: initialized, its tools called, each
// answer waited for while its input stays open (at the end of its input the server cancels
// what is in flight, which a test of a call's own outcome must not see).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "farm_fixture.hpp"
#include "serve_process.hpp"
#include "wait_until.hpp"

namespace clawperator::testing {

class McpSession {
 public:
  // Started in `dir` (its stdout and stderr land there) with `env` added, and initialized.
  McpSession(const std::map<std::string, std::string>& env, const std::string& dir) : dir_(dir) {
    int input[2];
    REQUIRE(::pipe2(input, O_CLOEXEC) == 0);
    server_.emplace(kBinary, std::vector<std::string>{"mcp", "serve"}, env, dir + "/out",
                    dir + "/err", input[0]);
    ::close(input[0]);
    input_ = input[1];
    send({{"jsonrpc", "2.0"},
          {"id", "init"},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", "2025-11-25"},
            {"capabilities", nlohmann::json::object()},
            {"clientInfo", {{"name", "clawperator-test"}, {"version", "1"}}}}}});
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }
  ~McpSession() {
    if (input_ >= 0) ::close(input_);
  }
  McpSession(const McpSession&) = delete;
  McpSession& operator=(const McpSession&) = delete;

  void send(const nlohmann::json& message) {
    const std::string line = message.dump() + "\n";
    REQUIRE(::write(input_, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
  }
  void call_tool(const std::string& id, const std::string& name, nlohmann::json arguments) {
    send({{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "tools/call"},
          {"params", {{"name", name}, {"arguments", std::move(arguments)}}}});
  }
  // The answer to request `id`; null when none came within `limit`.
  nlohmann::json answer(const std::string& id, std::chrono::milliseconds limit) const {
    nlohmann::json found;
    wait_until(
        [&] {
          std::istringstream lines(slurp(dir_ + "/out"));
          for (std::string line; std::getline(lines, line);) {
            const nlohmann::json message = nlohmann::json::parse(line, nullptr, false);
            if (message.is_object() && message.value("id", nlohmann::json()) == id) {
              found = message;
            }
          }
          return !found.is_null();
        },
        limit, std::chrono::milliseconds(20));
    return found;
  }
  std::string stderr_text() const { return slurp(dir_ + "/err"); }
  // Closes its input and waits up to `limit` for it to exit: its exit code, -1 if it did not.
  int stop(std::chrono::milliseconds limit) {
    ::close(input_);
    input_ = -1;
    return server_->stop(0, limit);
  }

 private:
  std::string dir_;
  std::optional<Background> server_;
  int input_ = -1;
};

}  // namespace clawperator::testing
