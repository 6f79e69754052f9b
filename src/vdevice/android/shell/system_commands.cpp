// getprop, settings, wm, input, cmd and screencap.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "vdevice/android/shell/shell_command.hpp"
#include "vdevice/android/ui/screenshot.hpp"

namespace clawperator::vdevice::android {
namespace {

std::optional<int> parse_int(const std::string& text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<int>(value);
}

// Taps like a finger: the deepest node at the point, or its nearest clickable ancestor.
void tap(AndroidSystem& system, int x, int y) {
  auto tree = system.ui().tree(system.now());
  VisibleNode* node = tree->at_point(x, y);
  VisibleNode* target = node;
  while (target != nullptr && !(target->spec->clickable && target->spec->enabled)) {
    target = target->parent;
  }
  if (target != nullptr) system.ui().click(*tree, *node, *target, system.now());
}

void swipe(AndroidSystem& system, int x1, int y1, int x2, int y2) {
  auto tree = system.ui().tree(system.now());
  VisibleNode* node = tree->at_point(x1, y1);
  while (node != nullptr && !node->spec->scrollable) node = node->parent;
  if (node == nullptr) return;
  const int dx = x2 - x1;
  const int dy = y2 - y1;
  // Content moves against the finger: swiping up scrolls down.
  ScrollDirection direction = dy < 0 ? ScrollDirection::Down : ScrollDirection::Up;
  if (std::abs(dx) > std::abs(dy))
    direction = dx < 0 ? ScrollDirection::Right : ScrollDirection::Left;
  const int extent =
      std::max(1, node->spec->horizontal ? node->bounds.width() : node->bounds.height());
  const double ratio = static_cast<double>(std::max(std::abs(dx), std::abs(dy))) / extent;
  system.ui().scroll(*node, direction, ratio);
}

void type_text(AndroidSystem& system, std::string text) {
  // `input text` encodes spaces as %s.
  for (std::size_t at = text.find("%s"); at != std::string::npos; at = text.find("%s", at + 1)) {
    text.replace(at, 2, " ");
  }
  auto tree = system.ui().tree(system.now());
  for (VisibleNode* node : tree->all()) {
    if (node->spec->focused && node->spec->editable) {
      system.ui().set_text(*node, node->spec->text + text);
      return;
    }
  }
}

int keycode(const std::string& name) {
  static const std::pair<const char*, int> kCodes[] = {
      {"HOME", 3},   {"BACK", 4},         {"POWER", 26},  {"MENU", 82},
      {"ENTER", 66}, {"APP_SWITCH", 187}, {"SLEEP", 223}, {"WAKEUP", 224},
  };
  if (auto number = parse_int(name)) return *number;
  const std::string bare = name.rfind("KEYCODE_", 0) == 0 ? name.substr(8) : name;
  for (const auto& [key, code] : kCodes) {
    if (bare == key) return code;
  }
  return 0;
}

void press(AndroidSystem& system, int code) {
  UiModel& ui = system.ui();
  switch (code) {
    case 224:
      system.wake("WAKE_REASON_WAKE_KEY");
      break;
    case 223:
      system.go_to_sleep();
      break;
    case 26:
      if (system.screen_on()) {
        system.go_to_sleep();
      } else {
        system.wake("WAKE_REASON_POWER_BUTTON");
      }
      break;
    case 82:
      system.dismiss_keyguard();
      break;
    case 3:
      if (system.screen_on()) ui.home(system.now());
      break;
    case 4:
      if (system.screen_on()) ui.back(system.now());
      break;
    case 187:
      if (system.screen_on()) ui.recents(system.now());
      break;
    default:
      break;
  }
}

}  // namespace

CommandResult run_getprop(CommandContext& context) {
  AndroidSystem& system = context.system;
  if (context.argv.size() == 1) {
    std::string out;
    for (const auto& [key, value] : system.properties()) {
      out += "[" + key + "]: [" + value + "]\n";
    }
    context.output.out(out);
    return {0, nullptr};
  }
  const std::string fallback = context.argv.size() > 2 ? context.argv[2] : "";
  context.output.out(system.property(context.argv[1]).value_or(fallback) + "\n");
  return {0, nullptr};
}

CommandResult run_settings(CommandContext& context) {
  std::vector<std::string> args(context.argv.begin() + 1, context.argv.end());
  if (args.size() >= 2 && args[0] == "--user") args.erase(args.begin(), args.begin() + 2);
  if (args.size() < 2) {
    return fail(context,
                "usage:  settings [--user <USER_ID> | current] get namespace key\n"
                "        settings [--user <USER_ID> | current] put namespace key value\n"
                "        settings [--user <USER_ID> | current] delete namespace key\n"
                "        settings [--user <USER_ID> | current] list namespace",
                1);
  }
  const std::string& verb = args[0];
  const std::string& space = args[1];
  AndroidSystem& system = context.system;
  const auto* values = system.settings_space(space);
  if (values == nullptr) return fail(context, "Invalid namespace '" + space + "'", 1);
  if (verb == "list") {
    std::string out;
    for (const auto& [key, value] : *values) out += key + "=" + value + "\n";
    context.output.out(out);
    return {0, nullptr};
  }
  if (args.size() < 3) return fail(context, "Invalid command: " + verb + " needs a key", 1);
  const std::string& key = args[2];
  if (verb == "get") {
    context.output.out(system.setting(space, key).value_or("null") + "\n");
    return {0, nullptr};
  }
  if (verb == "put") {
    if (args.size() < 4) return fail(context, "Invalid command: put needs a value", 1);
    system.put_setting(space, key, args[3]);
    return {0, nullptr};
  }
  if (verb == "delete") {
    context.output.out(system.delete_setting(space, key) ? "Deleted 1 rows\n" : "Deleted 0 rows\n");
    return {0, nullptr};
  }
  return fail(context, "Invalid command: " + verb, 1);
}

CommandResult run_wm(CommandContext& context) {
  const DisplaySpec& display = context.system.scenario().display;
  const std::string verb = context.argv.size() > 1 ? context.argv[1] : "";
  if (verb == "size" && context.argv.size() == 2) {
    context.output.out("Physical size: " + std::to_string(display.width) + "x" +
                       std::to_string(display.height) + "\n");
    return {0, nullptr};
  }
  if (verb == "density" && context.argv.size() == 2) {
    context.output.out("Physical density: " + std::to_string(display.density) + "\n");
    return {0, nullptr};
  }
  if (verb == "size" || verb == "density") {
    return fail(context, "Error: changing the display is not supported by the virtual device", 255);
  }
  if (verb == "dismiss-keyguard") {
    context.system.dismiss_keyguard();
    return {0, nullptr};
  }
  return fail(context, "Error: unknown command '" + verb + "'", 255);
}

CommandResult run_input(CommandContext& context) {
  std::vector<std::string> args(context.argv.begin() + 1, context.argv.end());
  static const char* const kSources[] = {"keyboard", "mouse",      "joystick", "touchnavigation",
                                         "touchpad", "trackball",  "dpad",     "stylus",
                                         "gamepad",  "touchscreen"};
  if (!args.empty() &&
      std::find(std::begin(kSources), std::end(kSources), args[0]) != std::end(kSources)) {
    args.erase(args.begin());
  }
  const std::string verb = args.empty() ? "" : args[0];
  AndroidSystem& system = context.system;
  if (verb == "keyevent") {
    for (std::size_t i = 1; i < args.size(); ++i) {
      if (args[i] == "--longpress" || args[i] == "--doubletap") continue;
      press(system, keycode(args[i]));
    }
    return {0, nullptr};
  }
  if (verb == "tap" && args.size() == 3) {
    const auto x = parse_int(args[1]);
    const auto y = parse_int(args[2]);
    if (!x || !y) return fail(context, "Error: invalid coordinates", 1);
    if (system.screen_on()) tap(system, *x, *y);
    return {0, nullptr};
  }
  if (verb == "swipe" && args.size() >= 5) {
    const auto x1 = parse_int(args[1]);
    const auto y1 = parse_int(args[2]);
    const auto x2 = parse_int(args[3]);
    const auto y2 = parse_int(args[4]);
    if (!x1 || !y1 || !x2 || !y2) return fail(context, "Error: invalid coordinates", 1);
    if (system.screen_on()) swipe(system, *x1, *y1, *x2, *y2);
    return {0, nullptr};
  }
  if (verb == "text" && args.size() == 2) {
    type_text(system, args[1]);
    return {0, nullptr};
  }
  return fail(context,
              "Error: Unknown command: " + verb +
                  "\nUsage: input [<source>] <command> [<arg>...]\n"
                  "      text <string>\n      keyevent [--longpress|--doubletap] <key code>...\n"
                  "      tap <x> <y>\n      swipe <x1> <y1> <x2> <y2> [duration(ms)]",
              1);
}

CommandResult run_cmd(CommandContext& context) {
  if (context.argv.size() < 2) {
    return fail(context, "cmd: No service specified; use -l to list all services", 20);
  }
  const std::string service = context.argv[1];
  const std::vector<std::string> rest(context.argv.begin() + 2, context.argv.end());
  auto delegate = [&](const char* name, CommandHandler handler) {
    CommandContext inner{context.system, {name},        context.environment, context.output,
                         context.finish, context.input, context.pid};
    inner.argv.insert(inner.argv.end(), rest.begin(), rest.end());
    return handler(inner);
  };
  if (service == "package") return delegate("pm", run_pm);
  if (service == "activity") return delegate("am", run_am);
  if (service == "settings") return delegate("settings", run_settings);
  if (service == "window") return delegate("wm", run_wm);
  if (service == "input") return delegate("input", run_input);
  if (service == "power") {
    const std::string verb = rest.empty() ? "" : rest[0];
    if (verb == "wakeup") {
      context.system.wake("WAKE_REASON_APPLICATION");
      return {0, nullptr};
    }
    return fail(context, "Unknown command: " + verb, 255);
  }
  if (service == "notification" && rest.size() >= 2 && rest[0] == "allow_listener") {
    AndroidSystem& system = context.system;
    std::string listeners = system.setting("secure", "enabled_notification_listeners").value_or("");
    if (listeners.find(rest[1]) == std::string::npos) {
      listeners += (listeners.empty() ? "" : ":") + rest[1];
      system.put_setting("secure", "enabled_notification_listeners", listeners);
    }
    return {0, nullptr};
  }
  return fail(context, "cmd: Can't find service: " + service, 20);
}

// A capture that takes a while (a busy GPU): the image arrives after the delay,
// unless the host went away first.
CommandResult run_screencap(CommandContext& context) {
  bool png = false;
  for (std::size_t i = 1; i < context.argv.size(); ++i) {
    const std::string& arg = context.argv[i];
    if (arg == "-p") {
      png = true;
    } else if (arg == "-d" && i + 1 < context.argv.size()) {
      ++i;
    } else if (!arg.empty() && arg[0] != '-') {
      return fail(context,
                  "screencap: cannot write " + arg +
                      ": the virtual device has no "
                      "file system (use adb exec-out screencap -p)",
                  1);
    }
  }
  if (!png) {
    return fail(context, "screencap: raw output is not supported by the virtual device; use -p", 1);
  }
  AndroidSystem& system = context.system;
  auto tree = system.ui().tree(system.now());
  std::string image = render_screenshot(*tree, system.scenario().display, system.screen_on());
  if (const int delay = system.scenario().faults.screencap_delay_ms; delay > 0) {
    return answer_later(context, std::move(image), std::chrono::milliseconds(delay));
  }
  context.output.out(image);
  return {0, nullptr};
}

namespace {

class DelayedAnswer : public RunningCommand {
 public:
  DelayedAnswer(CommandContext& context, std::string text)
      : output_(context.output), finish_(context.finish), text_(std::move(text)) {}

  static std::shared_ptr<DelayedAnswer> start(CommandContext& context, std::string text,
                                              std::chrono::milliseconds delay) {
    auto capture = std::make_shared<DelayedAnswer>(context, std::move(text));
    std::weak_ptr<DelayedAnswer> weak = capture;
    context.system.events().after(delay, [weak] {
      if (auto alive = weak.lock(); alive && !alive->stopped_) {
        alive->stopped_ = true;
        alive->output_.out(alive->text_);
        alive->finish_(0);
      }
    });
    return capture;
  }

  void stop() override { stopped_ = true; }

 private:
  CommandOutput& output_;
  std::function<void(int)> finish_;
  std::string text_;
  bool stopped_ = false;
};

}  // namespace

CommandResult answer_later(CommandContext& context, std::string text,
                           std::chrono::milliseconds delay) {
  return {0, DelayedAnswer::start(context, std::move(text), delay)};
}

}  // namespace clawperator::vdevice::android
