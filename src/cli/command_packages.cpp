// `packages list [--third-party]`: the packages installed on the device.
#include <CLI/CLI.hpp>
#include <variant>

#include "clawperator/adb/package_list.hpp"
#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/exec/preflight.hpp"
#include "clawperator/io/utc_time.hpp"

namespace clawperator::cli {
namespace {

struct PackagesFlags {
  std::string action;
  bool third_party = false;
};

CommandResult run_packages(const PackagesFlags& flags, const GlobalOptions& options) {
  if (!is_action_word("packages", flags.action)) {
    contract::HostError error = contract::usage_error(
        "USAGE", flags.action.empty()
                     ? "packages requires a subcommand: clawperator packages list [--third-party]"
                     : "Unknown packages subcommand: " + flags.action + ". Use: list");
    if (!flags.action.empty()) error.details["argument"] = flags.action;
    return failure(error);
  }
  const auto runner = process::make_system_runner();
  adb::AdbClient client(*runner, adb_settings(options));
  exec::ExecutionTrace trace;
  trace.operator_package = options.operator_package;
  trace.started_at = io::utc_timestamp(std::chrono::system_clock::now());
  auto resolved = exec::resolve_device(client, options.device, trace);
  if (auto* error = std::get_if<contract::HostError>(&resolved)) {
    return failure(exec::without_execution_fields(*error));
  }
  const std::string serial = std::get<std::string>(resolved);
  const process::Completion completion = client.shell(
      serial,
      exec::with_exit_marker(flags.third_party ? "pm list packages -3" : "pm list packages"));
  if (auto error = exec::adb_call_failure(completion, trace, client.settings(), "pm list packages",
                                          "DEVICE_SHELL_UNAVAILABLE")) {
    return failure(exec::without_execution_fields(*error));
  }
  const exec::ShellOutput output = exec::split_exit_marker(completion.out);
  if (output.exit_code != 0) {
    Json details = Json::object();
    details["exitCode"] = output.exit_code ? Json(*output.exit_code) : Json(nullptr);
    details["stderr"] = completion.err.substr(0, 8192);
    contract::HostError error =
        trace.fail("DEVICE_SHELL_UNAVAILABLE",
                   output.exit_code ? "pm list packages failed on the device (exit " +
                                          std::to_string(*output.exit_code) + ")"
                                    : "The device shell closed before listing its packages",
                   details);
    error.hint = "Run 'clawperator doctor' to check the device shell, then retry.";
    return failure(exec::without_execution_fields(error));
  }
  Json packages = Json::array();
  for (const std::string& package : adb::parse_package_list(output.text)) {
    packages.push_back(package);
  }
  Json out = Json::object();
  out["deviceId"] = serial;
  out["thirdPartyOnly"] = flags.third_party;
  out["count"] = packages.size();
  out["packages"] = std::move(packages);
  return success(std::move(out));
}

}  // namespace

void register_package_commands(CLI::App& root, std::vector<Command>& commands) {
  auto flags = std::make_shared<PackagesFlags>();
  CLI::App* packages = root.add_subcommand("packages", "List the packages installed on the device");
  packages->group("Device Management");
  packages->add_option("action", flags->action, "list");
  packages->add_flag("--third-party", flags->third_party,
                     "Only packages the user installed (pm list packages -3)");
  commands.push_back(
      Command{packages,
              [flags](const GlobalOptions& options) { return run_packages(*flags, options); },
              {"--third-party"}});
}

}  // namespace clawperator::cli
