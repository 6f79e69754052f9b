#include "clawperator/exec/preflight.hpp"

#include <charconv>
#include <csignal>
#include <cstring>

#include "clawperator/adb/adb_errors.hpp"
#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/package_list.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::exec {
namespace {

using contract::HostError;
using process::Completion;

std::string first_line(std::string_view text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {};
  text.remove_prefix(start);
  return std::string(text.substr(0, text.find_first_of("\r\n")));
}

std::string tail(std::string_view text, std::size_t limit = 8192) {
  return std::string(text.size() > limit ? text.substr(text.size() - limit) : text);
}

std::string message_for(std::string_view code, const ExecutionTrace& trace,
                        std::string_view adb_text) {
  const std::string device = trace.device_id.value_or("the device");
  if (code == "NO_DEVICES") return "No connected devices";
  if (code == "DEVICE_NOT_FOUND") return "Device " + device + " not found or not in device state";
  if (code == "DEVICE_UNAUTHORIZED") {
    return "Device " + device + " is unauthorized: accept the USB debugging prompt on the device";
  }
  if (code == "DEVICE_OFFLINE") return "Device " + device + " is offline";
  if (code == "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED") {
    return "Multiple devices are connected; choose one with --device";
  }
  if (code == "ADB_NO_USB_PERMISSIONS") return "adb has no permission to open " + device;
  return "adb failed: " + first_line(adb_text);
}

std::string hint_for(std::string_view code) {
  if (code == "ADB_SERVER_FAILED") {
    return "Run 'adb kill-server && adb start-server', or check --adb-server / "
           "ANDROID_ADB_SERVER_PORT, then retry.";
  }
  if (code == "DEVICE_NOT_FOUND" || code == "NO_DEVICES" ||
      code == "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED") {
    return "Run 'clawperator devices' and pass one of the listed serials with --device.";
  }
  if (code == "DEVICE_UNAUTHORIZED") {
    return "Unlock the device and accept the 'Allow USB debugging' dialog, then retry.";
  }
  if (code == "DEVICE_OFFLINE") return "Reconnect the device (or run 'adb reconnect'), then retry.";
  return "Run 'clawperator doctor' to diagnose the device, then retry.";
}

}  // namespace

std::string with_exit_marker(const std::string& command) {
  return command + "; echo " + std::string(kExitMarker) + "$?";
}

ShellOutput split_exit_marker(std::string_view stdout_text) {
  ShellOutput output;
  const auto marker = stdout_text.rfind(kExitMarker);
  if (marker == std::string_view::npos || (marker > 0 && stdout_text[marker - 1] != '\n')) {
    output.text = std::string(stdout_text);
    return output;
  }
  output.text = std::string(stdout_text.substr(0, marker));
  const std::string_view rest = stdout_text.substr(marker + kExitMarker.size());
  // A shell's $? is 0..255; anything longer is not our marker's (and must not overflow).
  int value = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (error == std::errc() && end != rest.data() && value >= 0 && value <= 255) {
    output.exit_code = value;
  }
  return output;
}

std::optional<HostError> adb_call_failure(const Completion& completion, const ExecutionTrace& trace,
                                          const adb::AdbSettings& adb, std::string_view what,
                                          std::string_view fallback_code) {
  Json details = Json::object();
  details["adbCall"] = std::string(what);
  switch (completion.status) {
    case Completion::Status::Exited:
      if (completion.exit_code == 0) return std::nullopt;
      break;
    case Completion::Status::SpawnFailed: {
      const int signal = process::interrupted_signal();
      if (completion.spawn_errno == ECANCELED && signal != 0) {
        HostError error = trace.fail("RESULT_TRANSPORT_CANCELLED",
                                     "Interrupted before " + std::string(what), details);
        error.signal_exit = contract::exit_code_for_signal(signal);
        return error;
      }
      details["adbPath"] = adb.executable;
      details["processErrorCode"] = completion.spawn_errno;
      details["originalMessage"] = std::strerror(completion.spawn_errno);
      if (process::spawn_error_is_not_found(completion.spawn_errno)) {
        HostError error = trace.fail("ADB_NOT_FOUND",
                                     "ADB command not found at path: " + adb.executable, details);
        error.hint =
            "Install adb (Debian: apt-get install adb) or pass --adb PATH "
            "(or set ADB / ADB_PATH).";
        return error;
      }
      return trace.fail(
          "ADB_SERVER_FAILED",
          "Could not start adb: " + std::string(std::strerror(completion.spawn_errno)), details);
    }
    case Completion::Status::Cancelled: {
      HostError error = trace.fail("RESULT_TRANSPORT_CANCELLED",
                                   "Interrupted during " + std::string(what), details);
      error.signal_exit = contract::exit_code_for_signal(process::interrupted_signal());
      return error;
    }
    case Completion::Status::TimedOut:
      details["timedOut"] = true;
      details["elapsedMs"] = completion.elapsed.count();
      break;
    case Completion::Status::Signaled:
      details["signal"] = completion.signal;
      break;
  }
  details["exitCode"] = completion.exit_code;
  details["stderr"] = tail(completion.err);
  if (!completion.out.empty()) details["stdout"] = tail(completion.out, 2048);
  const std::string adb_text = completion.err + "\n" + completion.out;
  const auto classified = adb::classify_adb_failure(adb_text);
  const std::string code = classified.value_or(std::string(fallback_code));
  std::string message =
      classified ? message_for(code, trace, adb_text)
      : completion.status == Completion::Status::TimedOut
          ? std::string(what) + " did not finish within " +
                std::to_string(completion.elapsed.count()) + " ms"
          : std::string(what) + " failed (exit " + std::to_string(completion.exit_code) + ")" +
                (first_line(completion.err).empty() ? std::string()
                                                    : ": " + first_line(completion.err));
  HostError error = trace.fail(code, std::move(message), details);
  error.hint = hint_for(code);
  return error;
}

std::variant<std::string, HostError> resolve_device(adb::AdbClient& client,
                                                    const std::optional<std::string>& requested,
                                                    ExecutionTrace& trace) {
  if (requested) {
    trace.device_id = *requested;
    return *requested;
  }
  const Completion completion = client.devices();
  if (auto error = adb_call_failure(completion, trace, client.settings(), "adb devices",
                                    "ADB_SERVER_FAILED")) {
    return std::move(*error);
  }
  auto selected = adb::select_device(adb::parse_device_list(completion.out), std::nullopt);
  if (auto* error = std::get_if<HostError>(&selected)) {
    HostError full = trace.fail(error->code, error->message, error->details);
    full.hint = error->hint;
    return full;
  }
  trace.device_id = std::get<adb::DeviceEntry>(selected).serial;
  return *trace.device_id;
}

std::optional<HostError> check_operator_installed(adb::AdbClient& client, const std::string& serial,
                                                  const ExecutionTrace& trace) {
  const std::string& wanted = trace.operator_package;
  const std::string other = adb::alternate_operator_variant(wanted);
  const std::string& filter = wanted.size() <= other.size() ? wanted : other;
  const Completion completion = client.shell(
      serial, with_exit_marker("pm list packages " + adb::quote_for_device_shell(filter)));
  if (auto error = adb_call_failure(completion, trace, client.settings(), "pm list packages",
                                    "DEVICE_SHELL_UNAVAILABLE")) {
    return error;
  }
  const ShellOutput output = split_exit_marker(completion.out);
  if (!output.exit_code || *output.exit_code != 0) {
    Json details = Json::object();
    details["checkId"] = "readiness.apk.presence";
    details["queriedPackage"] = filter;
    details["exitCode"] = output.exit_code ? Json(*output.exit_code) : Json(nullptr);
    details["stderr"] = tail(completion.err);
    HostError error =
        trace.fail("DEVICE_SHELL_UNAVAILABLE",
                   output.exit_code ? "The device could not list its packages (pm exited " +
                                          std::to_string(*output.exit_code) + ")"
                                    : "The device shell closed before listing its packages",
                   details);
    error.hint = "Run 'clawperator doctor' to check the device shell, then retry.";
    return error;
  }
  const auto packages = adb::parse_package_list(output.text);
  if (packages.count(wanted) != 0) return std::nullopt;

  Json details = Json::object();
  details["checkId"] = "readiness.apk.presence";
  if (packages.count(other) != 0) {
    details["expectedPackage"] = wanted;
    details["installedPackage"] = other;
    details["fix"] = "Pass --operator-package " + other +
                     " to use the installed variant, or install the " + wanted + " APK.";
    HostError error = trace.fail(
        "OPERATOR_VARIANT_MISMATCH",
        "Wrong Operator variant installed: expected " + wanted + " but found " + other, details);
    error.hint = details["fix"].get<std::string>();
    return error;
  }
  const bool debug = wanted.size() > other.size();
  std::string install = "clawperator operator setup --apk ~/.clawperator/downloads/operator" +
                        std::string(debug ? "-debug" : "") + ".apk --device " + serial;
  if (wanted != "com.clawperator.operator") install += " --operator-package " + wanted;
  details["installCommand"] = install;
  HostError error = trace.fail("OPERATOR_NOT_INSTALLED",
                               "Operator APK (" + wanted + ") is not installed on " + serial +
                                   ". Install it with: " + install,
                               details);
  error.hint = "Install it with: " + install;
  return error;
}

std::optional<HostError> force_stop_closed_apps(adb::AdbClient& client, const std::string& serial,
                                                const Json& execution, ExecutionTrace& trace) {
  for (const Json& action : execution["actions"]) {
    if (action["type"] != "close_app") continue;
    const std::string package = action["params"]["applicationId"].get<std::string>();
    const std::string what = "close_app pre-flight force-stop for " + package;
    const Completion completion = client.shell(
        serial, with_exit_marker("am force-stop " + adb::quote_for_device_shell(package)));
    std::optional<HostError> error =
        adb_call_failure(completion, trace, client.settings(), what, "DEVICE_SHELL_UNAVAILABLE");
    const ShellOutput output = split_exit_marker(completion.out);
    if (!error && (!output.exit_code || *output.exit_code != 0)) {
      Json details = Json::object();
      details["applicationId"] = package;
      details["adbExitCode"] = output.exit_code ? Json(*output.exit_code) : Json(nullptr);
      details["stderr"] = tail(completion.err);
      error = trace.fail("DEVICE_SHELL_UNAVAILABLE",
                         "close_app pre-flight force-stop failed for " + package, details);
    }
    if (error) return error;
    Json effect = Json::object();
    effect["actionId"] = action["id"];
    effect["effect"] = "force_stop";
    trace.earlier_effects.push_back(std::move(effect));
  }
  return std::nullopt;
}

}  // namespace clawperator::exec
