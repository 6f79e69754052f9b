// `clawperator serve` (or curl -N on /events) as a background process of a test, and curl
// calls against it: the real HTTP client, the real server, the real adb.
#pragma once

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "run_binary.hpp"

extern char** environ;

namespace clawperator::testing {

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A port nobody listens on right now.
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

class Background {
 public:
  // `stdin_fd`: the child's standard input (the read end of a test's pipe); -1: ours.
  Background(const std::string& path, const std::vector<std::string>& args,
             const std::map<std::string, std::string>& env, const std::string& out_path,
             const std::string& err_path, int stdin_fd = -1) {
    std::vector<std::string> env_storage;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string item = *entry;
      if (env.count(item.substr(0, item.find('='))) == 0) env_storage.push_back(item);
    }
    for (const auto& [key, value] : env) env_storage.push_back(key + "=" + value);
    std::vector<std::string> argv_storage = {path};
    argv_storage.insert(argv_storage.end(), args.begin(), args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      // No controlling terminal, as run_binary's: a server started from a person's terminal
      // would write its approver link there (docs/serve.md). A test that wants one runs the
      // server under tty_session.
      ::setsid();
      std::vector<char*> envp;
      for (std::string& item : env_storage) envp.push_back(item.data());
      envp.push_back(nullptr);
      std::vector<char*> argv;
      for (std::string& item : argv_storage) argv.push_back(item.data());
      argv.push_back(nullptr);
      std::FILE* out = std::fopen(out_path.c_str(), "w");
      std::FILE* err = std::fopen(err_path.c_str(), "w");
      if (out == nullptr || err == nullptr) _exit(125);
      ::dup2(fileno(out), 1);
      ::dup2(fileno(err), 2);
      if (stdin_fd >= 0) ::dup2(stdin_fd, 0);
      ::execve(path.c_str(), argv.data(), envp.data());
      _exit(127);
    }
  }
  ~Background() {
    if (pid_ > 0 && !waited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Background(const Background&) = delete;
  Background& operator=(const Background&) = delete;

  // The exit code after `signal` (0: none), waiting up to `limit`; -1 if it did not exit.
  int stop(int signal, std::chrono::milliseconds limit) {
    if (signal != 0) ::kill(pid_, signal);
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        waited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  bool waited_ = false;
};

struct HttpReply {
  int status = 0;
  nlohmann::json body;
  std::string text;
  std::string headers;
};

// One curl call: `-X METHOD`, a JSON body from a file when given, extra -H headers.
inline HttpReply curl(const std::string& url, const std::string& method = "GET",
                      const std::string& body_file = "",
                      const std::vector<std::string>& headers = {}, int max_seconds = 60) {
  static std::atomic<int> calls{0};
  const std::string head_file =
      (body_file.empty()
           ? "/tmp/clawperator-curl-" + std::to_string(::getpid()) + "-" + std::to_string(++calls)
           : body_file) +
      ".head";
  std::vector<std::string> args = {
      "-sS", "-X", method, "-w", "\n%{http_code}", "--max-time", std::to_string(max_seconds), url};
  if (!body_file.empty()) {
    args.insert(args.end(),
                {"-H", "Content-Type: application/json", "--data-binary", "@" + body_file});
  }
  args.insert(args.end(), {"-D", head_file});
  for (const std::string& header : headers) args.insert(args.end(), {"-H", header});
  const RunResult run = run_binary("/usr/bin/curl", args);
  HttpReply reply;
  const auto newline = run.out.rfind('\n');
  if (newline == std::string::npos) return reply;
  reply.text = run.out.substr(0, newline);
  reply.status = std::atoi(run.out.c_str() + newline + 1);
  reply.body = nlohmann::json::parse(reply.text, nullptr, false);
  reply.headers = slurp(head_file);
  if (body_file.empty()) std::remove(head_file.c_str());
  return reply;
}

}  // namespace clawperator::testing
