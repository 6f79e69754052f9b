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

// Chromium with `argv` in a process group of its own (its helpers — renderer, GPU, zygote —
// stop with it), its output dropped; posix_spawn's result, `pid` set on success.
inline int spawn_chromium(std::vector<std::string> argv, pid_t& pid) {
  std::vector<char*> pointers;
  for (std::string& word : argv) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&files, 2, "/dev/null", O_WRONLY, 0);
  const int spawned =
      posix_spawn(&pid, kChromiumPath, &files, &attributes, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attributes);
  return spawned;
}

// `html` as Chromium draws it in a width x height window (device scale 1), as PNG bytes: real
// fonts for the OCR tests (tests/unit/ocr). nullopt without Chromium, or when it wrote nothing
// within 60 s.
inline std::optional<std::string> screenshot_of_html(const std::string& html, int width,
                                                     int height) {
  if (::access(kChromiumPath, X_OK) != 0) return std::nullopt;
  const TemporaryDirectory directory("chromium-shot");
  write_file(directory.path() / "page.html", html);
  const std::string png = (directory.path() / "shot.png").string();
  pid_t pid = 0;
  if (spawn_chromium({kChromiumPath, "--headless=new", "--no-sandbox", "--disable-gpu",
                      "--hide-scrollbars", "--force-device-scale-factor=1",
                      "--user-data-dir=" + (directory.path() / "profile").string(),
                      "--window-size=" + std::to_string(width) + "," + std::to_string(height),
                      "--screenshot=" + png, "file://" + (directory.path() / "page.html").string()},
                     pid) != 0) {
    return std::nullopt;
  }
  int status = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > until) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(-pid, SIGKILL);  // helpers still winding down
  std::string bytes = read_whole_file(png);
  if (bytes.empty()) return std::nullopt;
  return bytes;
}

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
    const int spawned = spawn_chromium(argv, pid_);
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
