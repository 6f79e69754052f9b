// The device's WebViews' DevTools sockets, answered by a real headless Chromium: each debuggable
// WebView app of the scenario (Scenario::webviews) listens on its abstract socket, and every
// connection to it (`adb forward tcp:N localabstract:webview_devtools_remote_<pid>`) is bridged
// to Chromium's DevTools port. Chromium starts on the first connection only, with one tab per
// app's page (again on a later connection when that start failed or Chromium exited); /json/list
// and /json/version are answered as the app's WebView answers them (webview_devtools.hpp),
// everything else (WebSocket upgrades included) is piped raw.
//
// Everything runs on the transport's loop thread (vdevice/device.hpp) except Chromium's start:
// a helper thread waits for its port and opens the tabs, so that the loop never waits on it.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/android/system/abstract_sockets.hpp"

namespace clawperator::vdevice::android {

// The Chromium executable: CLAWPERATOR_VDEVICE_CHROMIUM (which clawperator-vdevice's
// --chromium sets), else `chromium` on PATH.
std::string chromium_executable();

class ChromiumBrowser;
class DevToolsBridge;

class WebViewDevTools {
 public:
  explicit WebViewDevTools(const Scenario& scenario);
  // Closes every bridge, stops Chromium (SIGTERM, then SIGKILL to its group) and removes its
  // profile directory.
  ~WebViewDevTools();
  WebViewDevTools(const WebViewDevTools&) = delete;
  WebViewDevTools& operator=(const WebViewDevTools&) = delete;

  // Each debuggable app starts listening on its socket.
  void listen(AbstractSockets& sockets);

  // Moves bytes between the bridges and Chromium, and follows Chromium's start.
  void tick();
  // Soon after `now` (the device's clock) while something waits for Chromium or for room in
  // its socket; nullopt otherwise.
  std::optional<std::chrono::steady_clock::time_point> next_deadline(
      std::chrono::steady_clock::time_point now) const;
  // The sockets to Chromium, whose readability should wake the loop.
  void add_watched_fds(std::vector<int>& fds) const;

  // Chromium's pid once started (tests check it is gone after the device); 0 before.
  int browser_pid() const;

 private:
  std::unique_ptr<ServiceSession> accept(std::size_t app, ServiceOutput& out);
  // Polls Chromium and counts a failed start once (the restart's back-off).
  void follow_browser();

  std::vector<WebViewSpec> apps_;
  Bounds display_;
  int density_ = 420;
  // Created on the first connection; replaced on a later one when its start failed (or it
  // exited), once the back-off of consecutive failures allows.
  std::unique_ptr<ChromiumBrowser> browser_;
  int consecutive_failures_ = 0;
  bool failure_noted_ = false;  // browser_'s failure is counted in consecutive_failures_
  std::chrono::steady_clock::time_point restart_after_;
  std::vector<std::shared_ptr<DevToolsBridge>> bridges_;
};

}  // namespace clawperator::vdevice::android
