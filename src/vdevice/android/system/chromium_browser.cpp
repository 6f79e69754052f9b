#include "vdevice/android/system/chromium_browser.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "clawperator/process/runner.hpp"
#include "vdevice/android/system/webview_devtools.hpp"

namespace clawperator::vdevice::android {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Chromium writes DevToolsActivePort within a second or two; a cold start on a loaded CI
// machine can take several.
constexpr auto kStartDeadline = 30s;
constexpr auto kPortPollInterval = 25ms;
constexpr auto kTabDeadline = 10s;
constexpr auto kLoadDeadline = 10s;
// SIGTERM lets Chromium flush its profile; what is still running after this gets SIGKILL.
constexpr auto kTerminateGrace = 2s;
// While something waits (Chromium's start, a full socket), the loop looks again this soon.
constexpr auto kRetryInterval = 10ms;
// After a failed start the next connection starts Chromium again (a slow machine, a crash), at
// once the first time; after further failures in a row no sooner than this, doubling up to the
// cap, so that a client reconnecting in a loop to a device whose Chromium cannot start
// (missing, broken) does not start one per connection.
constexpr auto kFirstRestartBackOff = 1s;
constexpr auto kMaxRestartBackOff = 30s;
// A request head longer than this is no DevTools listing request: it is piped as it is.
constexpr std::size_t kMaxRequestHead = 64 * 1024;
constexpr std::size_t kMaxListingResponse = 8u << 20;
// Far above any CDP request (the host's own messages stay under 32 MiB: webview/cdp_client.cpp).
constexpr std::size_t kMaxPendingToBrowser = 64u << 20;
// Chromium's bytes the host has not taken yet (adb's flow control holds them on the device):
// above this the bridge stops reading Chromium's socket, which then holds the rest itself (its
// DevTools server buffers up to 256 MiB per connection). A few WRTE messages' worth keeps the
// stream busy.
constexpr std::size_t kMaxPendingToHost = 4u << 20;
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kStderrTail = 2048;

void log_line(const std::string& line) {
  std::cerr << "clawperator-vdevice: " << line << std::endl;
}

// A blocking TCP connection to Chromium on 127.0.0.1:port whose connect, sends and receives
// each give up after `timeout`; -1 on failure.
int connect_to_chromium(std::uint16_t port, std::chrono::milliseconds timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval limit{};
  limit.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  limit.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
  (void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  (void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  const int one = 1;
  // CDP messages are small requests and replies: Nagle's delay would only add latency.
  (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// One request with `Connection: close`, answered within `timeout`: the 200 response's body.
std::optional<std::string> blocking_http(std::uint16_t port, const std::string& request,
                                         std::chrono::milliseconds timeout) {
  const int fd = connect_to_chromium(port, timeout);
  if (fd < 0) return std::nullopt;
  const auto deadline = Clock::now() + timeout;
  bool sent = ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
              static_cast<ssize_t>(request.size());
  std::string response;
  char buffer[16384];
  while (sent && Clock::now() < deadline && response.size() < kMaxListingResponse) {
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    response.append(buffer, static_cast<std::size_t>(got));
    // Chromium keeps the connection open despite `Connection: close`: the length ends it.
    if (http_ok_body(response)) break;
  }
  ::close(fd);
  return http_ok_body(response);
}

std::string request_to_chromium(const std::string& method, const std::string& target,
                                const std::string& host) {
  return method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
}

}  // namespace

std::string chromium_executable() {
  const char* configured = std::getenv("CLAWPERATOR_VDEVICE_CHROMIUM");
  return configured != nullptr && *configured != '\0' ? configured : "chromium";
}

// One headless Chromium and its private profile directory. Created and polled on the loop
// thread; its start (waiting for the port, opening the tabs) runs on a thread of its own.
class ChromiumBrowser {
 public:
  enum class State { Starting, Ready, Failed };

  // One tab per debuggable app, in `apps`' order.
  ChromiumBrowser(const std::vector<WebViewSpec>& apps, const Bounds& window, int density) {
    const std::string executable = chromium_executable();
    if (!make_profile_directory()) {
      fail("cannot create a directory for Chromium");
      return;
    }
    if (!list_pages(apps)) {
      fail("cannot write the WebViews' pages to " + profile_.string());
      return;
    }
    // CSS pixels: Chromium scales them by the device's density (Android's dp, 160 per inch).
    const double scale = density / 160.0;
    const auto css = [scale](int pixels) { return std::to_string(std::lround(pixels / scale)); };
    process::StreamSpec spec;
    spec.argv = {executable, "--headless=new",
                 // The sandbox cannot start as root (CI containers run as root).
                 "--no-sandbox", "--remote-debugging-port=0",
                 "--user-data-dir=" + profile_.string(), "--no-first-run",
                 "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-crash-reporter", "--disable-breakpad",
                 // A host's DevTools client may send an Origin header; a phone accepts it.
                 "--remote-allow-origins=*",
                 "--window-size=" + css(window.width()) + "," + css(window.height()),
                 "--force-device-scale-factor=" + std::to_string(scale), "about:blank"};
    spec.terminate_grace = std::chrono::duration_cast<std::chrono::milliseconds>(kTerminateGrace);
    // A SIGKILLed device runs no destructor: the kernel ends Chromium instead (its own helper
    // processes exit when the browser process is gone). This runs on the device's loop thread,
    // which serves the device to its end.
    spec.dies_with_parent = true;
    auto started = process::make_system_runner()->start(spec);
    if (!started) {
      fail("cannot start Chromium (" + executable + "): " + started.error().message() +
           "; install it (scripts/install-deps.sh --browser) or name it with --chromium PATH " +
           "or CLAWPERATOR_VDEVICE_CHROMIUM");
      return;
    }
    process_ = std::move(started).value();
    log_line("started Chromium (pid " + std::to_string(process_->pid()) + ", profile " +
             profile_.string() + ") for the WebViews' DevTools sockets");
    startup_ = std::thread([this] { start_tabs(); });
  }

  ~ChromiumBrowser() {
    abandon_.store(true);
    // Chromium first: a start still waiting on it then fails at once instead of at its deadline.
    if (process_) process_->terminate();
    if (startup_.joinable()) startup_.join();
    process_.reset();
    if (!profile_.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(profile_, ignored);
    }
  }

  ChromiumBrowser(const ChromiumBrowser&) = delete;
  ChromiumBrowser& operator=(const ChromiumBrowser&) = delete;

  // Loop thread: reads what Chromium printed (its pipes must never fill up) and follows its
  // start and its life.
  void poll() {
    if (state_ == State::Failed || !process_) return;
    const process::StreamEvent event = process_->wait(std::chrono::milliseconds::zero());
    stderr_tail_ += event.err;
    if (stderr_tail_.size() > kStderrTail) stderr_tail_.erase(0, stderr_tail_.size() - kStderrTail);
    if (event.exited) {
      return fail("Chromium exited (status " + std::to_string(event.exit_code) + ", signal " +
                  std::to_string(event.signal) + "); it said: " + stderr_tail_);
    }
    if (state_ == State::Starting && started_.load()) {
      startup_.join();
      if (!start_error_.empty()) return fail(start_error_);
      state_ = State::Ready;
    }
  }

  State state() const noexcept { return state_; }
  std::uint16_t port() const noexcept { return port_; }
  // The tab of app `app`; valid when Ready.
  const std::string& target_id(std::size_t app) const { return target_ids_.at(app); }
  int pid() const { return process_ ? process_->pid() : 0; }

 private:
  bool make_profile_directory() {
    std::error_code error;
    const std::filesystem::path temp = std::filesystem::temp_directory_path(error);
    if (error) return false;
    std::string pattern = (temp / "clawperator-vdevice-chromium-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return false;
    profile_ = pattern;
    return true;
  }

  // An inline page becomes a file of the profile's: a data: URL would be the page's whole
  // text in every listing.
  bool list_pages(const std::vector<WebViewSpec>& apps) {
    const std::filesystem::path directory = profile_ / "pages";
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) return false;
    for (const WebViewSpec& app : apps) {
      pages_.push_back(app.debuggable ? app.url : std::string());
      if (!app.debuggable || !app.url.empty()) continue;
      const std::filesystem::path file = directory / (app.package + ".html");
      std::ofstream out(file, std::ios::binary);
      out << app.html;
      if (!out.flush()) return false;
      pages_.back() = "file://" + file.string();
      std::string lowered = app.html;
      std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (lowered.find("<title") != std::string::npos) titled_pages_.insert(pages_.back());
    }
    return true;
  }

  void fail(const std::string& why) {
    if (state_ == State::Failed) return;
    state_ = State::Failed;
    log_line(why);
    // A Chromium still running (no port in time) is stopped now, so that replacing this browser
    // later waits for no more than what is left of its grace.
    if (process_) process_->begin_terminate();
  }

  // Startup thread: only port_, target_ids_ and start_error_ are written here, and read on the
  // loop thread once started_ says so.
  void start_tabs() {
    const auto deadline = Clock::now() + kStartDeadline;
    const std::filesystem::path port_file = profile_ / "DevToolsActivePort";
    while (port_ == 0 && !abandon_.load()) {
      std::ifstream file(port_file);
      int port = 0;
      // Chromium writes the file whole (the port, a newline, the browser's path) by a rename.
      if (file >> port && port > 0 && port < 65536) {
        port_ = static_cast<std::uint16_t>(port);
        break;
      }
      if (Clock::now() > deadline) {
        start_error_ = "Chromium wrote no " + port_file.string() + " within " +
                       std::to_string(kStartDeadline.count()) + " s";
        break;
      }
      std::this_thread::sleep_for(kPortPollInterval);
    }
    for (std::size_t app = 0; app < pages_.size() && port_ != 0 && start_error_.empty(); ++app) {
      target_ids_.emplace_back();
      if (pages_[app].empty() || abandon_.load()) continue;
      const std::string host = "127.0.0.1:" + std::to_string(port_);
      const auto answer =
          blocking_http(port_, request_to_chromium("PUT", "/json/new?" + pages_[app], host),
                        std::chrono::duration_cast<std::chrono::milliseconds>(kTabDeadline));
      const auto tab = nlohmann::json::parse(answer.value_or(""), nullptr, false);
      if (!tab.is_object() || !tab.contains("id") || !tab["id"].is_string()) {
        start_error_ = "Chromium opened no tab for " + pages_[app];
        break;
      }
      target_ids_.back() = tab["id"].get<std::string>();
    }
    if (start_error_.empty()) wait_for_titles();
    started_.store(true);
  }

  // Chromium titles a tab with its URL (or the file's name) until the page's <title> is
  // parsed: a page of the scenario's that has one is loaded once the title is another.
  bool has_own_title(const nlohmann::json& target) const {
    const std::string title = target.value("title", "");
    const std::string url = target.value("url", "");
    if (title.empty()) return false;
    if (!titled_pages_.contains(url)) return true;
    return title != url && !url.ends_with("/" + title);
  }

  // A phone's WebView has shown its page long before a host looks at it, while a new tab is
  // listed at once, untitled: the start waits (bounded) until every tab has its title.
  void wait_for_titles() {
    const auto deadline = Clock::now() + kLoadDeadline;
    const std::string request =
        request_to_chromium("GET", "/json/list", "127.0.0.1:" + std::to_string(port_));
    while (!abandon_.load() && Clock::now() < deadline) {
      const auto answer = blocking_http(
          port_, request, std::chrono::duration_cast<std::chrono::milliseconds>(kTabDeadline));
      const auto targets = nlohmann::json::parse(answer.value_or(""), nullptr, false);
      std::set<std::string> titled;
      for (const auto& target : targets.is_array() ? targets : nlohmann::json::array()) {
        if (target.is_object() && has_own_title(target)) titled.insert(target.value("id", ""));
      }
      if (std::all_of(target_ids_.begin(), target_ids_.end(),
                      [&](const std::string& id) { return id.empty() || titled.contains(id); })) {
        return;
      }
      std::this_thread::sleep_for(kPortPollInterval);
    }
  }

  std::vector<std::string> pages_;
  std::set<std::string> titled_pages_;  // the URLs of inline pages with a <title>
  std::filesystem::path profile_;
  std::unique_ptr<process::Stream> process_;
  State state_ = State::Starting;
  std::string stderr_tail_;
  std::thread startup_;
  std::atomic<bool> abandon_{false};
  std::atomic<bool> started_{false};
  std::uint16_t port_ = 0;
  std::vector<std::string> target_ids_;
  std::string start_error_;
};

// One connection to an app's DevTools socket, bridged to Chromium. The session the transport
// holds (DevToolsSession) forwards to it; WebViewDevTools pumps it on every tick.
class DevToolsBridge {
 public:
  DevToolsBridge(const WebViewSpec& app, std::size_t index, std::string description,
                 ServiceOutput& out)
      : package_(app.package), index_(index), description_(std::move(description)), out_(&out) {}
  ~DevToolsBridge() { close_socket(); }
  DevToolsBridge(const DevToolsBridge&) = delete;
  DevToolsBridge& operator=(const DevToolsBridge&) = delete;

  void on_input(std::string_view bytes) {
    if (ended()) return;
    // A listing's answer is the device's own: what the client sends after its request is
    // not Chromium's to see.
    if (mode_ == Mode::Listing) return;
    // Chromium stopped reading (or never connects): the client's bytes would pile up here
    // without end, so the connection ends instead.
    if (to_browser_.size() + bytes.size() > kMaxPendingToBrowser) {
      log_line("DevTools client of " + package_ + " sent more than Chromium read; closing");
      return finish();
    }
    to_browser_.append(bytes);
    if (fd_ >= 0) send_pending();
  }

  // The host closed the stream (or its session ended): never write to it again.
  void host_closed() {
    out_ = nullptr;
    close_socket();
  }

  bool ended() const noexcept { return out_ == nullptr; }
  int fd() const noexcept { return fd_; }
  // Chromium's socket is worth reading (and watching) only while the host keeps up.
  bool host_has_room() const noexcept {
    return out_ != nullptr && out_->queued_bytes() < kMaxPendingToHost;
  }
  bool waiting() const noexcept { return !ended() && (fd_ < 0 || !to_browser_.empty()); }

  void pump(ChromiumBrowser& browser) {
    if (ended()) return;
    if (browser.state() == ChromiumBrowser::State::Failed) return finish();
    if (browser.state() != ChromiumBrowser::State::Ready) return;
    if (fd_ < 0 && !open(browser)) return;
    send_pending();
    receive(browser);
  }

  void finish() {
    close_socket();
    if (out_ != nullptr) out_->exit(0);
    out_ = nullptr;
  }

 private:
  enum class Mode { Undecided, Listing, Raw };

  // Connects once the request's head tells what the client wants; false while it does not.
  bool open(ChromiumBrowser& browser) {
    std::size_t head_size = 0;
    const auto request = parse_devtools_request(to_browser_, head_size);
    if (!request && to_browser_.size() < kMaxRequestHead) return false;
    listing_ = request ? listing_of(*request) : DevToolsListing::None;
    mode_ = listing_ == DevToolsListing::None ? Mode::Raw : Mode::Listing;
    // On the loop thread: a loopback connect completes or fails at once; the bound is for a
    // Chromium whose accept backlog is full.
    fd_ = connect_to_chromium(browser.port(), std::chrono::seconds(1));
    if (fd_ < 0) {
      log_line("cannot connect to Chromium's DevTools port " + std::to_string(browser.port()) +
               ": " + std::strerror(errno));
      finish();
      return false;
    }
    timeval none{};
    (void)setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &none, sizeof none);
    (void)setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);
    if (mode_ == Mode::Listing) {
      // Chromium builds webSocketDebuggerUrl from the Host header: the client's, so that the
      // URL points at the port the client forwarded.
      const std::string host =
          request->host.empty() ? "127.0.0.1:" + std::to_string(browser.port()) : request->host;
      to_browser_ = request_to_chromium("GET", request->target, host);
    }
    return true;
  }

  void send_pending() {
    while (fd_ >= 0 && !to_browser_.empty()) {
      const ssize_t sent =
          ::send(fd_, to_browser_.data(), to_browser_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent < 0 && errno == EINTR) continue;
      if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (sent < 0) return finish();
      to_browser_.erase(0, static_cast<std::size_t>(sent));
    }
  }

  void receive(ChromiumBrowser& browser) {
    char buffer[kReadChunk];
    while (fd_ >= 0) {
      // The host lags: the rest waits in Chromium's socket until adb has taken this much.
      if (!host_has_room()) return;
      const ssize_t got = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (got <= 0) break;
      const std::string_view bytes(buffer, static_cast<std::size_t>(got));
      if (mode_ == Mode::Raw) {
        out_->write_stdout(bytes);
        continue;
      }
      from_browser_.append(bytes);
      if (http_ok_body(from_browser_) || from_browser_.size() > kMaxListingResponse) break;
    }
    if (mode_ == Mode::Listing) answer_listing(browser);
    finish();
  }

  void answer_listing(ChromiumBrowser& browser) {
    const auto body = http_ok_body(from_browser_);
    std::optional<std::string> answer;
    if (body && listing_ == DevToolsListing::List) {
      answer = rewrite_target_list(*body, {browser.target_id(index_)}, description_);
    } else if (body && listing_ == DevToolsListing::Version) {
      answer = rewrite_version(*body, package_);
    }
    if (!answer) {
      log_line("Chromium gave no usable DevTools listing for " + package_);
      return;
    }
    out_->write_stdout(json_http_response(*answer));
  }

  void close_socket() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  std::string package_;
  std::size_t index_;
  std::string description_;
  ServiceOutput* out_;
  Mode mode_ = Mode::Undecided;
  DevToolsListing listing_ = DevToolsListing::None;
  int fd_ = -1;
  std::string to_browser_;
  std::string from_browser_;
};

namespace {

// The transport's handle on a bridge: the bridge stays with WebViewDevTools, which pumps it.
class DevToolsSession : public ServiceSession {
 public:
  explicit DevToolsSession(std::shared_ptr<DevToolsBridge> bridge) : bridge_(std::move(bridge)) {}
  ~DevToolsSession() override { bridge_->host_closed(); }
  DevToolsSession(const DevToolsSession&) = delete;
  DevToolsSession& operator=(const DevToolsSession&) = delete;

  void on_input(std::string_view bytes) override { bridge_->on_input(bytes); }
  void on_host_close() override { bridge_->host_closed(); }

 private:
  std::shared_ptr<DevToolsBridge> bridge_;
};

}  // namespace

WebViewDevTools::WebViewDevTools(const Scenario& scenario)
    : apps_(scenario.webviews),
      display_{0, 0, scenario.display.width, scenario.display.height},
      density_(scenario.display.density) {}

WebViewDevTools::~WebViewDevTools() {
  // The transport has ended its sessions by now (the device outlives its server); a bridge
  // still here must not write to an output that may be gone.
  for (const auto& bridge : bridges_) bridge->host_closed();
  bridges_.clear();
  browser_.reset();
}

void WebViewDevTools::listen(AbstractSockets& sockets) {
  for (std::size_t app = 0; app < apps_.size(); ++app) {
    if (!apps_[app].debuggable) continue;
    sockets.listen(devtools_socket_name(apps_[app]),
                   [this, app](ServiceOutput& out) { return accept(app, out); });
  }
}

void WebViewDevTools::follow_browser() {
  browser_->poll();
  if (browser_->state() == ChromiumBrowser::State::Ready) consecutive_failures_ = 0;
  if (browser_->state() != ChromiumBrowser::State::Failed || failure_noted_) return;
  failure_noted_ = true;
  ++consecutive_failures_;
  auto back_off = std::chrono::steady_clock::duration::zero();
  if (consecutive_failures_ > 1) {
    const int doublings = std::min(consecutive_failures_ - 2, 5);
    back_off = std::min<std::chrono::steady_clock::duration>(
        kFirstRestartBackOff * (1 << doublings), kMaxRestartBackOff);
  }
  restart_after_ = std::chrono::steady_clock::now() + back_off;
}

std::unique_ptr<ServiceSession> WebViewDevTools::accept(std::size_t app, ServiceOutput& out) {
  if (browser_) follow_browser();
  if (browser_ && browser_->state() == ChromiumBrowser::State::Failed &&
      std::chrono::steady_clock::now() >= restart_after_) {
    // The connections of the failed start are over (their next pump would end them anyway): none
    // may reach the new Chromium with a request meant for the old one.
    for (const auto& bridge : bridges_) bridge->finish();
    std::erase_if(bridges_, [](const auto& bridge) { return bridge->ended(); });
    log_line("starting Chromium again (" + std::to_string(consecutive_failures_) +
             " failed start(s) in a row)");
    browser_.reset();
  }
  if (!browser_) {
    browser_ = std::make_unique<ChromiumBrowser>(apps_, display_, density_);
    failure_noted_ = false;
    follow_browser();
  }
  const Bounds bounds = apps_[app].bounds.value_or(display_);
  auto bridge =
      std::make_shared<DevToolsBridge>(apps_[app], app, android_page_description(bounds), out);
  bridges_.push_back(bridge);
  return std::make_unique<DevToolsSession>(std::move(bridge));
}

void WebViewDevTools::tick() {
  if (!browser_) return;
  follow_browser();
  for (const auto& bridge : bridges_) bridge->pump(*browser_);
  std::erase_if(bridges_, [](const auto& bridge) { return bridge->ended(); });
}

std::optional<std::chrono::steady_clock::time_point> WebViewDevTools::next_deadline(
    std::chrono::steady_clock::time_point now) const {
  const bool waiting = std::any_of(bridges_.begin(), bridges_.end(),
                                   [](const auto& bridge) { return bridge->waiting(); });
  if (!waiting) return std::nullopt;
  return now + kRetryInterval;
}

void WebViewDevTools::add_watched_fds(std::vector<int>& fds) const {
  // A bridge whose host lags is woken by the host's acknowledgements instead (every loop turn
  // ticks): watching Chromium's socket then would only spin the loop.
  for (const auto& bridge : bridges_) {
    if (bridge->fd() >= 0 && bridge->host_has_room()) fds.push_back(bridge->fd());
  }
}

int WebViewDevTools::browser_pid() const {
  return browser_ ? browser_->pid() : 0;
}

}  // namespace clawperator::vdevice::android
