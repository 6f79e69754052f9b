// Everything before the broadcast: which device, is the Operator there, and the
// host-side force-stops of close_app actions (spec/wire.md "Preflight").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/exec/trace.hpp"

namespace clawperator::exec {

// Appended to device shell commands: a dropped adb stream can end with exit 0 and
// no output, so success is only what the device itself reports.
inline constexpr std::string_view kExitMarker = "clawperator-exit:";
std::string with_exit_marker(const std::string& command);

struct ShellOutput {
  std::string text;              // stdout without the marker line
  std::optional<int> exit_code;  // nullopt: the marker never arrived
};
ShellOutput split_exit_marker(std::string_view stdout_text);

// The error for an adb call that did not complete normally, or nullopt when it
// exited 0. `fallback_code` names failures adb's own texts do not explain.
std::optional<contract::HostError> adb_call_failure(const process::Completion& completion,
                                                    const ExecutionTrace& trace,
                                                    const adb::AdbSettings& adb,
                                                    std::string_view what,
                                                    std::string_view fallback_code);

// The serial to use: the requested one as is (adb itself then says whether it
// exists, saving a round trip), or the single usable device from `adb devices -l`.
std::variant<std::string, contract::HostError> resolve_device(
    adb::AdbClient& client, const std::optional<std::string>& requested, ExecutionTrace& trace);

// One `pm list packages` for both variants (its filter is a substring match).
std::optional<contract::HostError> check_operator_installed(adb::AdbClient& client,
                                                            const std::string& serial,
                                                            const ExecutionTrace& trace);

// `am force-stop` for each close_app action, recorded in trace.earlier_effects.
std::optional<contract::HostError> force_stop_closed_apps(adb::AdbClient& client,
                                                          const std::string& serial,
                                                          const Json& execution,
                                                          ExecutionTrace& trace);

}  // namespace clawperator::exec
