#include "clawperator/cli/global_options.hpp"

#include <pwd.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <map>

using namespace clawperator::cli;

namespace {

EnvironmentLookup environment(std::map<std::string, std::string> values) {
  return [values](const char* name) -> std::optional<std::string> {
    const auto it = values.find(name);
    if (it == values.end() || it->second.find_first_not_of(' ') == std::string::npos) {
      return std::nullopt;
    }
    return it->second;
  };
}

}  // namespace

TEST_CASE("defaults apply when neither flags nor environment say otherwise", "[cli][options]") {
  GlobalOptions options;
  REQUIRE_FALSE(resolve_global_options({}, environment({{"HOME", "/home/u"}}), options));
  CHECK_FALSE(options.device);
  CHECK(options.operator_package == "com.clawperator.operator");
  CHECK(options.output == OutputFormat::Json);
  CHECK(options.adb_path == "adb");
  CHECK(options.log_level == "info");
  CHECK(options.log_dir == "/home/u/.clawperator/logs");
  CHECK(options.lock_wait_ms == 0);
}

TEST_CASE("flags win over the environment, which wins over defaults", "[cli][options]") {
  const auto env = environment({{"ANDROID_SERIAL", "env-serial"},
                                {"CLAWPERATOR_OPERATOR_PACKAGE", "com.env.pkg"},
                                {"ADB", "/opt/adb"},
                                {"ADB_PATH", "/usr/adb"},
                                {"CLAWPERATOR_LOG_LEVEL", "WARN"},
                                {"CLAWPERATOR_LOG_DIR", "~/logs"},
                                {"HOME", "/h"}});
  GlobalOptions from_env;
  REQUIRE_FALSE(resolve_global_options({}, env, from_env));
  CHECK(from_env.device == "env-serial");
  CHECK(from_env.operator_package == "com.env.pkg");
  CHECK(from_env.adb_path == "/opt/adb");
  CHECK(from_env.log_level == "warn");
  CHECK(from_env.log_dir == "/h/logs");

  RawGlobalFlags flags;
  flags.device = "flag-serial";
  flags.operator_package = "com.flag.pkg";
  flags.adb = "/flag/adb";
  flags.log_level = "Debug";
  GlobalOptions from_flags;
  REQUIRE_FALSE(resolve_global_options(flags, env, from_flags));
  CHECK(from_flags.device == "flag-serial");
  CHECK(from_flags.operator_package == "com.flag.pkg");
  CHECK(from_flags.adb_path == "/flag/adb");
  CHECK(from_flags.log_level == "debug");
}

TEST_CASE("a blank operator package in the environment counts as unset", "[cli][options]") {
  GlobalOptions options;
  REQUIRE_FALSE(resolve_global_options(
      {}, environment({{"CLAWPERATOR_OPERATOR_PACKAGE", "   "}, {"ADB_PATH", "/p/adb"}}), options));
  CHECK(options.operator_package == "com.clawperator.operator");
  CHECK(options.adb_path == "/p/adb");
}

TEST_CASE("a blank operator package flag is refused, named as typed", "[cli][options]") {
  // Empty, ASCII white space, NBSP and U+3000: never the default package in its place, even
  // with one in the environment.
  for (const std::string blank : {"", "  ", "\t", "\xc2\xa0", "\xe3\x80\x80"}) {
    for (const std::string spelling : {"--operator-package", "--receiver-package"}) {
      CAPTURE(blank, spelling);
      RawGlobalFlags flags;
      flags.operator_package = blank;
      flags.operator_package_given = true;
      flags.operator_package_flag = spelling;
      GlobalOptions options;
      const auto error = resolve_global_options(
          flags, environment({{"CLAWPERATOR_OPERATOR_PACKAGE", "com.env.pkg"}}), options);
      REQUIRE(error);
      CHECK(error->message == spelling + " requires a value");
      CHECK(error->flag == spelling);
    }
  }
  RawGlobalFlags padded;
  padded.operator_package = " com.clawperator.operator.dev ";
  padded.operator_package_given = true;
  GlobalOptions options;
  REQUIRE_FALSE(resolve_global_options(padded, environment({}), options));
  CHECK(options.operator_package == "com.clawperator.operator.dev");
  CHECK(options.operator_package_explicit);
}

TEST_CASE("an option's error names the spelling typed", "[cli][options]") {
  RawGlobalFlags flags;
  flags.output = "yaml";
  flags.output_flag = "--format";
  GlobalOptions options;
  const auto error = resolve_global_options(flags, environment({}), options);
  REQUIRE(error);
  CHECK(error->message == "--format must be one of: json, pretty (got 'yaml')");
  CHECK(error->flag == "--format");

  RawGlobalFlags timeout;
  timeout.timeout = "5000";
  timeout.timeout_flag = "--timeout-ms";
  REQUIRE_FALSE(resolve_global_options(timeout, environment({}), options));
  CHECK(options.timeout == "5000");
  CHECK(options.timeout_flag == "--timeout-ms");
}

TEST_CASE("bad global flag values are usage errors", "[cli][options]") {
  struct Case {
    RawGlobalFlags flags;
    std::string message_start;
  };
  std::vector<Case> cases(5);
  cases[0].flags.output = "yaml";
  cases[0].message_start = "--output must be one of: json, pretty";
  cases[1].flags.log_level = "loud";
  cases[1].message_start = "--log-level must be one of: debug, info, warn, error";
  cases[2].flags.adb_server = "localhost";
  cases[2].message_start = "--adb-server must be HOST:PORT";
  cases[3].flags.adb_server = "host:70000";
  cases[3].message_start = "--adb-server must be HOST:PORT";
  cases[4].flags.lock_wait = "-1";
  cases[4].message_start = "--lock-wait must be a non-negative number";
  for (const Case& c : cases) {
    CAPTURE(c.message_start);
    GlobalOptions options;
    const auto error = resolve_global_options(c.flags, environment({}), options);
    REQUIRE(error);
    CHECK(error->message.rfind(c.message_start, 0) == 0);
  }
}

TEST_CASE("output format and the adb server", "[cli][options]") {
  RawGlobalFlags flags;
  flags.output = "PRETTY";
  flags.adb_server = "farm.example:5037";
  flags.lock_wait = "2500";
  GlobalOptions options;
  REQUIRE_FALSE(resolve_global_options(flags, environment({}), options));
  CHECK(options.output == OutputFormat::Pretty);
  CHECK(options.adb_server_host == "farm.example");
  CHECK(options.adb_server_port == 5037);
  CHECK(options.lock_wait_ms == 2500);
  flags.json = true;
  REQUIRE_FALSE(resolve_global_options(flags, environment({}), options));
  CHECK(options.output == OutputFormat::Json);
}

TEST_CASE("CLAWPERATOR_ADB_RELAY turns the logcat relay off, and only accepts on or off",
          "[cli][options]") {
  GlobalOptions options;
  REQUIRE_FALSE(resolve_global_options({}, environment({}), options));
  CHECK(options.adb_relay);
  for (const char* off : {"off", "0", "FALSE", " no "}) {
    CAPTURE(off);
    GlobalOptions relay_off;
    REQUIRE_FALSE(
        resolve_global_options({}, environment({{"CLAWPERATOR_ADB_RELAY", off}}), relay_off));
    CHECK_FALSE(relay_off.adb_relay);
  }
  for (const char* on : {"on", "1", "true", "Yes"}) {
    CAPTURE(on);
    GlobalOptions relay_on;
    REQUIRE_FALSE(
        resolve_global_options({}, environment({{"CLAWPERATOR_ADB_RELAY", on}}), relay_on));
    CHECK(relay_on.adb_relay);
  }
  GlobalOptions invalid;
  const auto error =
      resolve_global_options({}, environment({{"CLAWPERATOR_ADB_RELAY", "maybe"}}), invalid);
  REQUIRE(error);
  CHECK(error->message == "CLAWPERATOR_ADB_RELAY must be on or off (got 'maybe')");
}

TEST_CASE("--require-authentic-result and its variable; it needs the logcat transport",
          "[cli][options][authenticity]") {
  GlobalOptions options;
  REQUIRE_FALSE(resolve_global_options({}, environment({}), options));
  CHECK_FALSE(options.require_authentic_result);
  RawGlobalFlags flag;
  flag.require_authentic_result = true;
  GlobalOptions flagged;
  REQUIRE_FALSE(resolve_global_options(flag, environment({}), flagged));
  CHECK(flagged.require_authentic_result);
  for (const auto& [value, on] :
       std::map<std::string, bool>{{"1", true}, {"on", true}, {"0", false}, {"False", false}}) {
    CAPTURE(value);
    GlobalOptions from_environment;
    REQUIRE_FALSE(resolve_global_options(
        {}, environment({{"CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT", value}}), from_environment));
    CHECK(from_environment.require_authentic_result == on);
  }
  GlobalOptions invalid;
  const auto bad = resolve_global_options(
      {}, environment({{"CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT", "always"}}), invalid);
  REQUIRE(bad);
  CHECK(bad->message == "CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT must be 1 or 0 (got 'always')");
  RawGlobalFlags direct = flag;
  direct.result_transport = "direct";
  GlobalOptions conflicting;
  const auto conflict = resolve_global_options(direct, environment({}), conflicting);
  REQUIRE(conflict);
  CHECK(conflict->flag == "--require-authentic-result");
  GlobalOptions auto_transport;
  REQUIRE_FALSE(resolve_global_options(
      flag, environment({{"CLAWPERATOR_RESULT_TRANSPORT", "auto"}}), auto_transport));
}

TEST_CASE("without HOME the log goes under the passwd home, else nowhere", "[cli][options]") {
  const HomeLookup passwd_home = [] { return std::optional<std::string>("/var/lib/svc"); };
  const HomeLookup no_home = [] { return std::optional<std::string>(); };

  GlobalOptions from_passwd;
  REQUIRE_FALSE(resolve_global_options({}, environment({}), from_passwd, passwd_home));
  CHECK(from_passwd.log_dir == "/var/lib/svc/.clawperator/logs");

  GlobalOptions home_wins;
  REQUIRE_FALSE(
      resolve_global_options({}, environment({{"HOME", "/home/u"}}), home_wins, passwd_home));
  CHECK(home_wins.log_dir == "/home/u/.clawperator/logs");

  // Never a literal "~" (a directory of that name wherever the command runs).
  GlobalOptions nowhere;
  REQUIRE_FALSE(resolve_global_options({}, environment({{"HOME", "  "}}), nowhere, no_home));
  CHECK(nowhere.log_dir.empty());
  for (const char* dir : {"~", "~/logs"}) {
    CAPTURE(dir);
    GlobalOptions tilde;
    REQUIRE_FALSE(
        resolve_global_options({}, environment({{"CLAWPERATOR_LOG_DIR", dir}}), tilde, no_home));
    CHECK(tilde.log_dir.empty());
    GlobalOptions expanded;
    REQUIRE_FALSE(resolve_global_options({}, environment({{"CLAWPERATOR_LOG_DIR", dir}}), expanded,
                                         passwd_home));
    CHECK(expanded.log_dir == "/var/lib/svc" + std::string(dir).substr(1));
  }
  // An explicit directory needs no home.
  GlobalOptions explicit_dir;
  REQUIRE_FALSE(resolve_global_options({}, environment({{"CLAWPERATOR_LOG_DIR", "/srv/logs"}}),
                                       explicit_dir, no_home));
  CHECK(explicit_dir.log_dir == "/srv/logs");
}

TEST_CASE("the passwd home is the effective user's", "[cli][options]") {
  const auto home = account_home_directory();
  // Containers may run us under a uid with no passwd entry: then there is none to compare.
  if (const passwd* entry = ::getpwuid(::geteuid()); entry != nullptr && *entry->pw_dir != '\0') {
    CHECK(home == std::string(entry->pw_dir));
  } else {
    CHECK_FALSE(home);
  }
}
