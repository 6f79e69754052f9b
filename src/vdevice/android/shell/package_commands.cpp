// pm and dumpsys: what the package manager and the system services tell the shell.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {
namespace {

constexpr std::string_view kIllegalArgument = "java.lang.IllegalArgumentException";

std::string hex_id(const std::string& seed) {
  std::uint32_t hash = 2166136261U;
  for (const char c : seed) hash = (hash ^ static_cast<unsigned char>(c)) * 16777619U;
  char text[16];
  std::snprintf(text, sizeof text, "%07x", hash & 0xFFFFFFFU);
  return text;
}

CommandResult list_packages(CommandContext& context, std::size_t first) {
  bool paths = false;
  bool system_only = false;
  bool third_party = false;
  bool uids = false;
  bool installers = false;
  std::string filter;
  const auto& argv = context.argv;
  for (std::size_t i = first; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg == "--user" || arg == "--uid" || arg == "--show-versioncode") {
      if (arg != "--show-versioncode") ++i;
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      for (const char flag : arg.substr(1)) {
        switch (flag) {
          case 'f':
            paths = true;
            break;
          case 's':
            system_only = true;
            break;
          case '3':
            third_party = true;
            break;
          case 'U':
            uids = true;
            break;
          case 'i':
            installers = true;
            break;
          case 'd':
          case 'e':
          case 'u':
          case 'a':
            break;
          default:
            return fail(context, "Error: Unknown option: " + arg, 255);
        }
      }
      continue;
    }
    filter = arg;
  }
  std::string out;
  for (const PackageSpec& package : context.system.scenario().packages) {
    if (system_only && !package.system) continue;
    if (third_party && package.system) continue;
    if (!filter.empty() && package.name.find(filter) == std::string::npos) continue;
    out += "package:";
    if (paths) out += package.code_path + "=";
    out += package.name;
    if (installers) out += package.system ? "  installer=null" : "  installer=com.android.shell";
    if (uids) out += " uid:" + std::to_string(package.uid);
    out += "\n";
  }
  if (const int delay = context.system.scenario().faults.package_list_delay_ms; delay > 0) {
    return answer_later(context, std::move(out), std::chrono::milliseconds(delay));
  }
  context.output.out(out);
  return {0, nullptr};
}

CommandResult grant(CommandContext& context, bool granting) {
  const std::string verb = granting ? "grant" : "revoke";
  std::vector<std::string> args(context.argv.begin() + 2, context.argv.end());
  if (args.size() >= 2 && args[0] == "--user") args.erase(args.begin(), args.begin() + 2);
  if (args.size() != 2) return fail(context, "Error: no package or permission specified", 255);
  AndroidSystem& system = context.system;
  if (system.package(args[0]) == nullptr) {
    return java_exception(context, verb, kIllegalArgument, "Unknown package: " + args[0]);
  }
  if (args[1].rfind("android.permission.", 0) != 0) {
    return java_exception(context, verb, kIllegalArgument, "Unknown permission: " + args[1]);
  }
  auto& granted = system.granted_permissions(args[0]);
  if (granting) {
    granted.insert(args[1]);
  } else {
    granted.erase(args[1]);
  }
  return {0, nullptr};
}

std::string package_dump(AndroidSystem& system, const PackageSpec& package) {
  const std::string id = hex_id(package.name);
  std::string out;
  out += "Activity Resolver Table:\n  Non-Data Actions:\n      android.intent.action.MAIN:\n";
  out += "        " + hex_id(package.launch_activity) + " " + package.launch_activity + " filter " +
         hex_id(package.name + "/filter") + "\n\n";
  out += "Packages:\n";
  out += "  Package [" + package.name + "] (" + id + "):\n";
  out += "    userId=" + std::to_string(package.uid) + "\n";
  out += "    pkg=Package{" + hex_id(package.name + "/pkg") + " " + package.name + "}\n";
  const std::string folder = package.code_path.substr(0, package.code_path.rfind('/'));
  out += "    codePath=" + folder + "\n";
  out += "    resourcePath=" + folder + "\n";
  out += "    primaryCpuAbi=" + system.property("ro.product.cpu.abi").value_or("null") + "\n";
  out += "    versionCode=" + std::to_string(package.version_code) +
         " minSdk=26 targetSdk=" + system.property("ro.build.version.sdk").value_or("34") + "\n";
  out += "    versionName=" + package.version_name + "\n";
  out += std::string("    flags=[ ") + (package.system ? "SYSTEM " : "") +
         "HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]\n";
  out += "    timeStamp=2024-02-05 10:21:07\n";
  out += "    lastUpdateTime=2024-02-05 10:21:09\n";
  out += std::string("    installerPackageName=") +
         (package.system ? "null" : "com.android.shell") + "\n";
  out += "    User 0: ceDataInode=" + std::to_string(package.uid * 37 + 1200) +
         " installed=true hidden=false suspended=false distractionFlags=0 stopped=" +
         (system.ui().is_running(package.name) ? "false" : "true") +
         " notLaunched=false enabled=0 instant=false virtual=false\n";
  out += "      runtime permissions:\n";
  for (const std::string& permission : system.granted_permissions(package.name)) {
    out += "        " + permission + ": granted=true, flags=[ USER_SET ]\n";
  }
  return out;
}

CommandResult dump_package(CommandContext& context, const std::string& name) {
  const PackageSpec* package = context.system.package(name);
  if (package == nullptr) {
    context.output.out("\nDexopt state:\n  Unable to find package: " + name + "\n");
    return {0, nullptr};
  }
  context.output.out(package_dump(context.system, *package));
  return {0, nullptr};
}

}  // namespace

CommandResult run_pm(CommandContext& context) {
  const auto& argv = context.argv;
  const std::string verb = argv.size() > 1 ? argv[1] : "";
  if (verb == "list" && argv.size() > 2 && argv[2] == "packages") {
    return list_packages(context, 3);
  }
  if (verb == "path" && argv.size() > 2) {
    const PackageSpec* package = context.system.package(argv.back());
    if (package == nullptr) return {1, nullptr};
    context.output.out("package:" + package->code_path + "\n");
    return {0, nullptr};
  }
  if (verb == "grant") return grant(context, true);
  if (verb == "revoke") return grant(context, false);
  if (verb == "dump" && argv.size() > 2) return dump_package(context, argv[2]);
  if (verb == "clear" && argv.size() > 2) {
    if (context.system.package(argv.back()) == nullptr) {
      context.output.out("Failed\n");
      return {1, nullptr};
    }
    context.system.force_stop(argv.back(), "from pid 0 (pm clear)");
    context.output.out("Success\n");
    return {0, nullptr};
  }
  if (verb == "install") return run_pm_install(context);
  if (verb == "uninstall") return run_pm_uninstall(context);
  if (verb.starts_with("install-")) {
    return fail(context,
                "Error: the virtual device has no install sessions (" + verb +
                    "); stream the APK with pm install -S SIZE",
                1);
  }
  return fail(context, "Unknown command: " + verb, 255);
}

CommandResult run_dumpsys(CommandContext& context) {
  const auto& argv = context.argv;
  const std::string service = argv.size() > 1 ? argv[1] : "";
  AndroidSystem& system = context.system;
  if (service == "package") {
    if (argv.size() > 2) return dump_package(context, argv.back());
    std::string out;
    for (const PackageSpec& package : system.scenario().packages) {
      out += package_dump(system, package) + "\n";
    }
    context.output.out(out);
    return {0, nullptr};
  }
  if (service == "window") {
    const std::string activity = system.ui().foreground_activity();
    context.output.out("WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mCurrentFocus=Window{" +
                       hex_id(activity) + " u0 " + activity + "}\n  mFocusedApp=ActivityRecord{" +
                       hex_id(activity + "/r") + " u0 " + activity + "}\n");
    return {0, nullptr};
  }
  if (service == "power") {
    context.output.out(std::string("POWER MANAGER (dumpsys power)\n  mWakefulness=") +
                       (system.screen_on() ? "Awake" : "Asleep") +
                       "\n  mIsPowered=true\n  mStayOn=false\n");
    return {0, nullptr};
  }
  context.output.out("Can't find service: " + service + "\n");
  return {0, nullptr};
}

}  // namespace clawperator::vdevice::android
