// How `clawperator serve` takes and keeps its token (docs/serve.md §4, "The token" and "How
// the token reaches the server"), through the real adb against virtual devices: the token is
// in no process's command line, for root or for another uid, however it was given; the docs'
// curl recipe keeps it out of curl's; --token-file refuses what is not a private regular file;
// and a second server on a port in use touches nothing of the first one's.
#include "clawperator/cli/serve_token.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "farm_fixture.hpp"
#include "proc_files.hpp"
#include "serve_process.hpp"
#include "served.hpp"
#include "test_locations.hpp"

namespace clawperator::testing {
namespace {

using Clock = std::chrono::steady_clock;

bool root() {
  return ::geteuid() == 0;
}

std::string random_text(const std::string& prefix) {
  std::random_device device;
  std::mt19937_64 generator(device());
  return prefix + std::to_string(generator()) + std::to_string(generator());
}

// A scratch directory of this test, removed at its end.
class Scratch {
 public:
  const std::string& path() const { return path_; }
  std::string file(const std::string& name, const std::string& contents, mode_t mode) const {
    const std::string at = directory_.file(name, contents);
    REQUIRE(::chmod(at.c_str(), mode) == 0);
    return at;
  }

 private:
  TemporaryDirectory directory_{"token-test"};
  std::string path_ = directory_.path().string();
};

// Every process's command line as this process reads it (root in CI), NULs as spaces, one line
// per process.
std::string command_lines_as_this_user() {
  std::string all;
  for (const pid_t pid : all_pids()) {
    std::string line = read_proc_file("/proc/" + std::to_string(pid) + "/cmdline");
    for (char& c : line) {
      if (c == '\0') c = ' ';
    }
    all += line + "\n";
  }
  return all;
}

// The same, read by uid and gid 65534 without supplementary groups: the attacker of the issue,
// another local user.
std::string command_lines_as_nobody() {
  const RunResult read = run_binary(
      "/usr/bin/setpriv",
      {"--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
       "for f in /proc/[0-9]*/cmdline; do tr '\\000' ' ' <\"$f\" 2>/dev/null; echo; done"});
  INFO(read.err);
  CHECK(read.exit_code == 0);
  return read.out;
}

// The line of a command line that holds `needle`, "" when none.
std::string line_holding(const std::string& lines, const std::string& needle) {
  std::istringstream in(lines);
  for (std::string line; std::getline(in, line);) {
    if (line.find(needle) != std::string::npos) return line;
  }
  return "";
}

// Neither root nor another uid finds `token` in any command line, while they do find the
// server's own (so the scan read what it had to).
void check_no_command_line_holds(const std::string& token, const Served& served) {
  const std::string server = "clawperator-serve serve --port " + std::to_string(served.port());
  std::vector<std::string> readings = {command_lines_as_this_user()};
  // Another uid's view needs setpriv, which needs root (CI runs as root); without it, this
  // user's scan still reads every command line: /proc/PID/cmdline is readable by every uid.
  if (root()) readings.push_back(command_lines_as_nobody());
  for (const std::string& lines : readings) {
    CHECK(lines.find(token) == std::string::npos);
    const std::string own = line_holding(lines, server);
    INFO(own);
    CHECK(!own.empty());
    CHECK(own.find("--token") == std::string::npos);
  }
}

// A header file for curl -H @FILE, so that this test's own requests carry the token in no
// argv either.
std::string header_file(const Scratch& scratch, const std::string& token) {
  return scratch.file(random_text("header-"), "Authorization: Bearer " + token + "\n", 0600);
}

int status_with_header(const Served& served, const std::string& header, const std::string& path) {
  const RunResult run =
      run_binary("/usr/bin/curl", {"-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time",
                                   "60", "-H", "@" + header, served.url(path)});
  return std::atoi(run.out.c_str());
}

// `clawperator serve ARGS` that is expected to stop at once: killed after 10 s, so a FIFO that
// blocked it fails the test instead of hanging it.
RunResult serve_refused(const std::vector<std::string>& args, const std::string& state) {
  RunOptions options;
  options.extra_env = {{"CLAWPERATOR_STATE_DIR", state}, {"CLAWPERATOR_LOG_DIR", state + "-logs"}};
  options.unset_env = {"CLAWPERATOR_SERVE_TOKEN"};
  options.signal = SIGKILL;
  options.signal_after_ms = 10000;
  std::vector<std::string> argv = {"serve", "--port", std::to_string(free_port())};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_binary(kBinary, argv, options);
}

// The sh block of docs/serve.md that follows the line naming this test.
std::string docs_recipe() {
  const std::string docs = slurp(std::string(CLAWPERATOR_DOCS_DIR) + "/serve.md");
  const auto marker = docs.find(
      "<!-- Run as written (the port replaced) by "
      "tests/serve/serve_token_test.cpp. -->");
  REQUIRE(marker != std::string::npos);
  const auto start = docs.find("```sh\n", marker);
  REQUIRE(start != std::string::npos);
  const auto end = docs.find("```\n", start + 6);
  REQUIRE(end != std::string::npos);
  return docs.substr(start + 6, end - start - 6);
}

std::string replaced_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

TEST_CASE("serve: the token is in no process's command line, for root or another uid",
          "[serve][security][token]") {
  Farm farm({"default"});
  Scratch scratch;

  SECTION("--token-file") {
    const std::string token = random_text("file-token-");
    const std::string file = scratch.file("token", token + "\n", 0600);
    Served served(farm, {"--token-file", file});
    check_no_command_line_holds(token, served);
    CHECK(served.stderr_text() == "Clawperator API server listening on http://127.0.0.1:" +
                                      std::to_string(served.port()) + "\n");
    // The newline trimmed: the token is the line.
    CHECK(slurp(served.state_dir() + "/serve-" + std::to_string(served.port()) + ".token") ==
          token + "\n");
    CHECK(status_with_header(served, header_file(scratch, token), "/devices") == 200);
    CHECK(served.stop() == 0);
  }
  SECTION("--token, with a warning") {
    const std::string token = random_text("argv-token-");
    Served served(farm, {"--token", token});
    check_no_command_line_holds(token, served);
    CHECK(served.stderr_text() ==
          "clawperator: warning: --token is visible to every local user in this process's command "
          "line (/proc/<pid>/cmdline); use --token-file FILE or CLAWPERATOR_SERVE_TOKEN instead\n"
          "Clawperator API server listening on http://127.0.0.1:" +
              std::to_string(served.port()) + "\n");
    CHECK(status_with_header(served, header_file(scratch, token), "/devices") == 200);
    CHECK(served.stop() == 0);
  }
  SECTION("--token=VALUE") {
    const std::string token = random_text("argv-equals-token-");
    Served served(farm, {"--token=" + token});
    check_no_command_line_holds(token, served);
    CHECK(status_with_header(served, header_file(scratch, token), "/devices") == 200);
    CHECK(served.stop() == 0);
  }
  SECTION("a token the server made") {
    Served served(farm);
    REQUIRE(served.token().size() == 64);
    check_no_command_line_holds(served.token(), served);
    CHECK(status_with_header(served, header_file(scratch, served.token()), "/devices") == 200);
    CHECK(served.stop() == 0);
  }
  SECTION("CLAWPERATOR_SERVE_TOKEN, gone from the server's environment") {
    const std::string token = random_text("env-token-");
    Served served(farm, {}, {{"CLAWPERATOR_SERVE_TOKEN", token}});
    check_no_command_line_holds(token, served);
    // What the server's children would inherit: its environment at the exec, and now.
    const std::string environment =
        read_proc_file("/proc/" + std::to_string(served.pid()) + "/environ");
    CHECK(environment.find("CLAWPERATOR_STATE_DIR=") != std::string::npos);
    CHECK(environment.find(token) == std::string::npos);
    CHECK(environment.find("CLAWPERATOR_SERVE_TOKEN=") == std::string::npos);
    CHECK(status_with_header(served, header_file(scratch, token), "/devices") == 200);
    CHECK(served.stop() == 0);
  }
}

TEST_CASE("serve: the docs' curl recipe keeps the token out of curl's command line",
          "[serve][security][token]") {
  Farm farm({"default"});
  Served served(farm);
  Scratch scratch;
  const std::string port = std::to_string(served.port());
  const std::string recipe = replaced_all(docs_recipe(), "3000", port);
  INFO(recipe);
  REQUIRE(recipe.find("/events") != std::string::npos);
  std::map<std::string, std::string> environment = farm.environment().extra_env;
  environment["STATE"] = served.state_dir();
  environment["TMPDIR"] = scratch.path();
  Background shell("/bin/sh", {"-c", recipe}, environment, scratch.path() + "/out",
                   scratch.path() + "/err");
  // While the event stream's curl runs: it, and every other process, holds no token.
  pid_t streaming = -1;
  const auto until = Clock::now() + std::chrono::seconds(20);
  while (streaming < 0 && Clock::now() < until) {
    for (const pid_t pid : all_pids()) {
      const std::string line = read_proc_file("/proc/" + std::to_string(pid) + "/cmdline");
      if (line.rfind("curl", 0) == 0 && line.find(":" + port + "/events") != std::string::npos) {
        streaming = pid;
      }
    }
    if (streaming < 0) std::this_thread::sleep_for(milliseconds(20));
  }
  REQUIRE(streaming > 0);
  for (int attempt = 0;
       attempt < 250 && slurp(scratch.path() + "/out").find("heartbeat") == std::string::npos;
       ++attempt) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  // The header file mktemp made: this user's only.
  int headers = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scratch.path())) {
    if (entry.path().filename().string().rfind("tmp.", 0) != 0) continue;
    ++headers;
    struct stat status {};
    REQUIRE(::stat(entry.path().c_str(), &status) == 0);
    CHECK((status.st_mode & 0777) == 0600);
    CHECK(slurp(entry.path()) == "Authorization: Bearer " + served.token() + "\n");
  }
  CHECK(headers == 1);
  const std::string curl_line = read_proc_file("/proc/" + std::to_string(streaming) + "/cmdline");
  INFO(curl_line);
  CHECK(curl_line.find("-H") != std::string::npos);
  CHECK(curl_line.find(served.token()) == std::string::npos);
  CHECK(command_lines_as_this_user().find(served.token()) == std::string::npos);
  if (root()) {
    const std::string lines = command_lines_as_nobody();
    CHECK(lines.find(served.token()) == std::string::npos);
    CHECK(!line_holding(lines, ":" + port + "/events").empty());
  }
  ::kill(streaming, SIGTERM);
  CHECK(shell.stop(0, milliseconds(10000)) != -1);
  const std::string out = slurp(scratch.path() + "/out");
  INFO(out << slurp(scratch.path() + "/err"));
  // The devices the server answered with, then the event stream: the recipe's token worked.
  const json devices = json::parse(out.substr(0, out.find('\n')), nullptr, false);
  CHECK(devices.value("ok", false));
  CHECK(devices["devices"][0]["serial"] == farm.serials().front());
  CHECK(out.find("event: heartbeat") != std::string::npos);
  // The header file is gone with the recipe's last line.
  for (const auto& entry : std::filesystem::directory_iterator(scratch.path())) {
    CHECK(entry.path().filename().string().rfind("tmp.", 0) != 0);
  }
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: --token-file refuses what is not a private regular file, at once",
          "[serve][security][token]") {
  Scratch scratch;
  const std::string state = scratch.path() + "/state";
  const std::string good = scratch.file("good", "s3cret\n", 0600);
  struct Case {
    std::string path;
    std::vector<std::string> extra;
    std::string flag;
    std::string problem;  // details.problem, or "" when the refusal is a flag conflict
  };
  const std::string fifo = scratch.path() + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string directory = scratch.path() + "/directory";
  std::filesystem::create_directory(directory);
  ::chmod(directory.c_str(), 0700);
  std::vector<Case> cases = {
      {fifo, {}, "--token-file", "a FIFO"},
      {directory, {}, "--token-file", "a directory"},
      {"/dev/null", {}, "--token-file", "a device"},
      {scratch.path() + "/missing", {}, "--token-file", "no such file"},
      {scratch.file("empty", "", 0600), {}, "--token-file", "empty"},
      {scratch.file("newline", "\n", 0600), {}, "--token-file", "empty"},
      {scratch.file("group", "s3cret\n", 0640),
       {},
       "--token-file",
       "mode 0640: group or others may read it; chmod 600 it"},
      {scratch.file("others", "s3cret\n", 0604),
       {},
       "--token-file",
       "mode 0604: group or others may read it; chmod 600 it"},
      {scratch.file("two-lines", "s3cret\nmore\n", 0600),
       {},
       "--token-file",
       "more than one line, or a control character"},
      {scratch.file("large", std::string(4097, 'x'), 0600),
       {},
       "--token-file",
       "larger than 4096 bytes"},
      {good, {"--token", "other"}, "--token-file", ""},
      {good, {"--no-token"}, "--no-token", ""},
  };
  if (root()) {
    const std::string foreign = scratch.file("foreign", "s3cret\n", 0600);
    REQUIRE(::chown(foreign.c_str(), 65534, 65534) == 0);
    cases.push_back({foreign, {}, "--token-file", "owner uid 65534, not this user (uid 0)"});
  }
  for (const Case& each : cases) {
    std::vector<std::string> args = {"--token-file", each.path};
    args.insert(args.end(), each.extra.begin(), each.extra.end());
    const auto started = Clock::now();
    const RunResult refused = serve_refused(args, state);
    INFO(each.path << " " << refused.out << refused.err);
    CHECK(Clock::now() - started < std::chrono::seconds(5));
    CHECK(refused.exit_code == 2);
    const json document = json::parse(refused.out, nullptr, false);
    CHECK(document["code"] == "USAGE");
    CHECK(document["details"]["flag"] == each.flag);
    if (!each.problem.empty()) {
      CHECK(document["details"]["problem"] == each.problem);
      CHECK(document["details"]["path"] == each.path);
      CHECK(document["message"] == "--token-file " + each.path + ": " + each.problem);
    }
    CHECK(refused.err.find("listening on") == std::string::npos);
  }
  // --token against --no-token, and an empty --token.
  const RunResult both = serve_refused({"--token", "x", "--no-token"}, state);
  CHECK(both.exit_code == 2);
  CHECK(json::parse(both.out)["details"]["flag"] == "--no-token");
  const RunResult empty = serve_refused({"--token", ""}, state);
  CHECK(empty.exit_code == 2);
  CHECK(json::parse(empty.out)["details"]["flag"] == "--token");
}

TEST_CASE("serve: a second server on a port in use leaves the first one's token file",
          "[serve][security][token]") {
  Farm farm({"default"});
  Served first(farm);
  const std::string port = std::to_string(first.port());
  const std::string token_file = first.state_dir() + "/serve-" + port + ".token";
  const std::string bytes = slurp(token_file);
  REQUIRE(bytes == first.token() + "\n");
  struct stat before {};
  REQUIRE(::stat(token_file.c_str(), &before) == 0);
  Scratch scratch;
  const std::string given = scratch.file("token", "second-server-token\n", 0600);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--token-file", given}}) {
    std::vector<std::string> args = {"serve", "--port", port};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult second = farm.clawperator(args);
    INFO(second.out << second.err);
    CHECK(second.exit_code == 1);
    CHECK(second.out.empty());
    CHECK(second.err.rfind("Failed to start server: cannot listen on 127.0.0.1:" + port + ": ",
                           0) == 0);
    CHECK(second.err.find("listening on http") == std::string::npos);
    CHECK(slurp(token_file) == bytes);
    struct stat after {};
    REQUIRE(::stat(token_file.c_str(), &after) == 0);
    CHECK(after.st_ino == before.st_ino);
    CHECK(after.st_mtim.tv_sec == before.st_mtim.tv_sec);
    CHECK(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
    CHECK(first.get("/devices").status == 200);
  }
  CHECK(first.stop() == 0);
  CHECK(!std::filesystem::exists(token_file));
}

TEST_CASE("serve: at exit a token file that holds another token is left alone",
          "[serve][security][token]") {
  Farm farm({"default"});
  Served served(farm);
  const std::string token_file =
      served.state_dir() + "/serve-" + std::to_string(served.port()) + ".token";
  REQUIRE(slurp(token_file) == served.token() + "\n");
  // Another writer's token (the server's file replaced behind its back, as by rename).
  const std::string other = token_file + ".other";
  std::ofstream(other, std::ios::binary) << "someone-else\n";
  ::chmod(other.c_str(), 0600);
  std::filesystem::rename(other, token_file);
  CHECK(served.stop() == 0);
  CHECK(slurp(token_file) == "someone-else\n");
}

TEST_CASE("serve token: the argv without the token, the pipe that carries it", "[serve][token]") {
  using cli::without_token_arguments;
  using Args = std::vector<std::string>;
  CHECK(without_token_arguments(
            {"clawperator", "--device", "x", "serve", "--token", "T", "--port", "1"}) ==
        Args{"clawperator", "--device", "x", "serve", "--port", "1"});
  CHECK(without_token_arguments({"clawperator", "serve", "--token=T", "--token-file", "F",
                                 "--token-file=G", "--no-token"}) ==
        Args{"clawperator", "serve", "--no-token"});
  // Only those flags: a value that merely starts alike, or the program's own name, stays.
  CHECK(without_token_arguments({"--token", "serve", "--tokens", "x"}) ==
        Args{"--token", "serve", "--tokens", "x"});

  auto pipe = cli::token_pipe("s3cret");
  REQUIRE(pipe);
  CHECK((::fcntl(*pipe, F_GETFD) & FD_CLOEXEC) == 0);
  const auto read = cli::read_token_pipe(*pipe);
  REQUIRE(read);
  CHECK(*read == "s3cret");
  CHECK(::fcntl(*pipe, F_GETFD) == -1);  // closed

  // A pipe whose writer is still open is no token: never a wait.
  int ends[2];
  REQUIRE(::pipe(ends) == 0);
  REQUIRE(::write(ends[1], "abc", 3) == 3);
  const auto open_writer = cli::read_token_pipe(ends[0]);
  CHECK(!open_writer);
  ::close(ends[1]);
  const int file = ::open("/dev/null", O_RDONLY);
  const auto not_pipe = cli::read_token_pipe(file);
  REQUIRE(!not_pipe);
  CHECK(not_pipe.error() == Problem{"", "a device, not a pipe"});
  CHECK(cli::check_serve_token(std::string(4097, 'x')).error() ==
        Problem{"", "larger than 4096 bytes"});
  CHECK(cli::check_serve_token("a\tb").error() ==
        Problem{"", "more than one line, or a control character"});
  CHECK(cli::check_serve_token(std::string(4096, 'x')));
}

}  // namespace clawperator::testing
