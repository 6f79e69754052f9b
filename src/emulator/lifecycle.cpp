// create, start, stop and delete (docs/emulator.md); the original's lifecycle.ts with its
// command lines and deadlines, and the waits it lacked (a stop that returns when the emulator
// is gone, a start that takes back what it started when it fails).
#include "clawperator/emulator/lifecycle.hpp"

#include <algorithm>
#include <cstring>

#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/process/detached.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/text.hpp"
#include "emulator_errors.hpp"

namespace clawperator::emulator {

namespace {

using std::chrono::milliseconds;

constexpr milliseconds kListTimeout{10000};
constexpr milliseconds kListInstalledTimeout{30000};
constexpr milliseconds kLicencesTimeout{120000};
constexpr milliseconds kImageInstallTimeout{300000};
constexpr milliseconds kCreateTimeout{120000};
constexpr milliseconds kDeleteTimeout{60000};
constexpr milliseconds kHelpTimeout{5000};

// The animation scales a CI run turns off: a test then never waits on a transition.
constexpr const char* kAnimationScales[] = {"window_animation_scale", "transition_animation_scale",
                                            "animator_duration_scale"};

process::Completion run_tool(EmulatorHost& host, std::vector<std::string> argv,
                             milliseconds timeout, std::string stdin_text = {}) {
  process::CommandSpec spec;
  spec.argv = std::move(argv);
  spec.timeout = host.adb.within_deadline(timeout);
  spec.stdin_text = std::move(stdin_text);
  return host.runner.run(spec);
}

contract::Outcome<std::vector<std::string>> configured_names(EmulatorHost& host) {
  const process::Completion listed =
      run_tool(host, {host.tools.emulator, "-list-avds"}, kListTimeout);
  CLAWPERATOR_TRY(tool_failure(listed, "emulator", "emulator -list-avds", "EMULATOR_NOT_FOUND"));
  std::vector<std::string> names;
  std::string_view text = listed.out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = trim(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    // The emulator prints its own notices ("INFO | …") on stdout on some versions.
    if (!line.empty() && is_valid_avd_name(line)) names.emplace_back(line);
  }
  return names;
}

const RunningEmulator* running_named(const std::vector<RunningEmulator>& running,
                                     const std::string& name) {
  const auto found = std::find_if(running.begin(), running.end(),
                                  [&name](const RunningEmulator& e) { return e.avd_name == name; });
  return found == running.end() ? nullptr : &*found;
}

contract::Status require_valid_name(const std::string& name) {
  if (is_valid_avd_name(name)) return {};
  contract::HostError error = contract::usage_error(
      "USAGE", "Invalid AVD name '" + name +
                   "': use letters, digits, '.', '_' and '-' (not first), at most 128");
  error.details["name"] = name;
  return contract::failed(std::move(error));
}

contract::Status ensure_image_installed(EmulatorHost& host, const std::string& image) {
  const Json details{{"systemImage", image}};
  const process::Completion listed =
      run_tool(host, {host.tools.sdkmanager, "--list_installed"}, kListInstalledTimeout);
  CLAWPERATOR_TRY(tool_failure(listed, "sdkmanager", "sdkmanager --list_installed",
                               "ANDROID_SYSTEM_IMAGE_INSTALL_FAILED", details));
  if (listed.out.find(image) != std::string::npos) return {};
  std::string answers;
  for (int i = 0; i < 100; ++i) answers += "y\n";
  const process::Completion licences =
      run_tool(host, {host.tools.sdkmanager, "--licenses"}, kLicencesTimeout, answers);
  CLAWPERATOR_TRY(tool_failure(licences, "sdkmanager", "sdkmanager --licenses",
                               "ANDROID_SYSTEM_IMAGE_INSTALL_FAILED", details));
  const process::Completion installed =
      run_tool(host, {host.tools.sdkmanager, image}, kImageInstallTimeout);
  CLAWPERATOR_TRY(tool_failure(installed, "sdkmanager", "sdkmanager " + image,
                               "ANDROID_SYSTEM_IMAGE_INSTALL_FAILED", details));
  return {};
}

contract::Status put_global(EmulatorHost& host, const std::string& serial, const char* key,
                            const char* value) {
  const std::string command = std::string("settings put global ") + key + " " + value;
  auto result = adb::run_device_shell_checked(host.adb, serial,
                                              {command, "settings put global " + std::string(key),
                                               adb::kShellTimeout, "EMULATOR_START_FAILED"});
  if (!result) {
    contract::HostError error = std::move(result).error();
    error.details["serial"] = serial;
    return contract::failed(std::move(error));
  }
  return {};
}

// Waits until adb lists `name`'s emulator (its serial), while checking that the process we
// started has not died.
contract::Outcome<std::string> wait_for_registration(EmulatorHost& host, const std::string& name,
                                                     process::DetachedProcess& child,
                                                     milliseconds timeout,
                                                     const std::optional<std::string>& log) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (true) {
    std::string how;
    if (child.exited(how)) {
      Json details{{"name", name}};
      if (log) details["logFile"] = *log;
      return contract::failed(
          emulator_error("EMULATOR_START_FAILED",
                         "The emulator for " + name + " " + how + " before it appeared in adb" +
                             (log ? " (its output: " + *log + ")" : std::string()),
                         std::move(details)));
    }
    CLAWPERATOR_TRY_ASSIGN(auto running, list_running(host, /*with_boot_state=*/false));
    if (const RunningEmulator* found = running_named(running, name)) return found->serial;
    if (std::chrono::steady_clock::now() >= until) {
      return contract::failed(emulator_error(
          "EMULATOR_START_FAILED", "Timed out waiting for emulator " + name + " to appear in adb",
          Json{{"name", name}, {"timeoutMs", timeout.count()}}));
    }
    CLAWPERATOR_TRY(pause(host, kPollInterval));
  }
}

}  // namespace

contract::Outcome<std::vector<ConfiguredAvd>> list_configured(
    EmulatorHost& host, const std::vector<RunningEmulator>& running) {
  CLAWPERATOR_TRY_ASSIGN(auto names, configured_names(host));
  std::vector<ConfiguredAvd> avds;
  for (const std::string& name : names) {
    avds.push_back(read_configured_avd(host.tools.avd_home, name, host.wanted,
                                       running_named(running, name) != nullptr));
  }
  return avds;
}

std::optional<bool> tool_answers(process::Runner& runner, std::vector<std::string> argv) {
  process::CommandSpec spec;
  spec.argv = std::move(argv);
  spec.timeout = kHelpTimeout;
  const process::Completion answered = runner.run(spec);
  using Status = process::Completion::Status;
  if (answered.status == Status::Cancelled) return std::nullopt;
  return answered.status != Status::SpawnFailed &&
         ((answered.status == Status::Exited && answered.exit_code <= 1) || !answered.out.empty() ||
          !answered.err.empty());
}

contract::Status require_tools(EmulatorHost& host) {
  std::vector<std::string> missing;
  const std::pair<const char*, std::vector<std::string>> probes[] = {
      {"adb", {host.adb.settings().executable, "version"}},
      {"emulator", {host.tools.emulator, "-help"}},
      {"sdkmanager", {host.tools.sdkmanager, "--help"}},
      {"avdmanager", {host.tools.avdmanager, "--help"}},
  };
  for (const auto& [name, argv] : probes) {
    const std::optional<bool> there = tool_answers(host.runner, argv);
    if (!there) {
      return contract::failed(contract::interrupted_error(
          "Interrupted while checking the SDK tools", process::interrupted_signal()));
    }
    if (!*there) missing.emplace_back(name);
  }
  if (missing.empty()) return {};
  std::string list;
  for (const std::string& name : missing) list += (list.empty() ? "" : ", ") + name;
  return contract::failed(emulator_error("ANDROID_SDK_TOOL_MISSING",
                                         "Required Android SDK tools are missing: " + list,
                                         Json{{"missingTools", missing}}));
}

contract::Outcome<ConfiguredAvd> create_avd(EmulatorHost& host, const CreateOptions& options) {
  CLAWPERATOR_TRY(require_valid_name(options.name));
  const std::string image = system_image_package(host.wanted);
  const Json details{
      {"name", options.name}, {"systemImage", image}, {"deviceProfile", host.wanted.profile}};
  const ConfiguredAvd existing =
      read_configured_avd(host.tools.avd_home, options.name, host.wanted, false);
  // avdmanager's --force replaces an AVD without a word: a user's AVD is replaced only when
  // they ask.
  if (existing.exists && !options.force) {
    return contract::failed(emulator_error(
        "ANDROID_AVD_CREATE_FAILED",
        "AVD " + options.name + " already exists; pass --force to replace it", details));
  }
  CLAWPERATOR_TRY(ensure_image_installed(host, image));
  // stdin answers avdmanager's "Do you wish to create a custom hardware profile?": no.
  const process::Completion created =
      run_tool(host,
               {host.tools.avdmanager, "create", "avd", "--force", "--name", options.name,
                "--package", image, "--device", host.wanted.profile},
               kCreateTimeout, "no\n");
  CLAWPERATOR_TRY(tool_failure(created, "avdmanager", "avdmanager create avd",
                               "ANDROID_AVD_CREATE_FAILED", details));
  return read_configured_avd(host.tools.avd_home, options.name, host.wanted, false);
}

contract::Status prepare_booted(EmulatorHost& host, const std::string& serial,
                                bool keep_animations) {
  for (const char* key : {"development_settings_enabled", "adb_enabled"}) {
    CLAWPERATOR_TRY(put_global(host, serial, key, "1"));
  }
  if (keep_animations) return {};
  for (const char* key : kAnimationScales) {
    CLAWPERATOR_TRY(put_global(host, serial, key, "0"));
  }
  return {};
}

contract::Outcome<Json> start_avd(EmulatorHost& host, const std::string& name,
                                  const StartOptions& options) {
  CLAWPERATOR_TRY(require_valid_name(name));
  const ConfiguredAvd avd = read_configured_avd(host.tools.avd_home, name, host.wanted, false);
  if (!avd.exists) {
    return contract::failed(
        emulator_error("EMULATOR_NOT_FOUND", "AVD " + name + " not found", Json{{"name", name}}));
  }
  CLAWPERATOR_TRY_ASSIGN(auto running, list_running(host, /*with_boot_state=*/false));
  if (const RunningEmulator* up = running_named(running, name)) {
    return contract::failed(emulator_error("EMULATOR_ALREADY_RUNNING",
                                           "Emulator " + name + " is already running",
                                           Json{{"name", name}, {"serial", up->serial}}));
  }

  std::vector<std::string> argv{host.tools.emulator, "@" + name, "-no-snapshot-load",
                                "-no-boot-anim"};
  if (options.headless) {
    for (const char* arg : {"-no-window", "-no-audio", "-gpu", "swiftshader_indirect"}) {
      argv.emplace_back(arg);
    }
  }
  if (options.wipe) argv.emplace_back("-wipe-data");
  argv.insert(argv.end(), options.emulator_args.begin(), options.emulator_args.end());
  std::optional<std::string> log;
  if (host.log_directory) log = (*host.log_directory / ("emulator-" + name + ".log")).string();
  process::DetachedProcess child;
  if (const int spawned = child.spawn(argv, log ? *log : "/dev/null"); spawned != 0) {
    if (process::spawn_error_is_not_found(spawned)) {
      return contract::failed(emulator_error("ANDROID_SDK_TOOL_MISSING",
                                             "Required Android SDK tools are missing: emulator",
                                             Json{{"missingTools", Json::array({"emulator"})}}));
    }
    return contract::failed(
        emulator_error("EMULATOR_START_FAILED",
                       "Cannot start the emulator: " + std::string(std::strerror(spawned)),
                       Json{{"name", name}, {"errno", spawned}}));
  }

  // From here on a failure stops the emulator it started: a CI job that gives up must not
  // leave one running (the child's destructor only reaps; stop() ends its session).
  const auto give_up = [&child](contract::HostError error) {
    child.stop();
    error.details["emulatorStopped"] = true;
    return contract::failed(std::move(error));
  };
  // --boot-timeout bounds the whole start: a CI job that allows 30 s means 30 s.
  const milliseconds registration = std::min(options.registration_timeout, options.boot_timeout);
  const auto registered_by = std::chrono::steady_clock::now();
  auto serial = wait_for_registration(host, name, child, registration, log);
  if (!serial) return give_up(std::move(serial).error());
  const milliseconds spent =
      std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - registered_by);
  const milliseconds boot_left = std::max(options.boot_timeout - spent, milliseconds(1));
  if (auto booted = wait_for_boot(host, *serial, boot_left); !booted) {
    contract::HostError error = std::move(booted).error();
    if (error.details.contains("timeoutMs")) {
      error.details["timeoutMs"] = options.boot_timeout.count();
      error.message = "Timed out after " + std::to_string(options.boot_timeout.count()) +
                      " ms waiting for " + *serial + " to finish booting";
    }
    return give_up(std::move(error));
  }
  if (auto prepared = prepare_booted(host, *serial, options.keep_animations); !prepared) {
    return give_up(std::move(prepared).error());
  }
  child.release();
  Json out = Json::object();
  out["type"] = "emulator";
  out["avdName"] = name;
  out["serial"] = *serial;
  out["booted"] = true;
  out["animationsDisabled"] = !options.keep_animations;
  out["logFile"] = log ? Json(*log) : Json(nullptr);
  return out;
}

contract::Outcome<Json> stop_avd(EmulatorHost& host, const std::string& name,
                                 milliseconds timeout) {
  CLAWPERATOR_TRY(require_valid_name(name));
  CLAWPERATOR_TRY_ASSIGN(auto running, list_running(host, /*with_boot_state=*/false));
  const RunningEmulator* up = running_named(running, name);
  if (up == nullptr) {
    return contract::failed(emulator_error(
        "EMULATOR_NOT_RUNNING", "Emulator " + name + " is not running", Json{{"name", name}}));
  }
  const std::string serial = up->serial;
  const process::Completion killed = host.adb.emu(serial, {"kill"}, adb::kShellTimeout);
  if (auto status = adb::adb_call_failure(killed, host.adb.settings(), "adb emu kill",
                                          "EMULATOR_STOP_FAILED", serial);
      !status) {
    status.error().code = status.error().code == "RESULT_TRANSPORT_CANCELLED"
                              ? status.error().code
                              : "EMULATOR_STOP_FAILED";
    status.error().details["name"] = name;
    status.error().details["serial"] = serial;
    return contract::failed(std::move(status.error()));
  }
  // adb exits 0 whatever the console answered: its refusal is in the text.
  if (killed.out.find("KO") != std::string::npos) {
    return contract::failed(emulator_error(
        "EMULATOR_STOP_FAILED", "The console of " + serial + " refused kill: " + killed.out,
        Json{{"name", name}, {"serial", serial}, {"stdout", killed.out}}));
  }
  // The original returned at once; a CI job that deletes the AVD next needs it gone.
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const process::Completion devices = host.adb.devices();
    if (auto status =
            adb::adb_call_failure(devices, host.adb.settings(), "adb devices", "ADB_SERVER_FAILED");
        !status) {
      return contract::failed(std::move(status.error()));
    }
    const auto listed = adb::parse_device_list(devices.out);
    const bool gone = std::none_of(listed.begin(), listed.end(),
                                   [&serial](const auto& entry) { return entry.serial == serial; });
    if (gone) break;
    if (std::chrono::steady_clock::now() >= until) {
      return contract::failed(emulator_error(
          "EMULATOR_STOP_FAILED",
          "Emulator " + name + " (" + serial + ") was asked to stop but adb still lists it after " +
              std::to_string(timeout.count()) + " ms",
          Json{{"name", name}, {"serial", serial}, {"timeoutMs", timeout.count()}}));
    }
    CLAWPERATOR_TRY(pause(host, kPollInterval));
  }
  return Json{{"avdName", name}, {"serial", serial}, {"stopped", true}};
}

contract::Outcome<Json> delete_avd(EmulatorHost& host, const std::string& name) {
  CLAWPERATOR_TRY(require_valid_name(name));
  CLAWPERATOR_TRY_ASSIGN(auto running, list_running(host, /*with_boot_state=*/false));
  if (running_named(running, name) != nullptr) {
    return contract::failed(emulator_error("EMULATOR_ALREADY_RUNNING",
                                           "Cannot delete running emulator " + name,
                                           Json{{"name", name}}));
  }
  if (!read_configured_avd(host.tools.avd_home, name, host.wanted, false).exists) {
    return contract::failed(emulator_error("EMULATOR_NOT_FOUND", "AVD " + name + " does not exist",
                                           Json{{"name", name}}));
  }
  const process::Completion deleted =
      run_tool(host, {host.tools.avdmanager, "delete", "avd", "--name", name}, kDeleteTimeout);
  if (auto status = tool_failure(deleted, "avdmanager", "avdmanager delete avd",
                                 "EMULATOR_DELETE_FAILED", Json{{"name", name}});
      !status) {
    return contract::failed(std::move(status.error()));
  }
  return Json{{"avdName", name}, {"deleted", true}};
}

}  // namespace clawperator::emulator
