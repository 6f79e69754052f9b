// The built binary, as scripts and agents see it: one JSON document on stdout,
// a documented exit code, nothing else.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "skip.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"

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

const std::string kValidPayload =
    R"({"commandId":"c1","taskId":"t1","source":"test","expectedFormat":"android-ui-automator",)"
    R"("timeoutMs":5000,"actions":[{"id":"a1","type":"tap","params":{"matcher":{"textEquals":"OK"}}}]})";

}  // namespace

TEST_CASE("--version prints the bare version, anywhere before --", "[cli]") {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--version"}, {"exec", "--version"}, {"--device", "x", "--version"}}) {
    const RunResult result = run_binary(kBinary, args);
    CHECK(result.exit_code == 0);
    CHECK(result.out == std::string(CLAWPERATOR_VERSION_TEXT) + "\n");
  }
}

TEST_CASE("help is plain text and exits 0", "[cli]") {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {}, {"--help"}, {"help"}, {"exec", "--help"}, {"help", "exec"}, {"errors", "-h"}}) {
    const RunResult result = run_binary(kBinary, args);
    CHECK(result.exit_code == 0);
    CHECK(result.out.find("Usage:") != std::string::npos);
  }
  const RunResult top = run_binary(kBinary, {"--help"});
  CHECK(top.out.find("Exit codes:") != std::string::npos);
  CHECK(top.out.find("exec") != std::string::npos);
  const RunResult exec = run_binary(kBinary, {"exec", "--help"});
  CHECK(exec.out.find("--validate-only") != std::string::npos);
  CHECK(exec.out.find("--dry-run") != std::string::npos);
}

TEST_CASE("a nested command's help is its own, and its family's names it", "[cli]") {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"mcp", "--help"}, {"help", "mcp"}}) {
    const RunResult family = run_binary(kBinary, args);
    CHECK(family.exit_code == 0);
    CHECK(family.out.rfind("Usage: clawperator mcp ", 0) == 0);
    CHECK(family.out.find("serve") != std::string::npos);
  }
  for (const auto& args : std::vector<std::vector<std::string>>{{"mcp", "serve", "--help"},
                                                                {"help", "mcp", "serve"}}) {
    const RunResult serve = run_binary(kBinary, args);
    CHECK(serve.exit_code == 0);
    CHECK(serve.out.rfind("Usage: clawperator mcp serve", 0) == 0);
  }
}

TEST_CASE("exec --validate-only prints the normalised execution", "[cli][exec]") {
  const RunResult result = run_binary(kBinary, {"exec", kValidPayload, "--validate-only"});
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["validated"] == true);
  CHECK(document["execution"]["actions"][0]["type"] == "click");
  CHECK(document["execution"]["commandId"] == "c1");
}

TEST_CASE("exec --dry-run prints the plan, with the timeout override", "[cli][exec]") {
  const RunResult result =
      run_binary(kBinary, {"--timeout", "9000", "exec", "--dry-run", "--payload", kValidPayload});
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["dryRun"] == true);
  CHECK(document["plan"]["commandId"] == "c1");
  CHECK(document["plan"]["timeoutMs"] == 9000);
  CHECK(document["plan"]["actionCount"] == 1);
  CHECK(document["plan"]["actions"][0]["type"] == "click");
}

TEST_CASE("pretty output is still one JSON document", "[cli]") {
  const RunResult result =
      run_binary(kBinary, {"exec", kValidPayload, "--validate-only", "--output", "pretty"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("\n  \"ok\": true") != std::string::npos);
  CHECK_FALSE(json::parse(result.out, nullptr, false).is_discarded());
}

TEST_CASE("invalid example payloads fail validation with exit 2", "[cli][exec]") {
  struct Case {
    const char* file;
    const char* message;
    const char* path;
    const char* code = "EXECUTION_VALIDATION_FAILED";
  };
  for (const Case& c :
       {Case{"missing-uri.json", "open_uri requires params.uri", "actions.0.params.uri"},
        Case{"unknown-action.json",
             "Unsupported action type 'teleport': all action types must be supported", "actions",
             "EXECUTION_ACTION_UNSUPPORTED"},
        Case{"out-of-range.json", "Number must be greater than or equal to 1000", "timeoutMs"},
        Case{"unknown-key.json", "Unrecognized key(s) in object: 'format'", "actions.0.params"}}) {
    CAPTURE(c.file);
    const RunResult result =
        run_binary(kBinary, {"exec", kExamples + "/invalid/" + c.file, "--validate-only"});
    const json document = expect_error(result, c.code, 2);
    CHECK(document["message"] == c.message);
    CHECK(document["details"]["path"] == c.path);
    CHECK(document["details"]["phase"] == "validation");
    CHECK(document["details"]["issues"].size() >= 1);
  }
  const RunResult range =
      run_binary(kBinary, {"exec", kExamples + "/invalid/out-of-range.json", "--dry-run"});
  CHECK(single_document(range)["details"]["issues"].size() == 2);
}

TEST_CASE("bad inputs: exactly one JSON document and exit 2", "[cli][exec][input]") {
  const TemporaryDirectory dir("cli-test", 0755);
  SECTION("malformed JSON inline") {
    const json d = expect_error(run_binary(kBinary, {"exec", "{\"commandId\":"}),
                                "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["message"] == "Invalid JSON content");
  }
  SECTION("malformed JSON in a file") {
    const json d =
        expect_error(run_binary(kBinary, {"exec", kExamples + "/invalid/malformed.json"}),
                     "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["message"].get<std::string>().rfind("Invalid JSON content in execution file: ", 0) ==
          0);
  }
  SECTION("empty stdin") {
    RunOptions options;
    options.stdin_path = dir.file("empty", "");
    const json d =
        expect_error(run_binary(kBinary, {"exec", "-"}, options), "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["details"]["source"] == "stdin");
  }
  SECTION("empty argument") {
    expect_error(run_binary(kBinary, {"exec", "  "}), "MISSING_ARGUMENT", 2);
    expect_error(run_binary(kBinary, {"exec"}), "MISSING_ARGUMENT", 2);
  }
  SECTION("binary garbage") {
    std::string garbage;
    for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>((i * 7919) % 256));
    const json d = expect_error(run_binary(kBinary, {"exec", dir.file("garbage.bin", garbage)}),
                                "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["details"]["source"] == "file");
  }
  SECTION("a 100 MB file is refused without being read") {
    const std::string path = dir / "huge.json";
    std::FILE* file = std::fopen(path.c_str(), "w");
    REQUIRE(file != nullptr);
    std::fclose(file);
    std::filesystem::resize_file(path, 100u * 1024 * 1024);
    const json d = expect_error(run_binary(kBinary, {"exec", path}), "PAYLOAD_TOO_LARGE", 2);
    CHECK(d["details"]["limitBytes"] == 1048576);
  }
  SECTION("2 MB on stdin is refused") {
    RunOptions options;
    options.stdin_path = dir.file("big.json", std::string(2u * 1024 * 1024, ' '));
    expect_error(run_binary(kBinary, {"exec", "-"}, options), "PAYLOAD_TOO_LARGE", 2);
  }
  SECTION("a missing file") {
    const json d = expect_error(run_binary(kBinary, {"exec", dir / "nope.json"}),
                                "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["message"].get<std::string>().find("No such file or directory") != std::string::npos);
  }
  SECTION("a directory") {
    const json d = expect_error(run_binary(kBinary, {"exec", dir.path().string()}),
                                "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["message"].get<std::string>().find("Is a directory") != std::string::npos);
  }
  SECTION("an unreadable file") {
    const std::string path = dir.file("secret.json", kValidPayload);
    chmod(path.c_str(), 0);
    RunOptions options;
    options.drop_privileges = true;  // root reads anything
    const json d = expect_error(run_binary(kBinary, {"exec", path}, options),
                                "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["message"].get<std::string>().find("Permission denied") != std::string::npos);
  }
  SECTION("a FIFO nobody writes to does not hang") {
    const std::string path = dir / "fifo";
    REQUIRE(mkfifo(path.c_str(), 0600) == 0);
    expect_error(run_binary(kBinary, {"exec", path}), "EXECUTION_VALIDATION_FAILED", 2);
  }
  SECTION("a device is no payload: refused before any read") {
    for (const char* device : {"/dev/zero", "/dev/null"}) {
      const json d =
          expect_error(run_binary(kBinary, {"exec", device}), "EXECUTION_VALIDATION_FAILED", 2);
      CHECK(d["message"] == std::string("Failed to read execution file: ") + device +
                                ": not a regular file or a pipe");
    }
  }
  SECTION("a payload too large once normalised") {
    json payload = json::parse(kValidPayload);
    payload["actions"] = json::array();
    for (int i = 0; i < 50; ++i) {
      payload["actions"].push_back({{"id", std::string(128, 'i')},
                                    {"type", "enter_text"},
                                    {"params",
                                     {{"matcher", {{"textEquals", std::string(500, 'm')}}},
                                      {"text", std::string(512, 't')},
                                      {"path", std::string(400, 'p')}}}});
    }
    const json d = expect_error(
        run_binary(kBinary, {"exec", dir.file("big.json", payload.dump()), "--validate-only"}),
        "PAYLOAD_TOO_LARGE", 2);
    CHECK(d["message"].get<std::string>().rfind("Payload exceeds 64000 bytes (got ", 0) == 0);
  }
}

TEST_CASE("usage errors: exactly one JSON document and exit 2", "[cli][usage]") {
  SECTION("an unknown flag, with a suggestion") {
    const json d =
        expect_error(run_binary(kBinary, {"exec", kValidPayload, "--dry-rn"}), "USAGE", 2);
    CHECK(d["suggestion"] == "--dry-run");
    CHECK(d["details"]["phase"] == "usage");
  }
  SECTION("an unknown command, with a suggestion") {
    const json d = expect_error(run_binary(kBinary, {"exce"}), "UNKNOWN_COMMAND", 2);
    CHECK(d["suggestion"] == "exec");
  }
  SECTION("a global flag without its value") {
    const json d =
        expect_error(run_binary(kBinary, {"exec", kValidPayload, "--device"}), "USAGE", 2);
    CHECK(d["message"] == "--device requires a value");
  }
  SECTION("a bad output format") {
    expect_error(run_binary(kBinary, {"--output", "yaml", "errors"}), "USAGE", 2);
  }
  SECTION("a bad timeout override") {
    const json d =
        expect_error(run_binary(kBinary, {"exec", kValidPayload, "--dry-run", "--timeout", "soon"}),
                     "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["message"] == "timeoutMs must be a finite number");
  }
  SECTION("global flags and no command") {
    expect_error(run_binary(kBinary, {"--json"}), "USAGE", 2);
  }
  SECTION("two payload sources") {
    expect_error(run_binary(kBinary, {"exec", kValidPayload, "--payload", kValidPayload}), "USAGE",
                 2);
  }
}

TEST_CASE("errors lists the catalog, and one code", "[cli][errors]") {
  const RunResult all = run_binary(kBinary, {"errors"});
  const json catalog = single_document(all);
  CHECK(all.exit_code == 0);
  REQUIRE(catalog["errors"].size() >= 123);
  for (const json& row : catalog["errors"]) {
    for (const char* key : {"code", "label", "family", "meaning", "exitCode", "disposition"}) {
      CAPTURE(row.dump(), key);
      CHECK(row.contains(key));
    }
  }
  const RunResult one = run_binary(kBinary, {"errors", "NODE_NOT_FOUND"});
  const json row = single_document(one)["error"];
  CHECK(one.exit_code == 0);
  CHECK(row["code"] == "NODE_NOT_FOUND");
  CHECK(row["label"] == "Node not found");
  CHECK(row["exitCode"] == 1);
  CHECK_FALSE(single_document(one).contains("situationHints"));
  // A code some situations explain in their own words lists those words, placeholders and all.
  const json install = single_document(run_binary(kBinary, {"errors", "OPERATOR_INSTALL_FAILED"}));
  CHECK(install["error"]["code"] == "OPERATOR_INSTALL_FAILED");
  CHECK(install["situationHints"] ==
        json::array({"The device has a newer Operator; uninstall it first or install a newer APK.",
                     "Read the adb output in details, fix the cause, and rerun the command."}));
  const json variant =
      single_document(run_binary(kBinary, {"errors", "OPERATOR_VARIANT_MISMATCH"}));
  CHECK(variant["situationHints"] ==
        json::array({"Pass --operator-package {installed_package} to use the installed variant, "
                     "or install the {expected_package} APK."}));
  const RunResult unknown = run_binary(kBinary, {"errors", "NODE_NOT_FUND"});
  CHECK(expect_error(unknown, "USAGE", 2)["suggestion"] == "NODE_NOT_FOUND");
}

namespace {

RunOptions fake_adb_environment(const TemporaryDirectory& dir) {
  RunOptions options;
  options.extra_env = {{"ADB", FAKE_ADB},
                       {"FAKE_ADB_DIR", dir.path().string()},
                       {"CLAWPERATOR_STATE_DIR", dir / "state"},
                       {"CLAWPERATOR_LOG_DIR", dir / "logs"}};
  return options;
}

// Options whose adb appends each call's arguments to `calls` and fails it: a test that
// nothing reached adb checks that `calls` does not exist.
RunOptions noting_adb(const TemporaryDirectory& dir, const std::string& calls) {
  const std::string adb = dir.file("adb", "#!/bin/sh\necho \"$*\" >>'" + calls + "'\nexit 1\n");
  chmod(adb.c_str(), 0755);
  RunOptions options;
  options.extra_env = {{"ADB", adb},
                       {"CLAWPERATOR_STATE_DIR", dir / "state"},
                       {"CLAWPERATOR_LOG_DIR", dir / "logs"}};
  return options;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("exec runs through adb and prints the result wrapper", "[cli][exec][adb]") {
  const TemporaryDirectory dir("cli-test", 0755);
  const RunResult result =
      run_binary(kBinary, {"exec", kExamples + "/snapshot.json"}, fake_adb_environment(dir));
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["deviceId"] == "fake-1");
  CHECK(document["envelope"]["status"] == "success");
  CHECK(document["terminalSource"] == "clawperator_result");
  CHECK(document["isCanonicalTerminal"] == true);
  CHECK(document["disposition"]["retry"] == "safe");
  for (const char* key : {"totalMs", "dispatchMs", "resultMs"}) {
    CHECK(document["timing"][key].is_number());
  }
}

TEST_CASE("devices lists what adb reports", "[cli][devices]") {
  const TemporaryDirectory dir("cli-test", 0755);
  const RunResult result = run_binary(kBinary, {"devices"}, fake_adb_environment(dir));
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  REQUIRE(document["devices"].size() == 1);
  CHECK(document["devices"][0]["serial"] == "fake-1");
  CHECK(document["devices"][0]["state"] == "device");
  CHECK(document["devices"][0]["model"] == "Fake");
  CHECK(document["devices"][0]["transportId"] == "1");
  RunOptions missing;
  missing.extra_env = {{"ADB", dir / "no-adb"}};
  expect_error(run_binary(kBinary, {"devices"}, missing), "ADB_NOT_FOUND", 3);
}

TEST_CASE("the payload text never reaches stderr or the log", "[cli][exec][secrets]") {
  const TemporaryDirectory dir("cli-test", 0755);
  const std::string secret = "hunter2-Sup3rS3cret";
  json payload = json::parse(kValidPayload);
  payload["actions"] =
      json::array({{{"id", "type"},
                    {"type", "enter_text"},
                    {"params", {{"matcher", {{"resourceId", "password"}}}, {"text", secret}}}}});
  const std::string path = dir.file("secret.json", payload.dump());
  for (const char* level : {"debug", "info", "warn", "error"}) {
    CAPTURE(level);
    const RunResult result = run_binary(kBinary, {"--log-level", level, "--verbose", "exec", path},
                                        fake_adb_environment(dir));
    CHECK(result.err.find(secret) == std::string::npos);
    CHECK(result.exit_code == 0);
  }
  std::string logs;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "logs")) {
    logs += read_all(entry.path().string());
  }
  CHECK(logs.find("adb.command") != std::string::npos);
  CHECK(logs.find("[REDACTED]") != std::string::npos);
  CHECK(logs.find(secret) == std::string::npos);
}

TEST_CASE("an unwritable log directory never changes the result", "[cli][logs]") {
  const TemporaryDirectory dir("cli-test", 0755);
  RunOptions options = fake_adb_environment(dir);
  options.extra_env["CLAWPERATOR_LOG_DIR"] = "/proc/no-such-dir/logs";
  const RunResult result = run_binary(kBinary, {"exec", kExamples + "/snapshot.json"}, options);
  CHECK(single_document(result)["ok"] == true);
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("LOG_DIRECTORY_UNWRITABLE") != std::string::npos);
}

TEST_CASE("a payload that is not UTF-8 is refused before anything reaches adb",
          "[cli][exec][utf8]") {
  const TemporaryDirectory dir("cli-test", 0755);
  const std::string good = kValidPayload;
  const std::string needle = "\"textEquals\":\"";
  const std::size_t offset = good.find(needle) + needle.size() + 1;
  std::string bad = good;
  bad[offset] = '\xFF';  // inside the string "OK"
  const std::string calls = dir / "adb-calls";
  const RunOptions options = noting_adb(dir, calls);

  struct Case {
    std::string name;
    std::vector<std::string> args;
    std::optional<std::string> stdin_text;
    std::size_t offset;
    std::string source;
  };
  for (const Case& c : {Case{"file", {"exec", dir.file("bad.json", bad)}, {}, offset, "file"},
                        Case{"stdin", {"exec", "-"}, bad, offset, "stdin"},
                        Case{"inline", {"exec", " " + bad}, {}, offset + 1, "inline"},
                        Case{"validate-only",
                             {"exec", dir.file("v.json", bad), "--validate-only"},
                             {},
                             offset,
                             "file"}}) {
    CAPTURE(c.name);
    RunOptions run = options;
    if (c.stdin_text) run.stdin_path = dir.file("stdin.json", *c.stdin_text);
    const json d = expect_error(run_binary(kBinary, c.args, run), "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["message"] ==
          "Payload is not valid UTF-8 (byte 0xFF at offset " + std::to_string(c.offset) + ")");
    CHECK(d["details"]["byteOffset"] == c.offset);
    CHECK(d["details"]["path"] == "");
    CHECK(d["details"]["source"] == c.source);
    CHECK(d["details"]["phase"] == "validation");
    CHECK_FALSE(std::filesystem::exists(calls));
  }
  // The same payload in UTF-8 gets as far as adb: the check above can fail.
  run_binary(kBinary, {"exec", dir.file("good.json", good)}, options);
  CHECK(std::filesystem::exists(calls));
}

TEST_CASE("an action's argument that is not UTF-8 is refused before anything reaches adb",
          "[cli][actions][utf8]") {
  const TemporaryDirectory dir("cli-test", 0755);
  const std::string calls = dir / "adb-calls";
  const RunOptions options = noting_adb(dir, calls);

  struct Case {
    std::vector<std::string> args;
    std::string path;
    std::size_t offset;
    std::string byte;
  };
  for (const Case& c : {Case{{"type",
                              "a\xFF"
                              "b",
                              "--id", "x", "--device", "d"},
                             "actions.0.params.text",
                             1,
                             "0xFF"},
                        Case{{"click", "--text-contains", "\xC0\xAF", "--device", "d"},
                             "actions.0.params.matcher.textContains",
                             0,
                             "0xC0"},
                        Case{{"type", "ok\xED\xA0\x80", "--id", "x", "--validate-only"},
                             "actions.0.params.text",
                             2,
                             "0xED"}}) {
    CAPTURE(c.args);
    const json d =
        expect_error(run_binary(kBinary, c.args, options), "EXECUTION_VALIDATION_FAILED", 2);
    CHECK(d["message"] == "Argument for " + c.path + " is not valid UTF-8 (byte " + c.byte +
                              " at offset " + std::to_string(c.offset) + ")");
    CHECK(d["details"]["path"] == c.path);
    CHECK(d["details"]["byteOffset"] == c.offset);
    CHECK(d["details"]["source"] == "argv");
    CHECK(d["details"]["phase"] == "validation");
    CHECK(d["disposition"]["retry"] == "safe");
    CHECK_FALSE(std::filesystem::exists(calls));
  }
  // The same text in UTF-8 gets as far as adb: the check above can fail.
  run_binary(kBinary,
             {"type",
              "a\xC3\xA9"
              "b",
              "--id", "x", "--device", "d"},
             options);
  CHECK(std::filesystem::exists(calls));
}

TEST_CASE("with HOME unset nothing is written to the working directory", "[cli][logs][may-skip]") {
  if (geteuid() != 0) {
    SKIP_TEST("needs root: the runs must be as users whose passwd home cannot be written");
  }
  const TemporaryDirectory dir("cli-test", 0755);
  const std::string here = dir / "here";
  std::filesystem::create_directory(here);
  chmod(here.c_str(), 0777);  // they could create "~" here, had we asked
  const std::string payload = dir.file("p.json", kValidPayload);
  chmod(payload.c_str(), 0644);
  RunOptions options;
  options.unset_env = {"HOME", "CLAWPERATOR_LOG_DIR"};
  options.extra_env = {{"ADB", dir / "no-adb"}};
  options.working_directory = here;
  options.drop_privileges = true;
  const auto warnings = [](const std::string& err) {
    std::size_t found = 0;
    for (auto at = err.find("LOG_DIRECTORY_UNWRITABLE"); at != std::string::npos;
         at = err.find("LOG_DIRECTORY_UNWRITABLE", at + 1)) {
      ++found;
    }
    return found;
  };
  SECTION("the passwd home: nobody's (/nonexistent on Debian) cannot be created") {
    // Logs exec.start and exec.failure: the first needs the log file.
    const RunResult result = run_binary(kBinary, {"exec", payload}, options);
    expect_error(result, "ADB_NOT_FOUND", 3);
    CHECK(warnings(result.err) == 1);
    CHECK(result.err.find("~") == std::string::npos);
  }
  SECTION("no passwd entry: no file log, one warning") {
    options.drop_to_uid = 4242;  // no such user on a test machine
    const RunResult result = run_binary(kBinary, {"exec", payload}, options);
    expect_error(result, "ADB_NOT_FOUND", 3);
    CHECK(warnings(result.err) == 1);
    CHECK(result.err.find("HOME is unset") != std::string::npos);
    const RunResult logs = run_binary(kBinary, {"logs", "--no-follow"}, options);
    CHECK(logs.exit_code == 0);
    CHECK(logs.out.empty());
    CHECK(logs.err.rfind("No log file: HOME is unset", 0) == 0);
  }
  CHECK(std::filesystem::is_empty(here));
}

TEST_CASE("files named from outside: a FIFO, a link to one, a directory are refused at once",
          "[cli][files]") {
  const TemporaryDirectory dir("cli-test", 0755);
  const std::string fifo = dir / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string link = dir / "link";
  REQUIRE(symlink(fifo.c_str(), link.c_str()) == 0);
  const std::string result = dir.file("result.json", "{}");
  // A command that opened one of these blocking would wait for a writer for ever: the guard
  // kills it, and the test fails on the signal rather than hanging.
  RunOptions guarded;
  guarded.extra_env = {{"ADB", "/nonexistent/adb"},
                       {"CLAWPERATOR_LOG_DIR", dir / "logs"},
                       {"CLAWPERATOR_STATE_DIR", dir / "state"}};
  guarded.signal = SIGKILL;
  guarded.signal_after_ms = 20000;
  struct Refusal {
    std::vector<std::string> args;
    std::string code;
    int exit_code;
    std::string reason;
  };
  for (const std::string& named : {fifo, link}) {
    for (const Refusal& refusal : std::vector<Refusal>{
             {{"skills", "list", "--registry", named},
              "REGISTRY_READ_FAILED",
              3,
              "not a regular file"},
             {{"snapshot", "--policy", named}, "POLICY_INVALID", 2, "not a regular file"},
             {{"recording", "parse", "--input", named},
              "RECORDING_PARSE_FAILED",
              3,
              "not a regular file"},
             {{"recording", "compile", "--input", named},
              "RECORDING_PARSE_FAILED",
              3,
              "not a regular file"},
             {{"recording", "compare", "--baseline", named, "--result", result},
              "RECORDING_COMPARE_FAILED",
              3,
              "not a regular file"},
             {{"skills", "list", "--registry", dir.path().string()},
              "REGISTRY_READ_FAILED",
              3,
              "Is a directory"},
             {{"recording", "parse", "--input", dir.path().string()},
              "RECORDING_PARSE_FAILED",
              3,
              "Is a directory"},
         }) {
      INFO(named << " " << refusal.args[0] << " " << refusal.args[1]);
      const RunResult run = run_binary(kBinary, refusal.args, guarded);
      REQUIRE(run.signal == 0);
      const json refused = expect_error(run, refusal.code, refusal.exit_code);
      CHECK(refused["message"].get<std::string>().find(refusal.reason) != std::string::npos);
    }
  }
}
