// `--` ends the options of every command (docs/commands.md): the free text after it is taken
// as written, even when it starts with '-', and a payload file whose name starts with '-'
// reaches exec. Through the built binary, no device (--validate-only comes before `--`).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::kExamples;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;

namespace {

// The first action's params of the execution the arguments build.
json built_params(const std::vector<std::string>& args, const RunOptions& options = {}) {
  CAPTURE(args);
  const RunResult result = run_binary(kBinary, args, options);
  const json document = single_document(result);
  INFO(document.dump(2));
  CHECK(result.exit_code == 0);
  REQUIRE(document.value("validated", false));
  return document["execution"]["actions"][0].value("params", json::object());
}

json refused(const std::vector<std::string>& args, const std::string& code,
             const std::string& message) {
  CAPTURE(args);
  const json document = expect_error(run_binary(kBinary, args), code, 2);
  CHECK(document["message"] == message);
  CHECK(document["details"]["phase"] == "usage");
  return document;
}

// A fresh directory holding the snapshot example as a file named `name`.
struct DashFile {
  explicit DashFile(const std::string& name) {
    std::filesystem::copy_file(kExamples + "/snapshot.json", dir / name);
    options.working_directory = dir.path().string();
  }

  TemporaryDirectory dir{"dash"};
  RunOptions options;
};

}  // namespace

TEST_CASE("-- ends the options: free text that starts with '-' is taken as written",
          "[cli][end-of-options]") {
  CHECK(built_params({"toast", "--validate-only", "--", "--literal"})["text"] == "--literal");
  CHECK(built_params({"toast", "--duration", "long", "--validate-only", "--", "-x"}) ==
        json({{"text", "-x"}, {"duration", "long"}}));
  CHECK(built_params({"toast", "--validate-only", "--", "--"})["text"] == "--");
  CHECK(built_params({"type", "--id", "X", "--validate-only", "--", "--literal"}) ==
        json::parse(R"({"matcher":{"resourceId":"X"},"text":"--literal","submit":false,)"
                    R"("clear":false})"));
  // A flag with an optional value right before `--` does not take `--` as the end of its own
  // values only: what follows is still no flag.
  CHECK(built_params({"type", "--validate-only", "--id", "X", "--", "--submit"})["text"] ==
        "--submit");
  CHECK(built_params({"toast", "--validate-only", "--duration", "long", "--", "--cancel"}) ==
        json({{"text", "--cancel"}, {"duration", "long"}}));
  CHECK(built_params({"on-screen-log", "set", "--validate-only", "--", "--literal"}) ==
        json({{"text", "--literal"}}));
  CHECK(built_params({"notifications", "dismiss", "--validate-only", "--", "-1|com.x|2"}) ==
        json({{"notificationKey", "-1|com.x|2"}}));
  // The positional text of on-screen-log set is the same as --text.
  CHECK(built_params({"on-screen-log", "set", "Build 42", "--validate-only"}) ==
        json({{"text", "Build 42"}}));
}

TEST_CASE("-- ends the options: what follows has no place", "[cli][end-of-options]") {
  // After `--` a flag-looking word is an argument, so the error says so (not "unrecognized").
  json document = refused({"toast", "--validate-only", "--", "a", "--duration"}, "USAGE",
                          "unexpected argument '--duration'");
  CHECK(document["details"]["argument"] == "--duration");
  refused({"click", "--text", "a", "--", "--long"}, "USAGE", "unexpected argument '--long'");
  refused({"toast", "--validate-only", "--", "a", "b"}, "USAGE", "unexpected argument 'b'");
  // Without `--` the flag-looking word is still an unknown flag.
  document = refused({"toast", "--literal"}, "USAGE", "unrecognized flag '--literal'.");
  CHECK(document["details"]["flag"] == "--literal");
  document = refused({"on-screen-log", "set", "A", "--text", "B", "--validate-only"}, "USAGE",
                     "on-screen-log set takes the text once: as the argument or as --text");
  CHECK(document["details"]["flag"] == "--text");
  refused({"on-screen-log", "clear", "--", "x"}, "USAGE",
          "on-screen-log clear takes no argument; got x");
  refused({"on-screen-log", "set", "a", "b"}, "USAGE",
          "on-screen-log set takes one argument, the text; got b");
}

TEST_CASE("exec: a payload file whose name starts with '-'", "[cli][end-of-options][exec]") {
  DashFile file("-payload.json");
  const json expected = json::parse(R"({"id":"snap","type":"snapshot"})");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"exec", "--validate-only", "--", "-payload.json"},
           {"exec", "-payload.json", "--validate-only"},
           {"exec", "--validate-only", "-payload.json"},
       }) {
    CAPTURE(args);
    const RunResult result = run_binary(kBinary, args, file.options);
    CHECK(result.exit_code == 0);
    CHECK(single_document(result)["execution"]["actions"][0] == expected);
  }
  // After `--` nothing is a flag.
  const json late = expect_error(
      run_binary(kBinary, {"exec", "--", "-payload.json", "--validate-only"}, file.options),
      "USAGE", 2);
  CHECK(late["message"] == "unexpected argument '--validate-only'");
  // A dash word that names no file stays an unknown flag, with the nearest flag suggested.
  const json typo =
      expect_error(run_binary(kBinary, {"exec", "--validate-onyl"}, file.options), "USAGE", 2);
  CHECK(typo["suggestion"] == "--validate-only");
  // With a payload given otherwise, the dash word is not a second payload.
  const json second = expect_error(
      run_binary(kBinary, {"exec", kExamples + "/snapshot.json", "-payload.json"}, file.options),
      "USAGE", 2);
  CHECK(second["message"] == "unrecognized flag '-payload.json'.");
}

TEST_CASE("exec: a payload named after -- or given to --payload, whatever its name",
          "[cli][end-of-options][exec]") {
  DashFile file("-payload.json");
  std::filesystem::copy_file(kExamples + "/snapshot.json", file.dir / "plain.json");
  const json expected = json::parse(R"({"id":"snap","type":"snapshot"})");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"exec", "--validate-only", "--", "plain.json"},
           {"execute", "--validate-only", "--", "-payload.json"},
           {"exec", "--payload", "-payload.json", "--validate-only"},
           {"exec", "--execution", "-payload.json", "--validate-only"},
           {"exec", "--payload=-payload.json", "--validate-only"},
       }) {
    CAPTURE(args);
    const RunResult result = run_binary(kBinary, args, file.options);
    CHECK(result.exit_code == 0);
    CHECK(single_document(result)["execution"]["actions"][0] == expected);
  }
  const RunResult plan =
      run_binary(kBinary, {"exec", "--dry-run", "--", "-payload.json"}, file.options);
  CHECK(plan.exit_code == 0);
  CHECK(single_document(plan)["plan"]["actions"][0] == expected);
  // `-` after `--` is still stdin.
  RunOptions from_stdin = file.options;
  from_stdin.stdin_path = file.dir / "-payload.json";
  const RunResult piped = run_binary(kBinary, {"exec", "--validate-only", "--", "-"}, from_stdin);
  CHECK(piped.exit_code == 0);
  CHECK(single_document(piped)["execution"]["actions"][0] == expected);
  // After `--` a missing dash file is a file that cannot be read, not an unknown flag.
  const json missing = expect_error(
      run_binary(kBinary, {"exec", "--validate-only", "--", "-missing.json"}, file.options),
      "EXECUTION_VALIDATION_FAILED", 2);
  CHECK(missing["details"]["source"] == "file");
  CHECK(missing["details"]["errno"] == ENOENT);
}

TEST_CASE("exec -- -payload.json runs on the device", "[cli][end-of-options][exec][adb]") {
  DashFile file("-payload.json");
  RunOptions device = file.options;
  device.extra_env = {{"ADB", FAKE_ADB},
                      {"FAKE_ADB_DIR", file.dir.path().string()},
                      {"CLAWPERATOR_STATE_DIR", file.dir / "state"},
                      {"CLAWPERATOR_LOG_DIR", file.dir / "logs"}};
  const RunResult result = run_binary(kBinary, {"exec", "--", "-payload.json"}, device);
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["envelope"]["commandId"] == "example-snapshot-1");
  CHECK(document["deviceId"] == "fake-1");
}
