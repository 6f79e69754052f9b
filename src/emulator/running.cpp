// The emulators adb sees: their names from their consoles, and whether they have booted.
#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/emulator/lifecycle.hpp"
#include "clawperator/text.hpp"
#include "emulator_errors.hpp"

namespace clawperator::emulator {

namespace {

constexpr std::chrono::milliseconds kConsoleTimeout{10000};

// What `adb emu avd name` printed: the first line that is not blank or the console's "OK".
// adb exits 0 whatever the console answered (docs/vdevice.md, "Emulator mode"): a refusal
// ("KO: …", a wrong auth token) is no name.
std::optional<std::string> avd_name_in(std::string_view output) {
  while (!output.empty()) {
    const std::size_t end = output.find('\n');
    const std::string_view line = trim(output.substr(0, end));
    output.remove_prefix(end == std::string_view::npos ? output.size() : end + 1);
    if (line.rfind("KO", 0) == 0) return std::nullopt;
    if (!line.empty() && line != "OK") return std::string(line);
  }
  return std::nullopt;
}

}  // namespace

Json to_json(const RunningEmulator& emulator) {
  Json out = Json::object();
  out["type"] = "emulator";
  out["avdName"] = emulator.avd_name;
  out["serial"] = emulator.serial;
  out["booted"] = emulator.booted;
  out["supported"] = emulator.avd.supported();
  out["unsupportedReasons"] = emulator.avd.unsupported_reasons;
  return out;
}

contract::Outcome<bool> is_booted(EmulatorHost& host, const std::string& serial) {
  // One shell call for both properties: a boot poll every half second costs one adb round trip.
  CLAWPERATOR_TRY_ASSIGN(
      auto output, adb::run_device_shell(host.adb, serial,
                                         {"getprop sys.boot_completed; getprop dev.bootcomplete",
                                          "getprop sys.boot_completed", adb::kShellTimeout,
                                          "EMULATOR_BOOT_TIMEOUT"}));
  std::string_view text = output.out;
  int ones = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (trim(text.substr(0, end)) == "1") ++ones;
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return output.exit_code == 0 && ones == 2;
}

contract::Outcome<std::vector<RunningEmulator>> list_running(EmulatorHost& host,
                                                             bool with_boot_state) {
  const process::Completion devices = host.adb.devices();
  if (auto status =
          adb::adb_call_failure(devices, host.adb.settings(), "adb devices", "ADB_SERVER_FAILED");
      !status) {
    return contract::failed(std::move(status.error()));
  }
  std::vector<RunningEmulator> running;
  for (const adb::DeviceEntry& entry : adb::parse_device_list(devices.out)) {
    if (entry.serial.rfind("emulator-", 0) != 0 || entry.state != "device") continue;
    const process::Completion named = host.adb.emu(entry.serial, {"avd", "name"}, kConsoleTimeout);
    if (auto status = adb::adb_call_failure(named, host.adb.settings(), "adb emu avd name",
                                            "EMULATOR_NOT_RUNNING", entry.serial);
        !status) {
      // An emulator that went away between the two calls is simply not running any more.
      if (status.error().code == "DEVICE_NOT_FOUND") continue;
      return contract::failed(std::move(status.error()));
    }
    std::optional<std::string> name = avd_name_in(named.out);
    if (!name) {
      return contract::failed(emulator_error(
          "EMULATOR_NOT_RUNNING", "Emulator " + entry.serial + " did not return an AVD name",
          Json{{"serial", entry.serial}, {"stdout", named.out}}));
    }
    RunningEmulator emulator;
    emulator.serial = entry.serial;
    emulator.avd_name = *name;
    if (with_boot_state) {
      CLAWPERATOR_TRY_ASSIGN(auto booted, is_booted(host, entry.serial));
      emulator.booted = booted;
    }
    emulator.avd = read_configured_avd(host.tools.avd_home, *name, host.wanted, true);
    running.push_back(std::move(emulator));
  }
  return running;
}

contract::Status wait_for_boot(EmulatorHost& host, const std::string& serial,
                               std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (true) {
    auto booted = is_booted(host, serial);
    if (!booted) return contract::failed(std::move(booted).error());
    if (*booted) return {};
    if (std::chrono::steady_clock::now() >= until) {
      return contract::failed(
          emulator_error("EMULATOR_BOOT_TIMEOUT",
                         "Timed out after " + std::to_string(timeout.count()) + " ms waiting for " +
                             serial + " to finish booting",
                         Json{{"serial", serial}, {"timeoutMs", timeout.count()}}));
    }
    CLAWPERATOR_TRY(pause(host, kPollInterval));
  }
}

}  // namespace clawperator::emulator
