// `devices`: every device adb knows, in every state.
#include "clawperator/adb/adb_client.hpp"
#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/service/devices.hpp"

namespace clawperator::cli {

CommandResult run_devices(const GlobalOptions& options) {
  return list_devices(adb_settings(options));
}

CommandResult list_devices(const adb::AdbSettings& settings) {
  return result_of(service::list_devices(settings));
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
