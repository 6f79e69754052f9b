// Options every command shares, resolved from flags first and the environment
// second (docs/contract.md §1.1, docs/wire-protocol.md §2).
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace clawperator::cli {

enum class OutputFormat { Json, Pretty };

inline constexpr const char* kDefaultOperatorPackage = "com.clawperator.operator";

struct GlobalOptions {
  std::optional<std::string> device;  // --device / --device-id, else ANDROID_SERIAL
  bool device_explicit = false;       // from the flag (skills run passes it to the script)
  std::string operator_package = kDefaultOperatorPackage;
  bool operator_package_explicit = false;  // from the flag or the environment
  OutputFormat output = OutputFormat::Json;
  std::optional<std::string> timeout;      // raw --timeout / --timeout-ms text
  std::string timeout_flag = "--timeout";  // as typed, for messages: --timeout or --timeout-ms
  std::string log_level = "info";
  bool verbose = false;
  std::string adb_path = "adb";
  std::optional<std::string> adb_server_host;  // --adb-server HOST:PORT
  std::optional<int> adb_server_port;
  // CLAWPERATOR_ADB_RELAY=off: the logcat follower talks to the adb server directly.
  bool adb_relay = true;
  long lock_wait_ms = 0;
  // --result-transport, else CLAWPERATOR_RESULT_TRANSPORT: logcat (default), direct or auto.
  std::string result_transport = "logcat";
  // --require-authentic-result, else CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT (on/off, 1/0 …):
  // refuse before dispatch unless the result can be told from any other app's
  // (docs/guardrails.md). Needs the logcat transport.
  bool require_authentic_result = false;
  // --policy FILE (docs/guardrails.md); nullopt: $CLAWPERATOR_POLICY, else the default file.
  std::optional<std::string> policy;
  // --confirm ID: the approval a CONFIRMATION_REQUIRED recorded (docs/guardrails.md §5); the
  // call runs once a person approved it.
  std::optional<std::string> confirm_id;
  // CLAWPERATOR_CONFIRMATION=withhold (a skill's script, docs/skills.md): a step the policy
  // wants confirmed is never asked about on the controlling terminal; `ask` (the default): it is
  // when this process is in the terminal's foreground. Either way, a refusal records an approval
  // a person may grant.
  bool withhold_confirmation = false;
  // --report FORMAT=FILE [--report-append] (docs/commands.md, "Reports"): a report of the run for
  // a CI system, beside the JSON on stdout; taken by exec, the device commands and skills run.
  struct Report {
    std::string format;  // "junit" or "tap"
    std::string path;    // as typed
    bool append = false;
  };
  std::optional<Report> report;
  // CLAWPERATOR_LOG_DIR, else ~/.clawperator/logs; "~" is $HOME, else the passwd entry's home.
  // Empty when there is no home: never a literal "~" relative to the working directory.
  std::string log_dir;
};

// Flag values as parsed, before defaults and environment apply.
struct RawGlobalFlags {
  std::string device;
  std::string operator_package;
  std::string output;
  bool json = false;
  std::string timeout;
  std::string log_level;
  bool verbose = false;
  std::string adb;
  std::string adb_server;
  std::string lock_wait;
  std::string result_transport;
  bool require_authentic_result = false;
  std::string policy;
  bool policy_given = false;
  std::string confirm;
  bool confirm_given = false;
  std::string report;
  bool report_given = false;
  bool report_append = false;
  // Given, even with an empty value: `--operator-package ""` is refused, not the default.
  bool operator_package_given = false;
  // The same for `--device ""`: a blank serial must not fall back to the only device.
  bool device_given = false;
  // The spelling typed of each option that has two, for its messages (docs/contract.md §1.1).
  std::string operator_package_flag = "--operator-package";
  std::string device_flag = "--device";
  std::string output_flag = "--output";
  std::string timeout_flag = "--timeout";
};

using EnvironmentLookup = std::function<std::optional<std::string>(const char* name)>;

// The process environment, with blank values treated as unset.
std::optional<std::string> process_environment(const char* name);

// Where "~" goes when HOME is unset.
using HomeLookup = std::function<std::optional<std::string>()>;

// The effective user's home directory in the passwd database (getpwuid_r); nullopt when the
// user has no entry or the entry no home.
std::optional<std::string> account_home_directory();

struct GlobalOptionsError {
  std::string message;
  std::string flag;  // the flag at fault, as typed; empty for an environment variable
  // The catalog's code: USAGE, but for a value that names something unknown whose code says so
  // (a --confirm that no approval could have: CONFIRMATION_UNKNOWN, as for an unknown id).
  std::string code = "USAGE";
};

// Either resolved options or a usage error message.
std::optional<GlobalOptionsError> resolve_global_options(
    const RawGlobalFlags& flags, const EnvironmentLookup& environment, GlobalOptions& out,
    const HomeLookup& account_home = account_home_directory);

}  // namespace clawperator::cli
