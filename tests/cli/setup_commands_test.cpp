// doctor, version, operator, packages and logs through the built binary: the
// refusals that need no device, and the log follower.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;

namespace {

struct LogDir {
  TemporaryDirectory directory{"logs-test"};
  const std::string path = directory.path().string();

  // Today's file, named as the CLI names it (UTC date).
  std::string today() const {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char name[64];
    std::strftime(name, sizeof name, "clawperator-%Y-%m-%d.log", &utc);
    return path + "/" + name;
  }
  RunOptions options() const {
    RunOptions run;
    run.extra_env = {{"CLAWPERATOR_LOG_DIR", path}};
    return run;
  }
};

}  // namespace

TEST_CASE("setup commands refuse bad usage with exit 2", "[cli][setup]") {
  const std::vector<std::vector<std::string>> cases = {
      {"doctor", "--fix", "--check-only"},
      {"operator"},
      {"operator", "frobnicate"},
      {"operator", "install", "--apk", "operator.apk", "--download-only"},
      {"operator", "install", "--operator-version", "0.5"},
      {"operator", "install", "--metadata-url", "http://downloads.example/latest.json"},
      {"packages"},
      {"packages", "remove"},
      {"doctor", "--frobnicate"},
      {"version", "--check"},
  };
  for (const auto& args : cases) {
    INFO(args[0] << " " << (args.size() > 1 ? args[1] : ""));
    const json document = expect_error(run_binary(kBinary, args), "USAGE", 2);
    CHECK(document["details"]["phase"] == "usage");
  }
}

TEST_CASE("operator setup checks the APK file before any adb call", "[cli][setup]") {
  const json document =
      expect_error(run_binary(kBinary, {"operator", "setup", "--apk", "/nonexistent/operator.apk",
                                        "--adb", "/nonexistent/adb"}),
                   "OPERATOR_APK_NOT_FOUND", 3);
  CHECK(document["details"]["apkPath"] == "/nonexistent/operator.apk");
  CHECK(document["operatorPackage"] == "com.clawperator.operator");
  // The original's shape of a failed install phase, beside our details.
  CHECK(document["install"] == json({{"ok", false}, {"error", document["message"]}}));
}

TEST_CASE("operator install resolves the device before it fetches anything", "[cli][setup]") {
  // The metadata address leads nowhere: had it been fetched, the failure would be the download's.
  RunOptions options;
  options.extra_env = {{"CLAWPERATOR_OPERATOR_METADATA_URL", "http://127.0.0.1:9/latest.json"},
                       {"HOME", "/nonexistent"}};
  for (const char* action : {"install", "setup"}) {
    INFO(action);
    expect_error(run_binary(kBinary, {"operator", action, "--adb", "/nonexistent/adb"}, options),
                 "ADB_NOT_FOUND", 3);
  }
  // With --download-only there is no device: the fetch is what fails.
  const json document =
      expect_error(run_binary(kBinary, {"operator", "install", "--download-only"}, options),
                   "OPERATOR_DOWNLOAD_FAILED", 3);
  CHECK(document["details"]["resource"] == "metadata");
  CHECK(document["details"]["reason"] == "network");
}

TEST_CASE("version prints the CLI version as JSON", "[cli][setup]") {
  const RunResult result = run_binary(kBinary, {"version"});
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["cliVersion"] == CLAWPERATOR_VERSION_TEXT);
}

TEST_CASE("without adb: doctor exits 3 and version --check-compat refuses", "[cli][setup]") {
  LogDir logs;
  const RunResult doctor =
      run_binary(kBinary, {"doctor", "--adb", "/nonexistent/adb"}, logs.options());
  const json report = single_document(doctor);
  CHECK(doctor.exit_code == 3);
  CHECK(report["ok"] == false);
  CHECK(report["code"] == "ADB_NOT_FOUND");
  // After the two advisory host checks: the log directory and the video tools.
  CHECK(report["checks"][2]["id"] == "host.adb.presence");
  CHECK(report["checks"][2]["status"] == "fail");

  const RunResult pretty = run_binary(
      kBinary, {"doctor", "--adb", "/nonexistent/adb", "--output", "pretty"}, logs.options());
  CHECK(pretty.exit_code == 3);
  CHECK(pretty.out.find("[FAIL] host.adb.presence: adb was not found (ADB_NOT_FOUND)") !=
        std::string::npos);
  CHECK(pretty.out.find("[FAIL] Critical setup checks failed.") != std::string::npos);

  expect_error(run_binary(kBinary, {"version", "--check-compat", "--adb", "/nonexistent/adb"},
                          logs.options()),
               "ADB_NOT_FOUND", 3);
  expect_error(
      run_binary(kBinary, {"packages", "list", "--adb", "/nonexistent/adb"}, logs.options()),
      "ADB_NOT_FOUND", 3);
  expect_error(run_binary(kBinary, {"grant-device-permissions", "--adb", "/nonexistent/adb"},
                          logs.options()),
               "ADB_NOT_FOUND", 3);
}

TEST_CASE("logs prints today's log file", "[cli][logs]") {
  LogDir logs;
  SECTION("no file yet: a note on stderr, nothing on stdout, exit 0") {
    const RunResult result = run_binary(kBinary, {"logs", "--no-follow"}, logs.options());
    CHECK(result.exit_code == 0);
    CHECK(result.out.empty());
    CHECK(result.err.find("No log file found at " + logs.today()) != std::string::npos);
  }
  SECTION("--no-follow prints the file as it is") {
    const std::string lines = "{\"event\":\"a\"}\n{\"event\":\"b\"}\n";
    std::ofstream(logs.today()) << lines;
    const RunResult result = run_binary(kBinary, {"logs", "--no-follow"}, logs.options());
    CHECK(result.exit_code == 0);
    CHECK(result.out == lines);
  }
  SECTION("following shows appended lines until Ctrl-C, which exits 0") {
    std::ofstream(logs.today()) << "{\"event\":\"first\"}\n";
    // The second line is appended once the first is shown (logs is following the file), and
    // Ctrl-C comes once the second is shown too.
    bool appended = false;
    RunOptions options = logs.options();
    options.on_out = [&](const std::string& out) {
      if (appended || out.find("first") == std::string::npos) return;
      std::ofstream(logs.today(), std::ios::app) << "{\"event\":\"second\"}\n";
      appended = true;
    };
    options.signal = SIGINT;
    options.signal_when = [](const std::string& out) {
      return out.find("second") != std::string::npos;
    };
    options.signal_after_ms = 20000;
    const RunResult result = run_binary(kBinary, {"logs"}, options);
    CHECK(appended);
    CHECK(result.signal == 0);
    CHECK(result.exit_code == 0);
    CHECK(result.out == "{\"event\":\"first\"}\n{\"event\":\"second\"}\n");
  }
  SECTION("a command's own events reach the file that logs reads") {
    run_binary(kBinary, {"doctor", "--adb", "/nonexistent/adb"}, logs.options());
    const RunResult result = run_binary(kBinary, {"logs", "--no-follow"}, logs.options());
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("\"event\":\"doctor.check\"") != std::string::npos);
  }
}
