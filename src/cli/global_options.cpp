#include "clawperator/cli/global_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <vector>

#include "clawperator/io/account_home.hpp"
#include "clawperator/report/report.hpp"
#include "clawperator/text.hpp"

namespace clawperator::cli {
namespace {

bool is_log_level(const std::string& level) {
  return level == "debug" || level == "info" || level == "warn" || level == "error";
}

// An on/off environment variable: on, 1, true, yes or off, 0, false, no, in any case.
std::optional<bool> parse_switch(const std::string& text) {
  const std::string value = lowercase(trim(text));
  if (value == "on" || value == "1" || value == "true" || value == "yes") return true;
  if (value == "off" || value == "0" || value == "false" || value == "no") return false;
  return std::nullopt;
}

template <typename Integer>
std::optional<Integer> parse_integer(const std::string& text) {
  Integer value{};
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

// Empty when there is no home to expand "~" to: a literal "~" would be a directory of that
// name wherever the command runs.
std::string expand_home(const std::string& path, const EnvironmentLookup& environment,
                        const HomeLookup& account_home) {
  if (path != "~" && path.rfind("~/", 0) != 0) return path;
  auto home = environment("HOME");
  if (!home) home = account_home();
  return home ? *home + path.substr(1) : std::string();
}

}  // namespace

std::optional<std::string> process_environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || trim(value).empty()) return std::nullopt;
  return std::string(value);
}

std::optional<std::string> account_home_directory() {
  return io::passwd_home_directory(::geteuid());
}

std::optional<GlobalOptionsError> resolve_global_options(const RawGlobalFlags& flags,
                                                         const EnvironmentLookup& environment,
                                                         GlobalOptions& out,
                                                         const HomeLookup& account_home) {
  if (flags.device_given || !flags.device.empty()) {
    // A blank serial is a mistake (an unset shell variable), never "the only device".
    if (is_blank(flags.device)) {
      return GlobalOptionsError{flags.device_flag + " requires a value", flags.device_flag};
    }
    out.device = flags.device;
    out.device_explicit = true;
  } else if (auto serial = environment("ANDROID_SERIAL")) {
    out.device = std::string(trim(*serial));
  }

  if (flags.operator_package_given || !flags.operator_package.empty()) {
    // A blank package must not quietly become the default one (white space: text.hpp).
    if (is_blank(flags.operator_package)) {
      return GlobalOptionsError{flags.operator_package_flag + " requires a value",
                                flags.operator_package_flag};
    }
    out.operator_package = std::string(trim(flags.operator_package));
    out.operator_package_explicit = true;
  } else if (auto package = environment("CLAWPERATOR_OPERATOR_PACKAGE")) {
    out.operator_package = std::string(trim(*package));
    out.operator_package_explicit = true;
  }

  if (!flags.output.empty()) {
    const std::string format = lowercase(flags.output);
    if (format != "json" && format != "pretty") {
      return GlobalOptionsError{
          flags.output_flag + " must be one of: json, pretty (got '" + flags.output + "')",
          flags.output_flag};
    }
    out.output = format == "pretty" ? OutputFormat::Pretty : OutputFormat::Json;
  }
  if (flags.json) out.output = OutputFormat::Json;

  if (!flags.timeout.empty()) out.timeout = flags.timeout;
  out.timeout_flag = flags.timeout_flag;

  if (!flags.log_level.empty()) {
    const std::string level = lowercase(flags.log_level);
    if (!is_log_level(level)) {
      return GlobalOptionsError{"--log-level must be one of: debug, info, warn, error",
                                "--log-level"};
    }
    out.log_level = level;
  } else if (auto level = environment("CLAWPERATOR_LOG_LEVEL")) {
    // The original silently falls back to info for unknown values; so do we.
    const std::string lowered = lowercase(trim(*level));
    out.log_level = is_log_level(lowered) ? lowered : "info";
  }
  out.verbose = flags.verbose;

  if (!flags.adb.empty()) {
    out.adb_path = flags.adb;
  } else if (auto adb = environment("ADB")) {
    out.adb_path = *adb;
  } else if (auto adb_path = environment("ADB_PATH")) {
    out.adb_path = *adb_path;
  }

  if (!flags.adb_server.empty()) {
    const auto colon = flags.adb_server.rfind(':');
    const auto port = colon == std::string::npos
                          ? std::nullopt
                          : parse_integer<int>(flags.adb_server.substr(colon + 1));
    if (colon == 0 || !port || *port < 1 || *port > 65535) {
      return GlobalOptionsError{
          "--adb-server must be HOST:PORT with a port in 1..65535 (got '" + flags.adb_server + "')",
          "--adb-server"};
    }
    out.adb_server_host = flags.adb_server.substr(0, colon);
    out.adb_server_port = *port;
  }

  if (auto relay = environment("CLAWPERATOR_ADB_RELAY")) {
    const std::optional<bool> on = parse_switch(*relay);
    if (!on) {
      return GlobalOptionsError{"CLAWPERATOR_ADB_RELAY must be on or off (got '" + *relay + "')",
                                ""};
    }
    out.adb_relay = *on;
  }
  if (auto confirmation = environment("CLAWPERATOR_CONFIRMATION")) {
    const std::string value = lowercase(trim(*confirmation));
    if (value != "ask" && value != "withhold") {
      return GlobalOptionsError{
          "CLAWPERATOR_CONFIRMATION must be ask or withhold (got '" + *confirmation + "')", ""};
    }
    out.withhold_confirmation = value == "withhold";
  }
  if (flags.require_authentic_result) {
    out.require_authentic_result = true;
  } else if (auto required = environment("CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT")) {
    const std::optional<bool> on = parse_switch(*required);
    if (!on) {
      return GlobalOptionsError{
          "CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT must be 1 or 0 (got '" + *required + "')", ""};
    }
    out.require_authentic_result = *on;
  }

  if (!flags.lock_wait.empty()) {
    const auto wait = parse_integer<long>(flags.lock_wait);
    if (!wait || *wait < 0) {
      return GlobalOptionsError{"--lock-wait must be a non-negative number of milliseconds (got '" +
                                    flags.lock_wait + "')",
                                "--lock-wait"};
    }
    out.lock_wait_ms = *wait;
  }

  {
    const auto from_environment = environment("CLAWPERATOR_RESULT_TRANSPORT");
    const bool from_flag = !flags.result_transport.empty();
    if (from_flag || from_environment) {
      const std::string raw = from_flag ? flags.result_transport : *from_environment;
      const std::string value = lowercase(trim(raw));
      if (value != "logcat" && value != "direct" && value != "auto") {
        return GlobalOptionsError{
            std::string(from_flag ? "--result-transport" : "CLAWPERATOR_RESULT_TRANSPORT") +
                " must be one of: logcat, direct, auto (got '" + raw + "')",
            from_flag ? "--result-transport" : ""};
      }
      out.result_transport = value;
    }
  }
  if (out.require_authentic_result && out.result_transport == "direct") {
    // Only logcat shows which app wrote a result line (docs/guardrails.md).
    return GlobalOptionsError{
        "--require-authentic-result needs the logcat result transport: the direct transport "
        "cannot show which app wrote the result",
        flags.require_authentic_result ? "--require-authentic-result" : "--result-transport"};
  }

  if (flags.policy_given) {
    if (trim(flags.policy).empty()) {
      return GlobalOptionsError{"--policy needs a policy file", "--policy"};
    }
    out.policy = flags.policy;
  }
  if (flags.confirm_given) {
    const std::string id(trim(flags.confirm));
    const bool hex =
        id.size() == 32 && id.find_first_not_of("0123456789abcdef") == std::string::npos;
    if (!hex) {
      return GlobalOptionsError{
          "--confirm takes the 32-character approval id a CONFIRMATION_REQUIRED gave (got '" +
              flags.confirm + "')",
          "--confirm", "CONFIRMATION_UNKNOWN"};
    }
    out.confirm_id = id;
  }

  if (flags.report_given) {
    // FORMAT=FILE: the format word, then the file (which may hold '=' itself).
    const std::size_t equals = flags.report.find('=');
    const std::string word = lowercase(trim(flags.report.substr(0, equals)));
    if (equals == std::string::npos || !report::parse_format(word)) {
      return GlobalOptionsError{
          "--report takes FORMAT=FILE with FORMAT junit or tap (got '" + flags.report + "')",
          "--report"};
    }
    const std::string path = flags.report.substr(equals + 1);
    if (is_blank(path)) {
      return GlobalOptionsError{"--report " + word + "= needs the report's file after '='",
                                "--report"};
    }
    out.report = GlobalOptions::Report{word, path, flags.report_append};
  } else if (flags.report_append) {
    return GlobalOptionsError{
        "--report-append appends to the file of --report FORMAT=FILE, which "
        "is missing",
        "--report-append"};
  }

  if (auto log_dir = environment("CLAWPERATOR_LOG_DIR")) {
    out.log_dir = expand_home(std::string(trim(*log_dir)), environment, account_home);
  } else {
    out.log_dir = expand_home("~/.clawperator/logs", environment, account_home);
  }
  return std::nullopt;
}

}  // namespace clawperator::cli
