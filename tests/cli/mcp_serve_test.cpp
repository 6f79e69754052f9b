// `clawperator mcp serve` as a client starts it: stdin in, nothing but JSON-RPC out.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"

namespace {

using clawperator::testing::kBinary;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::TemporaryDirectory;
using Json = nlohmann::json;

const std::string kInitialize =
    R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{},"clientInfo":{"name":"cli-test","version":"1"}}})";

std::string random_line(std::mt19937& random) {
  static const std::vector<std::string> kValid = {
      kInitialize,
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"click","arguments":{"selector":{"text":"OK"}}}})",
      R"({"jsonrpc":"2.0","id":2,"method":"ping"})",
      R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})",
      R"({"jsonrpc":"2.0","id":[1],"method":"tools/list"})",
  };
  std::uniform_int_distribution<int> kind(0, 3);
  std::uniform_int_distribution<int> byte(0, 255);
  switch (kind(random)) {
    case 0: {  // random bytes, no newline
      std::string line(static_cast<std::size_t>(byte(random) % 64), ' ');
      for (char& c : line) {
        c = static_cast<char>(byte(random));
        if (c == '\n') c = ' ';
      }
      return line;
    }
    case 1: {  // a valid message cut short
      const std::string& valid = kValid[static_cast<std::size_t>(byte(random)) % kValid.size()];
      return valid.substr(0, static_cast<std::size_t>(byte(random)) % valid.size());
    }
    case 2: {  // a valid message with one byte changed
      std::string valid = kValid[static_cast<std::size_t>(byte(random)) % kValid.size()];
      char replacement = static_cast<char>(byte(random));
      if (replacement == '\n') replacement = '}';
      valid[static_cast<std::size_t>(byte(random)) % valid.size()] = replacement;
      return valid;
    }
    default:  // JSON of the wrong shape
      return std::vector<std::string>{
          "[]",
          "null",
          "{}",
          "\"x\"",
          R"({"jsonrpc":"2.0"})",
          R"({"jsonrpc":"2.0","id":{},"method":"x"})"}[static_cast<std::size_t>(byte(random)) % 6];
  }
}

}  // namespace

TEST_CASE("mcp serve survives 1,000 random and truncated lines and still lists its tools",
          "[mcp]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mcp-serve-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path input = dir / "stdin.jsonl";
  {
    std::ofstream out(input, std::ios::binary);
    std::mt19937 random(18);
    for (int i = 0; i < 1000; ++i) out << random_line(random) << '\n';
    // Whatever the noise did to the lifecycle, a fresh initialize is either answered or
    // refused as a repeat; tools/list must then work.
    out << kInitialize << '\n';
    out << R"({"jsonrpc":"2.0","id":"last","method":"tools/list"})" << '\n';
  }
  RunOptions options;
  options.stdin_path = input.string();
  // No device is reachable: tool calls that got through end as device errors, not hangs.
  options.extra_env = {{"ADB", "/nonexistent/adb"},
                       {"CLAWPERATOR_LOG_DIR", (dir / "logs").string()},
                       {"CLAWPERATOR_STATE_DIR", (dir / "state").string()}};
  const auto result = run_binary(kBinary, {"mcp", "serve"}, options);
  CHECK(result.exit_code == 0);
  std::istringstream lines(result.out);
  std::size_t count = 0;
  bool listed = false;
  for (std::string line; std::getline(lines, line);) {
    ++count;
    const Json message = Json::parse(line, nullptr, false);
    INFO(line);
    REQUIRE_FALSE(message.is_discarded());
    REQUIRE(message.is_object());
    CHECK(message["jsonrpc"] == "2.0");
    CHECK((message.contains("result") || message.contains("error") || message.contains("method")));
    if (message.value("id", Json()) == "last") {
      REQUIRE(message.contains("result"));
      listed = message["result"]["tools"].size() >= 16;
    }
  }
  CHECK(count > 500);  // most lines earn an answer
  CHECK(listed);
  std::filesystem::remove_all(dir);
}

TEST_CASE("mcp serve refuses extra arguments before speaking any protocol", "[mcp]") {
  const auto result = run_binary(kBinary, {"mcp", "serve", "extra"});
  CHECK(result.exit_code == 2);
  const Json document = Json::parse(result.out, nullptr, false);
  REQUIRE(document.is_object());
  CHECK(document["code"] == "USAGE");
}

namespace {

// One tools/call through `mcp serve` run to the end of its input (initialize first), with
// `env` added, under a guard that kills a server that outlives its input; the call's answer.
Json answer_to(const Json& call, const std::filesystem::path& dir,
               std::map<std::string, std::string> env) {
  const std::filesystem::path input = dir / "input.jsonl";
  {
    std::ofstream out(input);
    out << kInitialize << '\n'
        << R"({"jsonrpc":"2.0","method":"notifications/initialized"})" << '\n'
        << call.dump() << '\n';
  }
  RunOptions options;
  options.stdin_path = input.string();
  options.extra_env = std::move(env);
  options.extra_env["ADB"] = "/nonexistent/adb";
  options.extra_env["CLAWPERATOR_LOG_DIR"] = (dir / "logs").string();
  options.extra_env["CLAWPERATOR_STATE_DIR"] = (dir / "state").string();
  options.signal = SIGKILL;
  options.signal_after_ms = 20000;
  const auto result = run_binary(kBinary, {"mcp", "serve"}, options);
  REQUIRE(result.signal == 0);
  CHECK(result.exit_code == 0);
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    const Json message = Json::parse(line, nullptr, false);
    if (message.is_object() && message.value("id", Json()) == call["id"]) return message;
  }
  FAIL("no answer to " << call.dump() << " in " << result.out.substr(0, 2000));
  return Json();
}

Json tool_call(const std::string& name, Json arguments) {
  return {{"jsonrpc", "2.0"},
          {"id", "call"},
          {"method", "tools/call"},
          {"params", {{"name", name}, {"arguments", std::move(arguments)}}}};
}

}  // namespace

TEST_CASE(
    "mcp serve: a skills registry that is a FIFO fails at once, and the server ends with "
    "its stdin",
    "[mcp][files]") {
  const TemporaryDirectory scratch("mcp-fifo");
  const std::filesystem::path& dir = scratch.path();
  const std::filesystem::path fifo = dir / "registry.json";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // A worker stuck opening the FIFO would keep the server alive past its stdin: the guard kills
  // it, and the test fails on the signal.
  const Json answer = answer_to(tool_call("skills_list", Json::object()), dir,
                                {{"CLAWPERATOR_SKILLS_REGISTRY", fifo.string()}});
  INFO(answer.dump());
  CHECK(answer["result"]["isError"] == true);
  const Json& document = answer["result"]["structuredContent"];
  CHECK(document["code"] == "REGISTRY_READ_FAILED");
  CHECK(document["details"]["reason"] == "not a regular file");
}

TEST_CASE("mcp serve: a NUL in a skill's argument is refused, as over HTTP", "[mcp][skills]") {
  const TemporaryDirectory scratch("mcp-nul");
  const std::filesystem::path& dir = scratch.path();
  const Json answer =
      answer_to(tool_call("skills_run", {{"skillId", "com.example.any"},
                                         {"args", Json::array({"ok", std::string("a\0b", 3)})}}),
                dir, {});
  INFO(answer.dump());
  CHECK(answer["result"]["isError"] == true);
  const Json& document = answer["result"]["structuredContent"];
  CHECK(document["code"] == "INVALID_BODY");
  CHECK(document["details"]["field"] == "args.1");
}
