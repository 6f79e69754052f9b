// Running a command on the device, checked: one call adds the exit marker, runs it with a
// deadline, classifies adb's own failure texts and returns the device command's output or a
// typed failure (the scrcpy habit of sc_adb_getprop: run, check and parse in one place).
// Everything that talks to a device shell (exec, doctor, operator_app, the CLI) uses it.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"

namespace clawperator::adb {

// Appended to device shell commands: a dropped adb stream can end with exit 0 and no output
// (docs/wire-protocol.md §2.5, §3), so success is only what the device itself reports.
inline constexpr std::string_view kExitMarker = "clawperator-exit:";
std::string with_exit_marker(const std::string& command);

struct MarkedOutput {
  std::string text;              // stdout without the marker line
  std::optional<int> exit_code;  // nullopt: the marker never arrived
};
MarkedOutput split_exit_marker(std::string_view stdout_text);

struct ShellCall {
  std::string command;  // one argument, parsed by the device's sh
  std::string what;     // names the call in messages ("pm list packages")
  std::chrono::milliseconds timeout = kShellTimeout;
  // The code of failures adb's own texts do not explain.
  std::string fallback_code = "DEVICE_SHELL_UNAVAILABLE";
};

struct ShellOutput {
  std::string out;  // stdout without the marker
  std::string err;
  int exit_code = 0;  // the device command's own exit status
};

// The device command ran to its end (its exit status may be non-zero): its output. Otherwise
// the failure of the call itself, in the readiness phase, nothing dispatched: ADB_NOT_FOUND,
// RESULT_TRANSPORT_CANCELLED (interrupted), adb's classified refusals (DEVICE_NOT_FOUND,
// DEVICE_OFFLINE, ADB_SERVER_FAILED …), or `fallback_code` for a timeout, a signal, an
// unexplained adb failure or a shell that closed before the marker.
contract::Outcome<ShellOutput> run_device_shell(AdbClient& client, const std::string& serial,
                                                const ShellCall& call);

// The same, and a non-zero exit status is `fallback_code` too ("<what> failed on the device
// (exit N)").
contract::Outcome<ShellOutput> run_device_shell_checked(AdbClient& client,
                                                        const std::string& serial,
                                                        const ShellCall& call);

// The failure of any completed adb call, or nothing when it exited 0: the classification
// run_device_shell uses, for calls without a marker (devices, install, logcat's exit).
// `serial` names the device in messages ("" when the call is not for one device).
contract::Status adb_call_failure(const process::Completion& completion,
                                  const AdbSettings& settings, std::string_view what,
                                  std::string_view fallback_code, const std::string& serial = {});

// `pm list packages [FLAGS] [FILTER]` (the filter is a substring match): the names listed.
contract::Outcome<std::set<std::string>> list_packages(AdbClient& client, const std::string& serial,
                                                       std::string_view flags = {},
                                                       std::string_view filter = {});

// `pm list packages -U [FILTER]`: the names listed, each with its uids (parse_package_uids).
contract::Outcome<std::map<std::string, std::vector<std::string>>> list_package_uids(
    AdbClient& client, const std::string& serial, std::string_view filter = {});

}  // namespace clawperator::adb
