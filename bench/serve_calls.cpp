// bench/run.sh's `serve` section: the time of one request to a long-lived `clawperator serve`,
// measured by its client, as hyperfine measures a whole CLI command and bench/mcp_calls.cpp an
// MCP tool call.
//
//   serve_calls CLAWPERATOR RUNS ROUTE BODY_JSON [READINESS_FILE]
//
// Starts CLAWPERATOR serve on a free loopback port with a token (environment inherited), waits for
// /ping, makes 10 warm-up requests and then RUNS timed ones, each after touching
// READINESS_FILE (as hyperfine's --prepare does for the CLI rows, outside the timing). Each
// request is a new connection with the bearer token, as a script's curl makes it (the server
// answers one request per connection, docs/serve.md §4). Every answer must be 200 with
// "ok":true. Prints "median mean stddev min" in milliseconds.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "call_timings.hpp"
#include "clawperator/json.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kWarmups = 10;
constexpr const char* kToken = "serve-calls-benchmark-token";

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "serve_calls: %s\n", message.c_str());
  std::exit(1);
}

struct Answer {
  int status = 0;
  std::string body;
};

// One request on a new connection; nullopt when nothing listens (yet).
std::optional<Answer> call(int port, const std::string& method, const std::string& route,
                           const std::string& body) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("socket failed");
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  const std::string host = "127.0.0.1:" + std::to_string(port);
  std::string request = method + " " + route + " HTTP/1.1\r\nHost: " + host +
                        "\r\nAuthorization: Bearer " + kToken +
                        "\r\nConnection: close\r\nContent-Type: application/json\r\n"
                        "Content-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body;
  for (std::size_t written = 0; written < request.size();) {
    const ssize_t n = ::write(fd, request.data() + written, request.size() - written);
    if (n <= 0) fail("the server closed the connection while the request was sent");
    written += static_cast<std::size_t>(n);
  }
  std::string response;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) fail("reading the answer failed");
    if (n == 0) break;
    response.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  Answer answer;
  if (response.rfind("HTTP/1.1 ", 0) != 0 || response.size() < 12) {
    fail("not an HTTP answer: " + response.substr(0, 200));
  }
  answer.status = std::atoi(response.c_str() + 9);
  if (const auto head_end = response.find("\r\n\r\n"); head_end != std::string::npos) {
    answer.body = response.substr(head_end + 4);
  }
  return answer;
}

// A port nothing listens on now: the kernel's pick for a socket bound to port 0.
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    fail("no free loopback port");
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

class Server {
 public:
  Server(const std::string& binary, int port) {
    std::vector<std::string> argv_text = {binary,    "serve", "--port", std::to_string(port),
                                          "--token", kToken};
    std::vector<char*> argv;
    for (std::string& word : argv_text) argv.push_back(word.data());
    argv.push_back(nullptr);
    // Its "listening on" line would fill bench/run.sh's report once per round.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    const int spawned = posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) fail("cannot start " + binary);
  }
  // SIGTERM: the server stops its readers and exits (docs/serve.md §5).
  ~Server() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

 private:
  pid_t pid_ = -1;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: serve_calls CLAWPERATOR RUNS ROUTE BODY_JSON [READINESS_FILE]\n");
    return 2;
  }
  const std::string binary = argv[1];
  const int runs = std::atoi(argv[2]);
  const std::string route = argv[3];
  const std::string body = argv[4];
  const char* readiness_file = argc > 5 ? argv[5] : nullptr;
  if (runs <= 0 || !clawperator::parse_json(body).is_object()) {
    fail("RUNS must be positive, BODY_JSON an object");
  }
  const int port = free_port();

  Server server(binary, port);
  const auto give_up = Clock::now() + std::chrono::seconds(10);
  while (!call(port, "GET", "/ping", "")) {
    if (Clock::now() > give_up) fail("the server did not answer /ping within 10 s");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }

  std::vector<double> times_ms;
  for (int i = 1; i <= kWarmups + runs; ++i) {
    if (readiness_file != nullptr) ::utimensat(AT_FDCWD, readiness_file, nullptr, 0);
    const auto started = Clock::now();
    const std::optional<Answer> answer = call(port, "POST", route, body);
    const auto ended = Clock::now();
    if (!answer) fail("the server stopped listening");
    const clawperator::Json document = clawperator::parse_json(answer->body);
    if (answer->status != 200 || !document.is_object() || !document.value("ok", false)) {
      fail("request " + std::to_string(i) + " failed (" + std::to_string(answer->status) +
           "): " + answer->body.substr(0, 600));
    }
    if (i > kWarmups) {
      times_ms.push_back(std::chrono::duration<double, std::milli>(ended - started).count());
    }
  }
  clawperator::bench::print_call_timings(std::move(times_ms));
  return 0;
}
