// The virtual device's WebViews through the real adb (issue 50): the host finds a debuggable
// WebView's DevTools socket with one shell call (`cat /proc/net/unix; ps -A -o PID,NAME`),
// forwards it, and speaks HTTP (/json/list) and the Chrome DevTools Protocol over WebSocket to
// the real headless Chromium behind it (src/vdevice/android/system/chromium_browser.cpp).
// Cases that need Chromium skip where it is missing (CI installs it: scripts/install-deps.sh
// --browser).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "emulator_process.hpp"
#include "farm_fixture.hpp"
#include "skip.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"
#include "vdevice/android/system/chromium_browser.hpp"
#include "vdevice/android/system/webview_devtools.hpp"

using namespace clawperator::testing;
using namespace std::chrono_literals;
namespace android = clawperator::vdevice::android;

namespace {

constexpr int kWebViewReadMs = 15000;

// The Chromium the device would start (CLAWPERATOR_VDEVICE_CHROMIUM, else `chromium` on
// PATH) as a path; empty when there is none.
std::string webview_chromium_path() {
  const std::string configured = android::chromium_executable();
  if (configured.find('/') != std::string::npos) {
    return ::access(configured.c_str(), X_OK) == 0 ? configured : std::string();
  }
  const char* path = std::getenv("PATH");
  std::string rest = path != nullptr ? path : "";
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::string dir = rest.substr(0, colon);
    if (!dir.empty() && ::access((dir + "/" + configured).c_str(), X_OK) == 0) {
      return dir + "/" + configured;
    }
    if (colon == std::string::npos) break;
    rest.erase(0, colon + 1);
  }
  return {};
}

bool webview_chromium_installed() {
  return !webview_chromium_path().empty();
}

// A stand-in for Chromium that counts its starts in DIR/starts and exits at once (status 3)
// for the first `failures` of them, then runs `chromium` (empty: never).
std::string webview_flaky_chromium(const std::filesystem::path& dir, int failures,
                                   const std::string& chromium) {
  const std::filesystem::path script = dir / "flaky-chromium";
  const std::string starts = (dir / "starts").string();
  std::string text = "#!/bin/sh\nstarts=$(cat '" + starts + "' 2>/dev/null || echo 0)\n" +
                     "echo $((starts + 1)) > '" + starts + "'\n";
  if (!chromium.empty()) {
    text +=
        "[ \"$starts\" -ge " + std::to_string(failures) + " ] && exec '" + chromium + "' \"$@\"\n";
  }
  text += "exit 3\n";
  write_file(script, text);
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script.string();
}

int webview_starts(const std::filesystem::path& dir) {
  const std::string text = read_file((dir / "starts").string());
  return text.empty() ? 0 : std::stoi(text);
}

// A TCP connection to a port adb forwarded, read with a deadline.
class WebViewTestSocket {
 public:
  explicit WebViewTestSocket(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  }
  ~WebViewTestSocket() { ::close(fd_); }
  WebViewTestSocket(const WebViewTestSocket&) = delete;
  WebViewTestSocket& operator=(const WebViewTestSocket&) = delete;

  void send(const std::string& bytes) {
    REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(bytes.size()));
  }
  // Reads until `enough` says so, EOF or the deadline; what arrived.
  template <typename Enough>
  std::string read_until(Enough enough) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kWebViewReadMs);
    while (!enough(buffer_) && !eof_ && std::chrono::steady_clock::now() < deadline) {
      pollfd ready{fd_, POLLIN, 0};
      if (::poll(&ready, 1, 200) <= 0) continue;
      char chunk[65536];
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) {
        eof_ = true;
        break;
      }
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
    return buffer_;
  }
  std::string read_to_eof() {
    return read_until([](const std::string&) { return false; });
  }
  bool eof() const { return eof_; }
  std::string& buffer() { return buffer_; }

 private:
  int fd_ = -1;
  std::string buffer_;
  bool eof_ = false;
};

int webview_forward(const Farm& farm, const std::string& socket) {
  const RunResult forwarded = farm.adb({"forward", "tcp:0", "localabstract:" + socket});
  INFO(forwarded.out << forwarded.err);
  REQUIRE(forwarded.exit_code == 0);
  return std::stoi(forwarded.out);
}

// GET `path` through the forwarded port: the response's body (the device closes after it).
std::string webview_http_get(int port, const std::string& path) {
  WebViewTestSocket socket(port);
  socket.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\n\r\n");
  const std::string response = socket.read_to_eof();
  INFO(response);
  REQUIRE(response.starts_with("HTTP/1.1 200 OK\r\n"));
  return response.substr(response.find("\r\n\r\n") + 4);
}

// One client text frame (RFC 6455 §5.2): FIN, opcode 1, masked as clients must.
std::string webview_client_frame(const std::string& text) {
  std::string frame = "\x81";
  const std::size_t size = text.size();
  if (size < 126) {
    frame += static_cast<char>(0x80 | size);
  } else {
    frame += static_cast<char>(0x80 | 126);
    frame += static_cast<char>((size >> 8) & 0xff);
    frame += static_cast<char>(size & 0xff);
  }
  const char mask[4] = {0x12, 0x34, 0x56, 0x78};
  frame.append(mask, 4);
  for (std::size_t i = 0; i < size; ++i) frame += static_cast<char>(text[i] ^ mask[i % 4]);
  return frame;
}

// The first whole server frame's payload in `bytes` (servers do not mask), removed from it.
std::optional<std::string> webview_take_server_frame(std::string& bytes) {
  if (bytes.size() < 2) return std::nullopt;
  std::size_t size = static_cast<unsigned char>(bytes[1]) & 0x7f;
  std::size_t header = 2;
  if (size == 126 || size == 127) {
    const std::size_t width = size == 126 ? 2 : 8;
    if (bytes.size() < 2 + width) return std::nullopt;
    size = 0;
    for (std::size_t i = 0; i < width; ++i) {
      size = (size << 8) | static_cast<unsigned char>(bytes[2 + i]);
    }
    header += width;
  }
  if (bytes.size() < header + size) return std::nullopt;
  std::string payload = bytes.substr(header, size);
  bytes.erase(0, header + size);
  return payload;
}

// A CDP session over the page's WebSocket, through the forwarded port.
class WebViewCdp {
 public:
  WebViewCdp(int port, const std::string& path) : socket_(port) {
    socket_.send(
        "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
        "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    const std::string head = socket_.read_until(
        [](const std::string& bytes) { return bytes.find("\r\n\r\n") != std::string::npos; });
    handshake_ = head.substr(0, head.find("\r\n\r\n"));
    socket_.buffer().erase(0, std::min(head.size(), handshake_.size() + 4));
  }
  const std::string& handshake() const { return handshake_; }

  // Runtime.evaluate of `expression`: the value, by value.
  json evaluate(const std::string& expression) {
    const int id = send_evaluate(expression);
    for (;;) {
      const std::optional<std::string> frame = next_frame();
      if (!frame) return json();
      const json message = json::parse(*frame, nullptr, false);
      if (message.is_object() && message.value("id", 0) == id) return message;
    }
  }
  // Sends a Runtime.evaluate without waiting for its answer: its id.
  int send_evaluate(const std::string& expression) {
    const int id = ++next_id_;
    socket_.send(
        webview_client_frame(json{{"id", id},
                                  {"method", "Runtime.evaluate"},
                                  {"params", {{"expression", expression}, {"returnByValue", true}}}}
                                 .dump()));
    return id;
  }
  // The next server frame's payload; nullopt at EOF or when none came in time.
  std::optional<std::string> next_frame() {
    std::optional<std::string> frame;
    socket_.read_until([&](std::string& bytes) {
      frame = webview_take_server_frame(bytes);
      return frame.has_value();
    });
    return frame;
  }

 private:
  WebViewTestSocket socket_;
  std::string handshake_;
  int next_id_ = 0;
};

// The Chromium a device started for its WebViews: a child of `parent` (by default this
// process: the farm serves its devices in threads of ours) run with a --user-data-dir.
std::optional<std::pair<pid_t, std::string>> webview_chromium_child(pid_t parent = ::getpid()) {
  for (const auto& [pid, cmdline] : children_of(parent)) {
    const std::size_t at = cmdline.find("--user-data-dir=");
    if (at == std::string::npos) continue;
    const std::size_t start = at + 16;
    return std::pair{pid, cmdline.substr(start, cmdline.find(' ', start) - start)};
  }
  return std::nullopt;
}

const android::WebViewSpec& webview_app(const android::Scenario& scenario,
                                        const std::string& package) {
  for (const auto& webview : scenario.webviews) {
    if (webview.package == package) return webview;
  }
  FAIL("no WebView app " << package);
  throw std::logic_error("unreachable");
}

// A DevTools request to a forwarded port: the connection ends, unanswered.
void webview_expect_closed_at_once(int port) {
  WebViewTestSocket socket(port);
  socket.send("GET /json/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  CHECK(socket.read_to_eof().empty());
  CHECK(socket.eof());
}

void webview_expect_closed_at_once(const Farm& farm, const android::WebViewSpec& app) {
  webview_expect_closed_at_once(webview_forward(farm, android::devtools_socket_name(app)));
}

// A clawperator-vdevice process of its own (the emulator mode, registered with a farm's adb
// server) serving webview-login.json: it can be SIGKILLed, and its memory measured, apart from
// the test's.
class WebViewDeviceProcess {
 public:
  explicit WebViewDeviceProcess(const std::vector<std::string>& environment = {})
      : console_(free_console_port()), serial_("emulator-" + std::to_string(console_)) {
    std::vector<std::string> env = environment;
    env.push_back("HOME=" + home_.path().string());
    process_.emplace(
        std::vector<std::string>{CLAWPERATOR_VDEVICE_BINARY, "emulator", "--avd", "Pixel_7",
                                 "--console-port", std::to_string(console_), "--adb-server-port",
                                 std::to_string(farm_.adb_server_port()), "--scenario",
                                 kScenarios + "/webview-login.json"},
        env);
    REQUIRE(eventually(
        [&] { return farm_.adb({"devices"}).out.find(serial_ + "\tdevice") != std::string::npos; },
        10s));
  }
  // Reaped before the farm looks for leftovers. SIGTERM, and time to stop Chromium (up to its
  // 2 s grace) and remove its folder: the runner's own 500 ms before SIGKILL would leave the
  // folder behind.
  ~WebViewDeviceProcess() {
    // Not when already reaped (the SIGKILL case): its pid may be another process's by now.
    if (!process_->wait_exit(0ms)) {
      process_->sigterm();
      (void)process_->wait_exit(10s);
    }
    process_.reset();
  }
  WebViewDeviceProcess(const WebViewDeviceProcess&) = delete;
  WebViewDeviceProcess& operator=(const WebViewDeviceProcess&) = delete;

  // `adb forward tcp:0 localabstract:` to the shop app's DevTools socket: the local port.
  int forward_shop() {
    const android::WebViewSpec& shop = webview_app(login_, "com.example.shop");
    const RunResult forwarded = farm_.adb({"-s", serial_, "forward", "tcp:0",
                                           "localabstract:" + android::devtools_socket_name(shop)});
    INFO(forwarded.out << forwarded.err);
    REQUIRE(forwarded.exit_code == 0);
    return std::stoi(forwarded.out);
  }
  EmulatorProcess& process() { return *process_; }
  // What `adb shell echo still here` printed: the device still serves the rest.
  std::string echo_through_shell() {
    return farm_.adb({"-s", serial_, "shell", "echo", "still here"}).out;
  }
  pid_t pid() const { return process_->pid(); }

  // The process's resident memory (VmRSS), in bytes; 0 once it is gone.
  std::size_t resident_bytes() const {
    const std::string status = read_proc_file("/proc/" + std::to_string(pid()) + "/status");
    const std::size_t at = status.find("\nVmRSS:");
    if (at == std::string::npos) return 0;
    return std::strtoull(status.c_str() + at + 8, nullptr, 10) * 1024;
  }

 private:
  Farm farm_{Farm::Built{}};
  TemporaryDirectory home_{"webview-device-home"};
  android::Scenario login_ = scenario("webview-login");
  std::uint16_t console_;
  std::string serial_;
  std::optional<EmulatorProcess> process_;
};

}  // namespace

TEST_CASE(
    "vdevice webview: one shell call finds the DevTools socket and its app, Chromium not started",
    "[integration][vdevice][webview]") {
  const android::Scenario login = scenario("webview-login");
  const int shop = webview_app(login, "com.example.shop").pid;
  const int notes = webview_app(login, "com.example.notes").pid;
  Farm farm(Farm::Built{{login}});
  const RunResult listed = farm.adb({"shell", "cat /proc/net/unix; ps -A -o PID,NAME"});
  INFO(listed.out << listed.err);
  REQUIRE(listed.exit_code == 0);
  CHECK(listed.out.starts_with("Num       RefCount Protocol Flags    Type St Inode Path\n"));
  CHECK(listed.out.find(" @webview_devtools_remote_" + std::to_string(shop) + "\n") !=
        std::string::npos);
  // The non-debuggable app runs but has no socket.
  CHECK(listed.out.find("@webview_devtools_remote_" + std::to_string(notes) + "\n") ==
        std::string::npos);
  CHECK(listed.out.find("\n  PID NAME\n") != std::string::npos);
  char row[64];
  std::snprintf(row, sizeof row, "\n%5d com.example.shop\n", shop);
  CHECK(listed.out.find(row) != std::string::npos);
  std::snprintf(row, sizeof row, "\n%5d com.example.notes\n", notes);
  CHECK(listed.out.find(row) != std::string::npos);
  // Chromium starts for a DevTools connection only.
  CHECK_FALSE(webview_chromium_child());
}

TEST_CASE("vdevice webview: /json/list and CDP over the forwarded socket reach a real Chromium",
          "[integration][vdevice][webview][chromium][may-skip]") {
  if (!webview_chromium_installed())
    SKIP_TEST("no Chromium (chromium on PATH or CLAWPERATOR_VDEVICE_CHROMIUM)");
  const android::Scenario login = scenario("webview-login");
  const android::WebViewSpec& shop = webview_app(login, "com.example.shop");
  std::optional<Farm> farm;
  farm.emplace(Farm::Built{{login}});
  const int port = webview_forward(*farm, android::devtools_socket_name(shop));

  const json list = json::parse(webview_http_get(port, "/json/list"), nullptr, false);
  INFO(list.dump(2));
  REQUIRE(list.is_array());
  REQUIRE(list.size() == 1);
  const json& page = list[0];
  CHECK(page["type"] == "page");
  CHECK(page["title"] == "Shop login");
  CHECK(page["url"].get<std::string>().ends_with("/com.example.shop.html"));
  const std::string id = page["id"].get<std::string>();
  CHECK(page["webSocketDebuggerUrl"] ==
        "ws://127.0.0.1:" + std::to_string(port) + "/devtools/page/" + id);
  CHECK(json::parse(page["description"].get<std::string>()) ==
        json::parse(R"({"attached":true,"empty":false,"height":2138,"screenX":0,)"
                    R"("screenY":136,"visible":true,"width":1080})"));
  const json version = json::parse(webview_http_get(port, "/json/version"), nullptr, false);
  CHECK(version.value("Android-Package", "") == "com.example.shop");
  CHECK(version.value("Browser", "").find('/') != std::string::npos);

  {
    WebViewCdp cdp(port, "/devtools/page/" + id);
    INFO(cdp.handshake());
    // Chromium's reason phrase is "WebSocket Protocol Handshake": the status is what counts.
    CHECK(cdp.handshake().starts_with("HTTP/1.1 101 "));
    CHECK(cdp.handshake().find("\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") !=
          std::string::npos);
    CHECK(cdp.evaluate("document.title")["result"]["result"]["value"] == "Shop login");
    const json welcome = cdp.evaluate(
        "document.getElementById('user').value = 'ann';"
        "document.getElementById('login').click();"
        "document.getElementById('status').textContent");
    CHECK(welcome["result"]["result"]["value"] == "Welcome ann");
  }

  const auto chromium = webview_chromium_child();
  REQUIRE(chromium);
  const auto [chromium_pid, profile] = *chromium;
  CHECK(std::filesystem::is_directory(profile));

  // The forward goes away when asked to.
  CHECK(farm->adb({"forward", "--remove", "tcp:" + std::to_string(port)}).exit_code == 0);
  CHECK(farm->adb({"forward", "--list"}).out.find("localabstract") == std::string::npos);

  // Chromium ends with its device: reaped (no such process), nothing of its left, its
  // profile removed.
  farm.reset();
  CHECK(::kill(chromium_pid, 0) != 0);
  for (int attempt = 0; attempt < 100 && processes_mentioning(profile) != 0; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(processes_mentioning(profile) == 0);
  CHECK_FALSE(std::filesystem::exists(profile));
}

TEST_CASE("vdevice webview: a non-debuggable app's socket refuses, Chrome has its own",
          "[integration][vdevice][webview][chromium][may-skip]") {
  if (!webview_chromium_installed())
    SKIP_TEST("no Chromium (chromium on PATH or CLAWPERATOR_VDEVICE_CHROMIUM)");
  android::Scenario login = scenario("webview-login");
  android::WebViewSpec chrome;
  chrome.package = "com.android.chrome";
  chrome.chrome = true;
  chrome.html = "<title>Chrome tab</title>";
  chrome.pid = 7777;
  login.webviews.push_back(chrome);
  Farm farm(Farm::Built{{login}});

  webview_expect_closed_at_once(farm, webview_app(login, "com.example.notes"));

  const int port = webview_forward(farm, "chrome_devtools_remote");
  const json list = json::parse(webview_http_get(port, "/json/list"), nullptr, false);
  INFO(list.dump(2));
  REQUIRE(list.size() == 1);
  CHECK(list[0]["title"] == "Chrome tab");
}

TEST_CASE("vdevice webview: without Chromium the connection closes and the device goes on",
          "[integration][vdevice][webview]") {
  const android::Scenario login = scenario("webview-login");
  ::setenv("CLAWPERATOR_VDEVICE_CHROMIUM", "/nonexistent/chromium", 1);
  Farm farm(Farm::Built{{login}});
  webview_expect_closed_at_once(farm, webview_app(login, "com.example.shop"));
  ::unsetenv("CLAWPERATOR_VDEVICE_CHROMIUM");
  CHECK(farm.adb({"shell", "echo", "still here"}).out == "still here\n");
}

TEST_CASE("vdevice webview: Chromium and its helpers die with a SIGKILLed vdevice",
          "[integration][vdevice][webview][chromium][may-skip]") {
  if (!webview_chromium_installed())
    SKIP_TEST("no Chromium (chromium on PATH or CLAWPERATOR_VDEVICE_CHROMIUM)");
  WebViewDeviceProcess vdevice;
  CHECK(json::parse(webview_http_get(vdevice.forward_shop(), "/json/list")).size() == 1);

  const auto chromium = webview_chromium_child(vdevice.pid());
  REQUIRE(chromium);
  const std::string profile = chromium->second;
  // The browser process and its helpers (zygotes, renderer, GPU and network processes).
  CHECK(processes_mentioning(profile) > 1);

  vdevice.process().sigkill();
  REQUIRE(vdevice.process().wait_exit(5s));
  const bool all_gone = eventually([&] { return processes_mentioning(profile) == 0; }, 5s);
  if (!all_gone) {
    for (const pid_t left : processes_with(profile)) ::kill(left, SIGKILL);
  }
  CHECK(all_gone);
  // Nobody else removes it: the device that would have is gone.
  std::error_code ignored;
  std::filesystem::remove_all(profile, ignored);
}

TEST_CASE("vdevice webview: a DevTools client that does not read holds Chromium back, not memory",
          "[integration][vdevice][webview][chromium][may-skip]") {
  if (!webview_chromium_installed())
    SKIP_TEST("no Chromium (chromium on PATH or CLAWPERATOR_VDEVICE_CHROMIUM)");
  WebViewDeviceProcess vdevice;
  const int port = vdevice.forward_shop();
  const json list = json::parse(webview_http_get(port, "/json/list"), nullptr, false);
  REQUIRE(list.size() == 1);
  WebViewCdp cdp(port, "/devtools/page/" + list[0]["id"].get<std::string>());
  REQUIRE(cdp.handshake().starts_with("HTTP/1.1 101 "));
  REQUIRE(cdp.evaluate("1 + 1")["result"]["result"]["value"] == 2);
  const std::size_t before = vdevice.resident_bytes();
  REQUIRE(before > 0);

  // 48 MiB of answers (under the 256 MiB Chromium's DevTools server holds per connection)
  // while the client reads nothing: without back-pressure they would all pile up in the device
  // (measured: +62 MiB of VmRSS within 8 s; with it, +8 MiB).
  constexpr int kAnswers = 6;
  constexpr std::size_t kAnswerSize = 8u << 20;
  std::vector<int> ids;
  for (int i = 0; i < kAnswers; ++i) {
    ids.push_back(cdp.send_evaluate("String.fromCharCode(97 + " + std::to_string(i) + ").repeat(" +
                                    std::to_string(kAnswerSize) + ")"));
  }
  std::size_t peak = before;
  const auto until = std::chrono::steady_clock::now() + 8s;
  while (std::chrono::steady_clock::now() < until) {
    peak = std::max(peak, vdevice.resident_bytes());
    std::this_thread::sleep_for(50ms);
  }
  INFO("VmRSS before " << before / 1024 << " KiB, peak while not read " << peak / 1024 << " KiB");
  CHECK(peak - before < (24u << 20));

  // Nothing was lost: every answer arrives whole, in order.
  for (int i = 0; i < kAnswers; ++i) {
    const std::optional<std::string> frame = cdp.next_frame();
    REQUIRE(frame);
    const json answer = json::parse(*frame, nullptr, false);
    CHECK(answer.value("id", 0) == ids[static_cast<std::size_t>(i)]);
    const std::string value = answer["result"]["result"].value("value", "");
    CHECK(value.size() == kAnswerSize);
    CHECK(value.find_first_not_of(static_cast<char>('a' + i)) == std::string::npos);
  }
}

TEST_CASE("vdevice webview: a connection after a failed Chromium start starts it again",
          "[integration][vdevice][webview][chromium][may-skip]") {
  const std::string chromium = webview_chromium_path();
  if (chromium.empty()) SKIP_TEST("no Chromium (chromium on PATH or CLAWPERATOR_VDEVICE_CHROMIUM)");
  TemporaryDirectory dir("webview-flaky-chromium");
  WebViewDeviceProcess vdevice(
      {"CLAWPERATOR_VDEVICE_CHROMIUM=" + webview_flaky_chromium(dir.path(), 1, chromium)});
  const int port = vdevice.forward_shop();

  webview_expect_closed_at_once(port);
  CHECK(webview_starts(dir.path()) == 1);
  // The failed process is gone (reaped), and the next connection gets a working Chromium.
  const json list = json::parse(webview_http_get(port, "/json/list"), nullptr, false);
  INFO(list.dump(2));
  REQUIRE(list.is_array());
  CHECK(list.size() == 1);
  CHECK(webview_starts(dir.path()) == 2);
  // A working Chromium serves every later connection: it is not started again.
  CHECK(json::parse(webview_http_get(port, "/json/version")).value("Android-Package", "") ==
        "com.example.shop");
  CHECK(webview_starts(dir.path()) == 2);
}

TEST_CASE("vdevice webview: a Chromium that never starts is not started for every connection",
          "[integration][vdevice][webview]") {
  TemporaryDirectory dir("webview-broken-chromium");
  WebViewDeviceProcess vdevice(
      {"CLAWPERATOR_VDEVICE_CHROMIUM=" + webview_flaky_chromium(dir.path(), 0, "")});
  const int port = vdevice.forward_shop();
  // A client retrying in a loop: the second connection tries again at once, the next ones
  // within the back-off (1 s after a second failure in a row) are closed without a start.
  const auto began = std::chrono::steady_clock::now();
  for (int connection = 0; connection < 6; ++connection) webview_expect_closed_at_once(port);
  const auto took = std::chrono::steady_clock::now() - began;
  INFO("6 connections took " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                             << " ms");
  CHECK(webview_starts(dir.path()) >= 2);
  if (took < 1s) CHECK(webview_starts(dir.path()) == 2);
  CHECK(webview_starts(dir.path()) <= 3);
  CHECK(vdevice.echo_through_shell() == "still here\n");
}
