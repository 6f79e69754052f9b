// am: starting activities, force-stopping apps and sending broadcasts, including the one
// that carries the Operator's payload.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vdevice/android/operator/operator_runtime.hpp"
#include "vdevice/android/operator/result_forger.hpp"
#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {
namespace {

// Beyond this the binder transaction fails, as on a real device.
constexpr std::size_t kMaxTransactionBytes = 1000000;

struct Intent {
  std::string action;
  std::string data;
  std::string type;
  std::string package;
  std::string component;
  std::vector<std::string> categories;
  unsigned long flags = 0;
  std::vector<std::pair<std::string, std::string>> string_extras;
  bool has_extras = false;
  bool wait = false;
  std::size_t extra_bytes = 0;

  std::optional<std::string> string_extra(const std::string& key) const {
    for (const auto& [name, value] : string_extras) {
      if (name == key) return value;
    }
    return std::nullopt;
  }

  // Intent.toShortString(): act, cat, dat, typ, flg, pkg, cmp, then (has extras).
  std::string describe() const {
    std::string out = "Intent { ";
    if (!action.empty()) out += "act=" + action + " ";
    if (!categories.empty()) {
      out += "cat=[";
      for (std::size_t i = 0; i < categories.size(); ++i) {
        out += (i > 0 ? "," : "") + categories[i];
      }
      out += "] ";
    }
    if (!data.empty()) out += "dat=" + data + " ";
    if (!type.empty()) out += "typ=" + type + " ";
    if (flags != 0) {
      char text[24];
      std::snprintf(text, sizeof text, "flg=0x%lx ", flags);
      out += text;
    }
    if (!package.empty()) out += "pkg=" + package + " ";
    if (!component.empty()) out += "cmp=" + component + " ";
    if (has_extras) out += "(has extras) ";
    return out + "}";
  }
};

// Parses `am` intent arguments from argv[first]. Returns an error message on a bad option.
std::optional<std::string> parse_intent(const std::vector<std::string>& argv, std::size_t first,
                                        Intent& intent) {
  static const char* const kExtraOptions[] = {
      "--ez",  "--ei",   "--el",  "--ef",   "--ed",  "--eu",   "--ecn", "--eia", "--eial",
      "--ela", "--elal", "--efa", "--efal", "--esa", "--esal", "--eda", "--edal"};
  static const char* const kValueOptions[] = {
      "--user",    "--receiver-permission", "-R",
      "-P",        "--start-profiler",      "--sampling",
      "--display", "--windowingMode",       "--activityType",
      "--task"};
  for (std::size_t i = first; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    auto value = [&](std::size_t count) -> bool { return i + count < argv.size(); };
    if (arg == "-a" && value(1)) {
      intent.action = argv[++i];
    } else if (arg == "-d" && value(1)) {
      intent.data = argv[++i];
    } else if (arg == "-t" && value(1)) {
      intent.type = argv[++i];
    } else if (arg == "-c" && value(1)) {
      intent.categories.push_back(argv[++i]);
    } else if (arg == "-n" && value(1)) {
      intent.component = argv[++i];
    } else if (arg == "-p" && value(1)) {
      intent.package = argv[++i];
    } else if (arg == "-f" && value(1)) {
      intent.flags |= std::strtoul(argv[++i].c_str(), nullptr, 0);
    } else if ((arg == "--es" || arg == "-e") && value(2)) {
      intent.string_extras.emplace_back(argv[i + 1], argv[i + 2]);
      intent.extra_bytes += argv[i + 1].size() + argv[i + 2].size();
      intent.has_extras = true;
      i += 2;
    } else if (arg == "--esn" && value(1)) {
      intent.has_extras = true;
      ++i;
    } else if (std::find(std::begin(kExtraOptions), std::end(kExtraOptions), arg) !=
                   std::end(kExtraOptions) &&
               value(2)) {
      intent.extra_bytes += argv[i + 1].size() + argv[i + 2].size();
      intent.has_extras = true;
      i += 2;
    } else if (std::find(std::begin(kValueOptions), std::end(kValueOptions), arg) !=
                   std::end(kValueOptions) &&
               value(1)) {
      ++i;
    } else if (arg == "-W") {
      intent.wait = true;
    } else if (arg == "--receiver-foreground" || arg == "--receiver-registered-only" ||
               arg == "--include-stopped-packages" || arg == "--exclude-stopped-packages" ||
               arg == "-S" || arg == "-D" || arg == "-N" || arg == "--streaming" ||
               arg.rfind("--activity-", 0) == 0 || arg == "--debug-log-resolution") {
      continue;
    } else if (!arg.empty() && arg[0] == '-') {
      return "Error: Unknown option: " + arg;
    } else if (intent.data.empty() && arg.find(':') != std::string::npos && arg.find('/') != 0) {
      intent.data = arg;  // a bare URI argument
    } else {
      intent.component = arg;
    }
  }
  return std::nullopt;
}

// A broadcast whose answer never comes: the connection is dropped under it.
class Unanswered : public RunningCommand {};

CommandResult broadcast(CommandContext& context) {
  Intent intent;
  if (auto error = parse_intent(context.argv, 2, intent)) return fail(context, *error, 255);
  // FLAG_RECEIVER_FROM_SHELL, which the shell command always adds.
  intent.flags |= 0x400000;
  if (intent.extra_bytes > kMaxTransactionBytes) {
    return fail(context,
                "Exception occurred while executing 'broadcast':\n"
                "android.os.TransactionTooLargeException: data parcel size " +
                    std::to_string(intent.extra_bytes + 1024) + " bytes",
                255);
  }
  AndroidSystem& system = context.system;
  const FaultSpec& faults = system.scenario().faults;
  const bool to_operator = intent.action == kAgentCommandAction;
  const auto payload = intent.string_extra("payload");
  const bool faulty = to_operator && system.operator_runtime().faults_apply(payload);

  if (faulty && faults.broadcast_refused) {
    return fail(context, "Error: Target package not found: " + intent.package, 255);
  }
  if (faulty && faults.drop_connection_before_dispatch) {
    // The transport may tear this very stream down: not from inside the command.
    system.events().after(std::chrono::milliseconds(0), [&system] { system.drop_connections(); });
    return {0, std::make_shared<Unanswered>()};
  }
  const bool prepare = intent.action == kPrepareResultConnectionAction;
  std::vector<std::string> receivers;
  if (to_operator || prepare) {
    for (const PackageSpec& package : system.scenario().packages) {
      if (package.operator_app && (intent.package.empty() || intent.package == package.name)) {
        receivers.push_back(package.name);
      }
    }
  }
  context.output.out("Broadcasting: " + intent.describe() + "\n");
  if (prepare) {
    // The receiver runs before `am broadcast` answers: its socket listens by then.
    for (const std::string& receiver : receivers) {
      system.operator_runtime().prepare_result_connection(receiver, payload);
    }
  }
  context.output.out("Broadcast completed: result=0\n");
  if (prepare) return {0, nullptr};
  const auto result_session = intent.string_extra("result_session");
  // The Operators get the command; so does the forger, if the scenario has one.
  auto dispatch = [&system, receivers, payload, faulty, result_session] {
    for (const std::string& receiver : receivers) {
      system.operator_runtime().receive(receiver, payload, faulty, result_session);
    }
    if (!receivers.empty()) system.forger().overhear(payload);
  };
  if (faulty && faults.drop_connection_after_dispatch) {
    // The Operator only gets to answer once nobody listens any more.
    system.events().after(std::chrono::milliseconds(faults.drop_delay_ms), [&system, dispatch] {
      system.drop_connections();
      dispatch();
    });
    return {0, nullptr};
  }
  dispatch();
  return {0, nullptr};
}

CommandResult start(CommandContext& context) {
  Intent intent;
  if (auto error = parse_intent(context.argv, 2, intent)) return fail(context, *error, 255);
  AndroidSystem& system = context.system;
  context.output.out("Starting: " + intent.describe() + "\n");
  std::string started;
  if (!intent.component.empty()) {
    const std::string package = intent.component.substr(0, intent.component.find('/'));
    const PackageSpec* spec = system.package(package);
    if (spec == nullptr || spec->launch_screen.empty() ||
        !system.start_app(package, "cmp=" + intent.component)) {
      return fail(context,
                  "Error type 3\nError: Activity class {" + intent.component + "} does not exist.",
                  1);
    }
    started = spec->launch_activity;
  } else if (!intent.data.empty()) {
    intent.flags |= 0x10000000;
    if (!system.start_uri(intent.data, "act=" + intent.action + " dat=" + intent.data)) {
      return fail(context, "Error: Activity not started, unable to resolve " + intent.describe(),
                  1);
    }
    started = system.ui().foreground_activity();
  } else if (!intent.package.empty() && system.start_app(intent.package, "")) {
    started = system.package(intent.package)->launch_activity;
  } else {
    return fail(context, "Error: Activity not started, unable to resolve " + intent.describe(), 1);
  }
  if (intent.wait) {
    const int total = system.scenario().operator_behavior.launch_delay_ms + 250;
    context.output.out("Status: ok\nLaunchState: COLD\nActivity: " + started +
                       "\nTotalTime: " + std::to_string(total) +
                       "\nWaitTime: " + std::to_string(total + 4) + "\nComplete\n");
  }
  return {0, nullptr};
}

}  // namespace

CommandResult run_am(CommandContext& context) {
  const auto& argv = context.argv;
  const std::string verb = argv.size() > 1 ? argv[1] : "";
  AndroidSystem& system = context.system;
  if (verb == "broadcast") return broadcast(context);
  if (verb == "start" || verb == "start-activity") return start(context);
  if (verb == "force-stop" || verb == "kill") {
    std::vector<std::string> args(argv.begin() + 2, argv.end());
    if (args.size() >= 2 && args[0] == "--user") args.erase(args.begin(), args.begin() + 2);
    if (args.empty()) return fail(context, "Error: no package specified", 255);
    if (verb == "force-stop") system.force_stop(args[0], "from pid 0 (am force-stop)");
    return {0, nullptr};
  }
  if (verb == "get-current-user") {
    context.output.out("0\n");
    return {0, nullptr};
  }
  if (verb == "get-started-user-state") {
    context.output.out(system.user_unlocked() ? "RUNNING_UNLOCKED\n" : "RUNNING_LOCKED\n");
    return {0, nullptr};
  }
  return fail(context, "Unknown command: " + verb, 255);
}

}  // namespace clawperator::vdevice::android
