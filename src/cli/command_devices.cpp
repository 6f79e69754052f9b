// `devices`: every device adb knows, in every state.
#include "clawperator/adb/adb_client.hpp"
#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"

namespace clawperator::cli {

CommandResult run_devices(const GlobalOptions& options) {
  return list_devices(adb_settings(options));
}

CommandResult list_devices(const adb::AdbSettings& settings) {
  const auto runner = process::make_system_runner();
  adb::AdbClient client(*runner, settings);
  const process::Completion completion = client.devices();
  if (auto error = adb::adb_call_failure(completion, client.settings(), "adb devices",
                                         "ADB_SERVER_FAILED")) {
    return failure(*error);
  }
  Json devices = Json::array();
  for (const adb::DeviceEntry& device : adb::parse_device_list(completion.out)) {
    devices.push_back(adb::device_to_json(device));
  }
  Json out = Json::object();
  out["devices"] = std::move(devices);
  return success(std::move(out));
}

adb::AdbSettings adb_settings(const GlobalOptions& options) {
  adb::AdbSettings settings;
  settings.executable = options.adb_path;
  settings.server_host = options.adb_server_host;
  settings.server_port = options.adb_server_port;
  settings.relay_logcat = options.adb_relay;
  settings.probe_local_server = true;
  return settings;
}

void register_device_commands(CommandLine root, std::vector<Command>& commands) {
  CommandLine devices =
      root.add_subcommand("devices", "List connected devices with state, product and model");
  devices.group("Device Management");
  set_command_footer(devices,
                     "Examples:\n"
                     "  clawperator devices\n"
                     "  clawperator devices --adb-server farm.example:5037");
  commands.push_back(Command{devices.app(), run_devices, {}});
}

}  // namespace clawperator::cli
