// A real headless Chromium for the DevTools tests (tests/unit/service/webview_test.cpp): started
// with --remote-debugging-port=0 on a private profile, its port read from the profile's
// DevToolsActivePort, stopped (its whole process group) and its profile removed at the end.
// Absent Chromium, `available()` is false and the case skips (tests/support/skip.hpp).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "test_files.hpp"

extern char** environ;

namespace clawperator::testing {

inline constexpr const char* kChromiumPath = "/usr/bin/chromium";

class HeadlessChromium {
 public:
  // Opens `url` (headless Chromium takes one target on its command line).
  explicit HeadlessChromium(const std::string& url) : profile_("chromium") {
    if (::access(kChromiumPath, X_OK) != 0) return;
    const std::string user_data = "--user-data-dir=" + (profile_.path() / "profile").string();
    std::vector<std::string> argv = {kChromiumPath,
                                     "--headless=new",
                                     "--no-sandbox",
                                     "--remote-debugging-port=0",
                                     user_data,
                                     "--disable-gpu",
                                     "--no-first-run",
                                     "--disable-extensions",
                                     "--window-size=800,600",
                                     url};
    std::vector<char*> pointers;
    for (std::string& word : argv) pointers.push_back(word.data());
    pointers.push_back(nullptr);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // Its own process group, so that its helpers (renderer, GPU, zygote) stop with it.
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
    const int spawned =
        posix_spawn(&pid_, kChromiumPath, &files, &attributes, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) {
      pid_ = 0;
      return;
    }
    const auto file = profile_.path() / "profile" / "DevToolsActivePort";
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < until) {
      const std::string text = read_whole_file(file);
      const std::size_t newline = text.find('\n');
      if (newline != std::string::npos && newline + 1 < text.size()) {
        port_ = std::stoi(text.substr(0, newline));
        browser_path_ = text.substr(newline + 1);
        while (!browser_path_.empty() && browser_path_.back() == '\n') browser_path_.pop_back();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~HeadlessChromium() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  HeadlessChromium(const HeadlessChromium&) = delete;
  HeadlessChromium& operator=(const HeadlessChromium&) = delete;

  bool available() const { return port_.has_value(); }
  int port() const { return *port_; }
  // The browser's own WebSocket path (/devtools/browser/ID): Target.createTarget and
  // Target.closeTarget.
  const std::string& browser_path() const { return browser_path_; }
  const std::filesystem::path& directory() const { return profile_.path(); }

 private:
  TemporaryDirectory profile_;
  pid_t pid_ = 0;
  std::optional<int> port_;
  std::string browser_path_;
};

}  // namespace clawperator::testing
