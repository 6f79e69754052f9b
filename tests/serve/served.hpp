// `clawperator serve` started on a farm's devices for one test, and what the tests send it.
#pragma once

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "farm_fixture.hpp"
#include "serve_process.hpp"

namespace clawperator::testing {

using nlohmann::json;
using std::chrono::milliseconds;

inline json snapshot_payload(const std::string& id, int timeout_ms = 30000) {
  return {
      {"commandId", id},         {"taskId", id},
      {"source", "serve-test"},  {"expectedFormat", "android-ui-automator"},
      {"timeoutMs", timeout_ms}, {"actions", json::array({{{"id", "s"}, {"type", "snapshot"}}})}};
}

// The first place of this host named in `text` (the temporary directory, the home, this
// build's binaries, adb where it really lives), at the start of a token as a path would be:
// "/data/local/tmp" on the phone is not "/tmp" here.
inline std::optional<std::string> host_path_in(const std::string& text) {
  std::vector<std::string> roots = {"/tmp", std::filesystem::path(kBinary).parent_path().string()};
  if (const char* home = std::getenv("HOME"); home != nullptr && std::string(home).size() > 1) {
    roots.emplace_back(home);
  }
  std::error_code missing;
  const auto adb = std::filesystem::canonical("/usr/bin/adb", missing);
  if (!missing) roots.push_back(adb.string());
  for (const std::string& root : roots) {
    for (auto at = text.find(root); at != std::string::npos; at = text.find(root, at + 1)) {
      const char before = at == 0 ? ' ' : text[at - 1];
      const std::size_t end = at + root.size();
      const char after = end < text.size() ? text[end] : '"';
      if (std::string_view(" \"'(=:,[<>\t\n").find(before) != std::string_view::npos &&
          std::string_view("/\"' ,:)]>\t\n").find(after) != std::string_view::npos) {
        return text.substr(at, std::min<std::size_t>(120, text.size() - at));
      }
    }
  }
  return std::nullopt;
}

// How the server is started: as every test's (a session of its own, no controlling terminal),
// or at a person's terminal (tty_session: a pseudo-terminal as its controlling terminal, in its
// foreground; what the server wrote there in terminal_text()).
enum class ServeTerminal { None, Foreground };

class Served {
 public:
  explicit Served(const Farm& farm, const std::vector<std::string>& extra = {},
                  const std::map<std::string, std::string>& env = {},
                  ServeTerminal terminal = ServeTerminal::None)
      : port_(free_port()) {
    std::vector<std::string> args = {"serve", "--port", std::to_string(port_)};
    args.insert(args.end(), extra.begin(), extra.end());
    std::map<std::string, std::string> environment = farm.environment().extra_env;
    for (const auto& [key, value] : env) environment[key] = value;
    std::string program = kBinary;
    if (terminal == ServeTerminal::Foreground) {
      args.insert(args.begin(), {"--transcript", dir_ + "/terminal", "--", kBinary});
      program = TTY_SESSION;
    }
    process_ =
        std::make_unique<Background>(program, args, environment, dir_ + "/out", dir_ + "/err");
    for (int attempt = 0; attempt < 500 && stderr_text().find("listening on") == std::string::npos;
         ++attempt) {
      std::this_thread::sleep_for(milliseconds(20));
    }
    const std::string started = stderr_text();
    INFO(started);
    REQUIRE(started.find(":" + std::to_string(port_)) != std::string::npos);
    // The token the server made (printed in the inspector's URL), else the one it was given.
    if (const auto at = started.find("#token="); at != std::string::npos) {
      token_ = started.substr(at + 7, started.find('\n', at) - at - 7);
    } else if (const auto given = environment.find("CLAWPERATOR_SERVE_TOKEN");
               given != environment.end()) {
      token_ = given->second;
    }
    state_dir_ = environment.at("CLAWPERATOR_STATE_DIR");
  }
  Served(const Served&) = delete;
  Served& operator=(const Served&) = delete;

  const std::string& token() const { return token_; }
  const std::string& state_dir() const { return state_dir_; }
  // The header every request of a test carries, unless it tests going without.
  std::vector<std::string> authorized(std::vector<std::string> headers = {}) const {
    if (!token_.empty()) headers.push_back("Authorization: Bearer " + token_);
    return headers;
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  int port() const { return port_; }
  std::string stderr_text() const { return slurp(dir_ + "/err"); }
  std::string stdout_text() const { return slurp(dir_ + "/out"); }
  // What the server wrote on its controlling terminal (ServeTerminal::Foreground).
  std::string terminal_text() const { return slurp(dir_ + "/terminal"); }
  // A request body in a file, for curl --data-binary.
  std::string body(const std::string& text) {
    const std::string path = dir_ + "/body-" + std::to_string(++bodies_);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // Every reply of a test is also scanned: no body names a place of this host (docs/serve.md
  // §4, contract::HostRedaction).
  HttpReply get(const std::string& path, const std::vector<std::string>& headers = {}) const {
    return scanned(curl(url(path), "GET", "", authorized(headers)));
  }
  HttpReply post(const std::string& path, const std::string& text,
                 const std::vector<std::string>& headers = {}, int max_seconds = 60) {
    return scanned(curl(url(path), "POST", body(text), authorized(headers), max_seconds));
  }
  HttpReply del(const std::string& path) const {
    return scanned(curl(url(path), "DELETE", "", authorized({})));
  }
  // Without the token.
  HttpReply anonymous_get(const std::string& path,
                          const std::vector<std::string>& headers = {}) const {
    return curl(url(path), "GET", "", headers);
  }
  HttpReply anonymous_post(const std::string& path, const std::string& text) {
    return curl(url(path), "POST", body(text));
  }
  int stop(int signal = SIGTERM) { return process_->stop(signal, milliseconds(8000)); }
  pid_t pid() const { return process_->pid(); }
  const std::string& dir() const { return dir_; }

 private:
  static HttpReply scanned(HttpReply reply) {
    if (const std::optional<std::string> found = host_path_in(reply.text)) {
      FAIL_CHECK("a host path (" << *found << ") in " << reply.text.substr(0, 2000));
    }
    return reply;
  }

  int port_;
  TemporaryDirectory directory_{"serve-test"};
  std::string dir_ = directory_.path().string();
  std::string token_;
  std::string state_dir_;
  std::unique_ptr<Background> process_;
  std::atomic<int> bodies_{0};
};

inline json without_timing(json document) {
  document.erase("timing");
  if (document.contains("envelope")) {
    document["envelope"].erase("commandId");
    document["envelope"].erase("taskId");
  }
  return document;
}

}  // namespace clawperator::testing
