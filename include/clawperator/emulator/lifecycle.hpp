// Creating, starting, finding, stopping and deleting emulators (docs/emulator.md). Every call
// to the SDK's tools and to adb goes through the runner with its own deadline; a started
// emulator is the one child left running on purpose (process/detached.hpp).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/emulator/avd_config.hpp"
#include "clawperator/emulator/image.hpp"
#include "clawperator/emulator/sdk_tools.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::emulator {

// The original's waits (constants.ts): a cold boot of an API 35 image on a CI runner takes
// minutes.
inline constexpr std::chrono::milliseconds kBootTimeout{180000};
inline constexpr std::chrono::milliseconds kRegistrationTimeout{60000};
inline constexpr std::chrono::milliseconds kStopTimeout{30000};
// How often adb is asked while waiting: often enough that a fast boot is seen at once.
inline constexpr std::chrono::milliseconds kPollInterval{500};

struct EmulatorHost {
  process::Runner& runner;
  adb::AdbClient& adb;
  SdkTools tools;
  ImageSpec wanted;
  // Where a started emulator's output goes (emulator-<name>.log); nullopt: nowhere.
  std::optional<std::filesystem::path> log_directory;
};

struct RunningEmulator {
  std::string serial;    // emulator-5554
  std::string avd_name;  // what its console says
  bool booted = false;
  ConfiguredAvd avd;  // its files, judged against the wanted image
};
// {type: "emulator", avdName, serial, booted, supported, unsupportedReasons}
Json to_json(const RunningEmulator& emulator);

// Every emulator adb lists as a ready device (offline and unauthorized ones are skipped), with
// the name its console gives and, when `with_boot_state`, whether it has booted (one more adb
// call each: the waits and the name checks of start, stop and delete go without it, booted
// false).
contract::Outcome<std::vector<RunningEmulator>> list_running(EmulatorHost& host,
                                                             bool with_boot_state = true);
// Both sys.boot_completed and dev.bootcomplete are 1.
contract::Outcome<bool> is_booted(EmulatorHost& host, const std::string& serial);
// The AVDs `emulator -list-avds` names, each read and judged; `running` marks those up.
contract::Outcome<std::vector<ConfiguredAvd>> list_configured(
    EmulatorHost& host, const std::vector<RunningEmulator>& running);

// adb, emulator, sdkmanager and avdmanager answer `--help` (adb: `version`), in that order:
// ANDROID_SDK_TOOL_MISSING naming the missing ones otherwise.
contract::Status require_tools(EmulatorHost& host);

// Whether the tool `argv` starts runs (5 s): the original's rule, it could be started and
// exited 0 or 1 (a usage message) or said anything. nullopt: interrupted.
std::optional<bool> tool_answers(process::Runner& runner, std::vector<std::string> argv);

struct CreateOptions {
  std::string name = std::string(kDefaultAvdName);
  bool force = false;  // replace an AVD of that name
};
// The image installed when missing (licences accepted), then `avdmanager create avd`. Returns
// the new AVD as inspect shows it.
contract::Outcome<ConfiguredAvd> create_avd(EmulatorHost& host, const CreateOptions& options);

struct StartOptions {
  bool headless = false;  // -no-window -no-audio -gpu swiftshader_indirect
  bool wipe = false;      // -wipe-data
  bool keep_animations = false;
  std::chrono::milliseconds boot_timeout = kBootTimeout;
  std::chrono::milliseconds registration_timeout = kRegistrationTimeout;
  std::vector<std::string> emulator_args;  // after the ones above
};
// `emulator @NAME …` detached, then the waits for adb and for boot, then the developer
// settings and (unless kept) the animation scales at 0. A start that fails after the spawn
// stops the emulator it started. {type, avdName, serial, booted: true, animationsDisabled,
// logFile}.
contract::Outcome<Json> start_avd(EmulatorHost& host, const std::string& name,
                                  const StartOptions& options);
// After boot: development_settings_enabled and adb_enabled 1, and the three animation scales 0
// unless `keep_animations`.
contract::Status prepare_booted(EmulatorHost& host, const std::string& serial,
                                bool keep_animations);
// Waits until `serial` reports booted, or EMULATOR_BOOT_TIMEOUT.
contract::Status wait_for_boot(EmulatorHost& host, const std::string& serial,
                               std::chrono::milliseconds timeout);

// `adb emu kill`, then waits until adb no longer lists it. {avdName, serial, stopped: true}.
contract::Outcome<Json> stop_avd(EmulatorHost& host, const std::string& name,
                                 std::chrono::milliseconds timeout = kStopTimeout);
// Refused while it runs; `avdmanager delete avd`. {avdName, deleted: true}.
contract::Outcome<Json> delete_avd(EmulatorHost& host, const std::string& name);

// A booted emulator of the wanted image: a running one reused, else a configured one started,
// else the default created and started. {type, avdName, serial, booted, created, started,
// reused, action: "reused"|"started"|"created"}.
contract::Outcome<Json> provision(EmulatorHost& host, const StartOptions& options);

}  // namespace clawperator::emulator
