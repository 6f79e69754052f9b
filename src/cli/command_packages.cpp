// `packages list [--third-party]`: the packages installed on the device.
#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"

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
  const contract::Outcome<std::string> resolved = adb::resolve_device(client, options.device);
  if (!resolved) return failure(resolved.error());
  const std::string& serial = *resolved;
  const auto listed = adb::list_packages(client, serial, flags.third_party ? "-3" : "");
  if (!listed) return failure(listed.error());
  Json packages = Json::array();
  for (const std::string& package : *listed) {
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

void register_package_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<PackagesFlags>();
  CommandLine packages =
      root.add_subcommand("packages", "List the packages installed on the device");
  packages.group("Device Management");
  packages.add_option("action", flags->action, "list");
  packages.add_flag("--third-party", flags->third_party,
                    "Only packages the user installed (pm list packages -3)");
  set_command_footer(packages,
                     "Examples:\n"
                     "  clawperator packages list --third-party --device emulator-5554");
  commands.push_back(
      Command{packages.app(),
              [flags](const GlobalOptions& options) { return run_packages(*flags, options); },
              {"--third-party"}});
}

}  // namespace clawperator::cli
