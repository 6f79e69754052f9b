#include "vdevice/emulator/emulator.hpp"

#include <exception>
#include <memory>
#include <ostream>
#include <thread>

#include "vdevice/adb/server.hpp"
#include "vdevice/android/simulated_device.hpp"
#include "vdevice/emulator/adb_registration.hpp"
#include "vdevice/emulator/console_server.hpp"
#include "vdevice/emulator/console_token.hpp"

namespace clawperator::vdevice::emulator {

android::Scenario emulator_scenario(android::Scenario scenario, const std::string& avd) {
  // What an x86_64 Google APIs system image reports; tools tell an emulator by the qemu ones.
  const std::pair<const char*, std::string> identity[] = {
      {"ro.kernel.qemu", "1"},
      {"ro.boot.qemu", "1"},
      {"ro.boot.qemu.avd_name", avd},
      {"ro.hardware", "ranchu"},
      {"ro.build.characteristics", "emulator"},
      {"ro.product.model", "sdk_gphone64_x86_64"},
      {"ro.product.name", "sdk_gphone64_x86_64"},
      {"ro.product.device", "emu64xa"},
      {"ro.product.brand", "google"},
      {"ro.product.manufacturer", "Google"},
      {"ro.product.cpu.abi", "x86_64"},
      {"ro.serialno", "EMULATOR35X1X1X0"},
      {"ro.boot.serialno", "EMULATOR35X1X1X0"},
  };
  for (const auto& [key, value] : identity) scenario.properties[key] = value;
  // A fresh emulator animates at 1.0; tests turn the scales to 0 and read them back.
  for (const char* key :
       {"window_animation_scale", "transition_animation_scale", "animator_duration_scale"}) {
    scenario.settings["global"].try_emplace(key, "1.0");
  }
  return scenario;
}

int run_emulator(const EmulatorOptions& options, const android::Scenario& scenario,
                 const std::atomic<bool>& stop, std::ostream& log) {
  const auto say = [&log](std::string_view line) {
    log << "clawperator-vdevice emulator: " << line << std::endl;
  };
  if (options.console_port == 0 || options.console_port == 65535) {
    say("--console-port must be in 1..65534 (the adb transport takes the next port)");
    return 1;
  }
  const std::uint16_t adb_port = static_cast<std::uint16_t>(options.console_port + 1);

  const ConsoleToken token =
      load_console_token(options.home.empty() ? nullptr : options.home.c_str());
  if (token.auth == ConsoleAuth::Unavailable) {
    // As the emulator: it keeps running, with a console that closes every connection.
    say("ERROR: Unable to access '" + token.path + "': emulator console will not work (" +
        token.error + ")");
  }
  const ConsoleConfig config{options.avd, token.auth, token.token, token.path};

  android::DeviceOptions device_options;
  device_options.boot = android::BootSpec{options.boot_delay, options.never_boot};
  const auto device = android::make_simulated_device(scenario, device_options);
  std::unique_ptr<ConsoleServer> console;
  std::unique_ptr<adb::AdbDeviceServer> transport;
  try {
    console = std::make_unique<ConsoleServer>(options.console_port, config);
    transport = std::make_unique<adb::AdbDeviceServer>(*device, "127.0.0.1", adb_port);
  } catch (const std::exception& error) {
    say(std::string("cannot listen: ") + error.what());
    return 1;
  }
  console->set_log(say);

  std::atomic<bool> stopping{false};
  bool transport_ok = true;
  std::thread transport_loop([&] { transport_ok = transport->run(stopping); });

  if (options.never_register) {
    say("not registering with the adb server (--never-register)");
  } else if (auto registered = register_with_adb_server(options.adb_server_port, adb_port);
             !registered) {
    // The emulator is silent here: with no adb server running this is the common case.
    say("not registered, adb will not list emulator-" + std::to_string(options.console_port) +
        ": " + registered.error().text());
  }

  const ConsoleServer::Outcome outcome = console->run(stop, options.ignore_kill);
  stopping = true;
  transport_loop.join();
  if (outcome == ConsoleServer::Outcome::Killed) say("killed by the console's kill command");
  if (outcome == ConsoleServer::Outcome::Failed) say("console: " + console->error());
  if (!transport_ok) say("adb transport: " + transport->error());
  return outcome == ConsoleServer::Outcome::Failed || !transport_ok ? 1 : 0;
}

}  // namespace clawperator::vdevice::emulator
