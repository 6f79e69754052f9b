// What a simulated device is: its properties, packages, screens, power state, Operator
// behaviour and the faults it injects. Scenario files are JSON (docs/vdevice-scenarios.md);
// a file is laid over a base scenario (the built-in default unless it says otherwise).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"
#include "vdevice/android/scenario/background_scenario.hpp"

namespace clawperator::vdevice::android {

struct Bounds {
  int left = 0;
  int top = 0;
  int right = 0;
  int bottom = 0;

  int width() const noexcept { return right - left; }
  int height() const noexcept { return bottom - top; }
  bool contains(int x, int y) const noexcept {
    return x >= left && x < right && y >= top && y < bottom;
  }
  friend bool operator==(const Bounds&, const Bounds&) = default;
};

// "[left,top][right,bottom]", as uiautomator writes bounds.
std::string to_string(const Bounds& bounds);

struct PackageSpec;
// `pm path` of a package without an explicit codePath: /system/priv-app/… for a system app,
// else a randomised directory as Android 11+ creates one per install (`install_salt` tells
// installs apart).
std::string derived_code_path(const PackageSpec& package, std::uint64_t install_salt = 0);

// One node of a screen: what uiautomator shows, and how the simulated app reacts.
struct NodeSpec {
  std::string class_name = "android.view.View";
  std::string resource_id;
  std::string text;
  // Drawn on the screen (screencap) but absent from the hierarchy, as a Flutter app or a canvas
  // draws its text; shown instead of `text` when both are set.
  std::string drawn_text;
  std::string content_desc;
  std::string role;  // explicit matcher role; derived from the class when empty
  bool checkable = false;
  bool checked = false;
  bool clickable = false;
  bool enabled = true;
  bool focusable = false;
  bool focused = false;
  bool scrollable = false;
  bool long_clickable = false;
  bool password = false;
  bool selected = false;
  bool editable = false;         // accepts enter_text (EditText classes are editable by default)
  bool horizontal = false;       // lays children out (and scrolls) left to right
  std::optional<Bounds> bounds;  // explicit; otherwise laid out inside the parent
  int size = 0;  // height (width when the parent is horizontal) in px; 0 = share the rest

  // Behaviour.
  std::string navigate_to;                 // screen id shown when clicked, or kBackTarget
  std::vector<std::string> requires_text;  // resource-ids that must hold text for navigate_to
  std::string otherwise_navigate_to;       // shown instead when a required field is empty
  std::string navigate_on_submit;          // screen id shown by enter_text with submit
  bool offscreen = false;                  // in a scrollable parent: hidden until scrolled to
  int appears_after_ms = 0;                // hidden until the screen has been shown this long
  bool text_from_uri = false;              // shows the URI the screen was opened with
  bool draggable = false;                  // a drag that starts on it moves it

  std::vector<NodeSpec> children;

  // Scroll window of a scrollable node (derived from `offscreen` children when loading,
  // then changed by scrolling): children [first_visible, first_visible + visible_count).
  int first_visible = 0;
  int visible_count = 0;
};

struct ScreenSpec {
  std::string id;
  std::string package;
  std::string activity;  // e.g. "com.android.settings/.Settings"; defaults to the package's
  NodeSpec root;
};

struct PackageSpec {
  std::string name;
  std::string label;
  std::string version_name = "1.0";
  std::int64_t version_code = 1;
  bool system = false;
  bool operator_app = false;  // receives ACTION_AGENT_COMMAND
  std::string launch_screen;  // empty: not launchable
  std::string launch_activity;
  std::vector<std::string> uri_prefixes;  // open_uri / am start -d targets
  std::string uri_screen;
  std::set<std::string> granted_permissions;
  int uid = 0;            // assigned when loading when 0
  std::string code_path;  // `pm path`; derived when empty
};

struct DisplaySpec {
  int width = 1080;
  int height = 2400;
  int density = 420;
};

struct PowerSpec {
  bool screen_on = true;
  bool locked = false;
  bool user_unlocked = true;
  bool secure_lock = true;   // false: `wm dismiss-keyguard` / KEYCODE_MENU unlock
  bool stay_asleep = false;  // wake requests are ignored
};

struct OperatorBehavior {
  int pid = 0;  // assigned when 0
  int delivery_delay_ms = 12;
  int action_delay_ms = 8;
  int launch_delay_ms = 45;
  int poll_interval_ms = 100;
  std::size_t chunk_threshold_bytes = 3000;
  bool snapshot_in_logcat = false;  // legacy: the hierarchy as log lines, not data.text
  bool close_app_supported = false;
  // Answers ACTION_PREPARE_RESULT_CONNECTION and honours result_session (false: an older
  // Operator, which ignores both and logs every result).
  bool direct_transport = true;
};

struct LogcatSpec {
  double noise_lines_per_second = 3.0;
  std::size_t buffer_lines = 20000;
  std::size_t initial_lines = 40;
  bool foreign_results = false;  // noise includes other commands' result lines
  // The share (0..1) of the Operator's records logd drops, leaving a `chatty` line in their
  // place; which ones depends on the seed only.
  double drop_rate = 0;
  // false: a logd that records no uid (every entry's is -1; `-v uid` prints blanks), as on a
  // device whose reader cannot learn them. The host must not trust a result it cannot
  // attribute.
  bool show_uids = true;
  // A following reader (not -d, -t) starts reading this long after logcat started, as a reader
  // that reaches logd late on a loaded machine: what is logged meanwhile it sees only through
  // -T, as lines from before it came (docs/wire-protocol.md §6.2).
  std::size_t attach_delay_ms = 0;
};

// An app that forges the Operator's results, for tests of the host's authenticity check
// (docs/vdevice-scenarios.md, `forger`): it hears every agent command the Operator is sent and
// logs a success envelope for it under the Operator's result tag, before the Operator answers,
// from its own pid and uid.
struct ForgerSpec {
  std::string package;   // installed with a uid of its own; empty: no forger
  bool chunked = false;  // frames every forgery as chunk records (at least 3)
  int pid = 0;           // assigned when 0
};

// An app showing a WebView (docs/vdevice.md, `webviews`). A debuggable one listens on
// @webview_devtools_remote_<pid> (Chrome: @chrome_devtools_remote), where a real headless
// Chromium answers for its page (src/vdevice/android/system/chromium_browser.cpp).
struct WebViewSpec {
  std::string package;           // installed like any app of the user's unless declared
  bool debuggable = true;        // false: the app runs, but has no DevTools socket
  bool chrome = false;           // Chrome itself: the socket is @chrome_devtools_remote
  std::string url;               // the page's address, used as is
  std::string page;              // or a file next to the scenario, read into `html` when loading
  std::string html;              // or the page itself
  std::optional<Bounds> bounds;  // on screen, in device pixels; nullopt: the whole display
  int pid = 0;                   // assigned when 0
};

// How the Operator breaks its side of the direct result transport (docs/vdevice-scenarios.md).
enum class DirectFault {
  None,
  RefuseConnection,  // every connection is closed at once, before `ready`
  NeverReady,        // connections stay open, nothing is ever sent or read
  BadSha256,         // the result header's sha256 is that of other bytes
  ShortFrame,        // the result frame carries half its declared length, then the socket closes
  OversizedFrame,    // the result frame is longer than the header's byteLength
  DropMidResult,     // half the result frame, then every adb connection drops
  NoTiming,          // the host's ack goes unanswered; the socket stays open until the lifetime
  CloseBeforeAck,    // the socket closes right after the result, before the host's ack
};

struct FaultSpec {
  bool never_answer = false;
  int screencap_delay_ms = 0;  // screencap answers this late (not an Operator fault)
  // `pm list packages` answers this late: the host's presence check waits on the device.
  int package_list_delay_ms = 0;
  // screenrecord cannot configure its encoder: an error, a non-zero status, no video.
  bool screenrecord_fails = false;
  // screenrecord is killed (SIGKILL) this long after it starts, leaving an MP4 without `moov`;
  // 0: never.
  int screenrecord_killed_after_ms = 0;
  int answer_late_ms = 0;
  bool malformed_envelope = false;
  bool bad_checksum = false;
  bool reorder_chunks = false;
  bool duplicate_chunk = false;
  bool drop_chunk = false;
  bool close_stream_mid_envelope = false;
  bool drop_connection_before_dispatch = false;
  bool drop_connection_after_dispatch = false;
  int drop_delay_ms = 20;
  bool broadcast_refused = false;
  bool unauthorized = false;
  bool offline = false;
  std::size_t pad_snapshot_bytes = 0;
  // The accessibility service gets no window root: actions that read the UI answer
  // UI_TREE_UNAVAILABLE.
  bool ui_tree_unavailable = false;
  DirectFault direct = DirectFault::None;
  // Faults leave the readiness probe (a doctor_ping-only payload) alone unless this is set.
  bool include_probes = false;
  // How many commands the faults hit (the first N); nullopt = all.
  std::optional<int> count;
};

// navigateTo value that acts like the back key ("Navigate up" buttons).
inline constexpr std::string_view kBackTarget = "@back";
inline constexpr const char* kOperatorPackage = "com.clawperator.operator";
inline constexpr const char* kOperatorDevPackage = "com.clawperator.operator.dev";
inline constexpr const char* kAgentCommandAction = "app.clawperator.operator.ACTION_AGENT_COMMAND";
inline constexpr const char* kAccessibilityServiceClass =
    "clawperator.operator.accessibilityservice.OperatorAccessibilityService";

struct Scenario {
  std::string name;
  std::string description;
  std::uint64_t seed = 1;
  std::map<std::string, std::string> properties;
  DisplaySpec display;
  PowerSpec power;
  // namespace ("global", "secure", "system") → key → value
  std::map<std::string, std::map<std::string, std::string>> settings;
  std::vector<PackageSpec> packages;
  std::vector<ScreenSpec> screens;
  // Packages declared with "installed": false, and their screens: what installing an APK of
  // that name brings back (label, activities, screens).
  std::vector<PackageSpec> uninstalled_packages;
  std::vector<ScreenSpec> uninstalled_screens;
  std::string home_screen;
  std::string lock_screen;     // shown while locked; empty: none
  std::string recents_screen;  // press_key recents; empty: none
  std::string initial_screen;  // foreground at boot; empty: home
  // The CNXN maxdata the device announces (device.maxPayload); 0: as the host offers (1 MiB).
  std::size_t max_payload = 0;
  OperatorBehavior operator_behavior;
  LogcatSpec logcat;
  FaultSpec faults;
  ForgerSpec forger;
  // An INSTALL_FAILED_… code every `pm install` answers with; empty: installs succeed.
  std::string install_failure;
  // Notifications, media sessions, the on-screen log panel.
  BackgroundScenario background;
  std::vector<WebViewSpec> webviews;

  const PackageSpec* find_package(const std::string& name) const;
  const ScreenSpec* find_screen(const std::string& id) const;
};

// Parses a scenario file over its base. The error's path is the field's when one is at fault
// (text(): "screens[2].root.children[0].bounds: expected \"[l,t][r,b]\""), else empty and the
// message says what (the file position of a JSON syntax error). A file's error has the file
// as its path and the scenario's text() as its message.
Expected<Scenario, Problem> load_scenario(const std::string& json_text);
Expected<Scenario, Problem> load_scenario_file(const std::string& path);

// The built-in device: a launcher, Settings (lists, a text field, an account sign-in), a
// browser and the Operator 0.5.3.
Scenario default_scenario();
// Its JSON text, a starting point for new scenarios.
const std::string& default_scenario_json();
// The base of `"base": "minimal"`: the default's properties, the Operator and a bare launcher.
const std::string& minimal_scenario_json();

}  // namespace clawperator::vdevice::android
