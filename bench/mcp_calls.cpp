// bench/run.sh's `mcp` section: the time of one tools/call in a long-lived `clawperator mcp
// serve` session, measured by its client, as hyperfine measures a whole CLI command.
//
//   mcp_calls CLAWPERATOR RUNS TOOL ARGUMENTS_JSON [READINESS_FILE]
//
// Starts CLAWPERATOR mcp serve (environment inherited), initializes, makes 10 warm-up calls
// and then RUNS timed ones, each after touching READINESS_FILE (as hyperfine's --prepare does
// for the CLI rows, outside the timing). Every answer must be a tool result with isError
// false. Prints "median mean stddev min" in milliseconds.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "call_timings.hpp"
#include "clawperator/json.hpp"

extern char** environ;

namespace {

using clawperator::Json;
using Clock = std::chrono::steady_clock;

constexpr int kWarmups = 10;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "mcp_calls: %s\n", message.c_str());
  std::exit(1);
}

class Session {
 public:
  explicit Session(const std::string& binary) {
    int to_child[2];
    int from_child[2];
    if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) fail("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, to_child[1]);
    posix_spawn_file_actions_addclose(&actions, from_child[0]);
    std::vector<std::string> argv_text = {binary, "mcp", "serve"};
    std::vector<char*> argv;
    for (std::string& word : argv_text) argv.push_back(word.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
      fail("cannot start " + binary);
    }
    posix_spawn_file_actions_destroy(&actions);
    ::close(to_child[0]);
    ::close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
  }

  ~Session() {
    ::close(in_);  // stdin EOF: the server answers what is in flight and exits
    int status = 0;
    ::waitpid(pid_, &status, 0);
    ::close(out_);
  }

  void send(const Json& message) {
    const std::string line = clawperator::dump_json(message) + "\n";
    std::size_t written = 0;
    while (written < line.size()) {
      const ssize_t n = ::write(in_, line.data() + written, line.size() - written);
      if (n <= 0) fail("the server closed its stdin");
      written += static_cast<std::size_t>(n);
    }
  }

  Json receive() {
    for (;;) {
      if (const std::size_t end = buffer_.find('\n'); end != std::string::npos) {
        Json message = clawperator::parse_json(std::string_view(buffer_).substr(0, end));
        buffer_.erase(0, end + 1);
        if (message.is_discarded()) fail("the server printed a line that is not JSON");
        // Notifications (progress, logging) are not answers.
        if (message.contains("id")) return message;
        continue;
      }
      char chunk[65536];
      const ssize_t n = ::read(out_, chunk, sizeof chunk);
      if (n <= 0) fail("the server closed its stdout");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

 private:
  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  std::string buffer_;
};

Json request(int id, const std::string& method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: mcp_calls CLAWPERATOR RUNS TOOL ARGUMENTS_JSON [READINESS_FILE]\n");
    return 2;
  }
  const std::string binary = argv[1];
  const int runs = std::atoi(argv[2]);
  const std::string tool = argv[3];
  const Json arguments = clawperator::parse_json(argv[4]);
  const char* readiness_file = argc > 5 ? argv[5] : nullptr;
  if (runs <= 0 || !arguments.is_object()) fail("RUNS must be positive, ARGUMENTS_JSON an object");

  Session session(binary);
  session.send(request(0, "initialize",
                       Json{{"protocolVersion", "2025-06-18"},
                            {"capabilities", Json::object()},
                            {"clientInfo", {{"name", "mcp_calls"}, {"version", "1"}}}}));
  if (!session.receive().contains("result")) fail("initialize failed");
  session.send(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});

  std::vector<double> times_ms;
  for (int i = 1; i <= kWarmups + runs; ++i) {
    if (readiness_file != nullptr) ::utimensat(AT_FDCWD, readiness_file, nullptr, 0);
    const auto started = Clock::now();
    session.send(request(i, "tools/call", Json{{"name", tool}, {"arguments", arguments}}));
    const Json answer = session.receive();
    const auto ended = Clock::now();
    const Json* result = answer.contains("result") ? &answer["result"] : nullptr;
    if (result == nullptr || result->value("isError", false)) {
      fail("call " + std::to_string(i) +
           " failed: " + clawperator::dump_json(answer).substr(0, 600));
    }
    if (i > kWarmups) {
      times_ms.push_back(std::chrono::duration<double, std::milli>(ended - started).count());
    }
  }
  clawperator::bench::print_call_timings(std::move(times_ms));
  return 0;
}
