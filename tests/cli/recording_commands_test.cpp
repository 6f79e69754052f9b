// `clawperator recording …` through the built binary, without a device: the usage rules of the
// family, parse / compile / export of a recording written here, and pull's refusals that must
// happen before adb runs (docs/recording.md).
#include <stdlib.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::read_whole_file;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::TemporaryDirectory;
using clawperator::testing::write_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string node(const std::string& text, const std::string& id, const std::string& bounds) {
  return "<node index=\"0\" text=\"" + text + "\" resource-id=\"" + id +
         "\" class=\"android.widget.TextView\" package=\"com.android.settings\" content-desc=\"\" "
         "clickable=\"true\" bounds=\"" +
         bounds + "\" />";
}

std::string screen(const std::string& nodes) {
  return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">" +
         nodes + "</hierarchy>";
}

// Settings opened, "Display" clicked, the Display screen, back.
std::string sample_recording() {
  const std::string home =
      screen(node("Display", "", "[0,100][1080,200]") + node("Sound", "", "[0,200][1080,300]"));
  const std::string display = screen(node("Brightness level", "", "[0,100][1080,200]"));
  std::ostringstream out;
  out << json{{"type", "recording_header"},
              {"schemaVersion", 1},
              {"sessionId", "sample"},
              {"startedAt", 1700000000000},
              {"operatorPackage", "com.clawperator.operator"}}
             .dump()
      << "\n";
  out << json{{"ts", 1700000000100},
              {"seq", 0},
              {"snapshot", home},
              {"packageName", "com.android.settings"},
              {"className", "SettingsActivity"},
              {"title", "Settings"},
              {"type", "window_change"}}
             .dump()
      << "\n";
  out << json{{"ts", 1700000000900},
              {"seq", 1},
              {"snapshot", home},
              {"packageName", "com.android.settings"},
              {"resourceId", nullptr},
              {"text", "Display"},
              {"contentDesc", nullptr},
              {"bounds", {{"left", 0}, {"top", 100}, {"right", 1080}, {"bottom", 200}}},
              {"type", "click"}}
             .dump()
      << "\n";
  out << json{{"ts", 1700000001200},
              {"seq", 2},
              {"snapshot", display},
              {"packageName", "com.android.settings"},
              {"className", "DisplayActivity"},
              {"title", "Display"},
              {"type", "window_change"}}
             .dump()
      << "\n";
  out << json{{"ts", 1700000002000},
              {"seq", 3},
              {"snapshot", display},
              {"key", "back"},
              {"type", "press_key"}}
             .dump()
      << "\n";
  return out.str();
}

// adb that cannot run: a command that reaches for it says ADB_NOT_FOUND.
RunOptions without_adb() {
  RunOptions options;
  options.extra_env = {{"ADB", "/nonexistent/adb"}};
  options.unset_env = {"ANDROID_SERIAL"};
  return options;
}

}  // namespace

TEST_CASE("recording: usage errors are exit 2 with the usage line", "[cli][recording]") {
  for (const char* family : {"recording", "record"}) {
    const json bare = expect_error(run_binary(kBinary, {family}), "USAGE", 2);
    CHECK(bare["message"].get<std::string>().find("'record' is an alias") != std::string::npos);
  }
  const json unknown = expect_error(run_binary(kBinary, {"recording", "rerun"}), "USAGE", 2);
  CHECK(unknown["details"]["argument"] == "rerun");
  const json replay = expect_error(run_binary(kBinary, {"recording", "replay"}), "USAGE", 2);
  CHECK(replay["details"]["flag"] == "--input");
  CHECK(replay["message"] ==
        "recording replay --input <recording file> [--verify] "
        "[--close-app-first] ('record' is an alias)");
  const json parse = expect_error(run_binary(kBinary, {"record", "parse"}), "USAGE", 2);
  CHECK(parse["message"] ==
        "recording parse --input <file> [--out <file>] [--as-execution] ('record' is an alias)");
  expect_error(run_binary(kBinary, {"recording", "compile"}), "USAGE", 2);
  expect_error(run_binary(kBinary, {"recording", "export"}), "USAGE", 2);
  const json compare = expect_error(
      run_binary(kBinary, {"recording", "compare", "--baseline", "b.json"}), "USAGE", 2);
  CHECK(compare["details"]["flag"] == "--result");
  // --out as the last word: the value is missing, and the flag is not called unknown.
  const json missing =
      expect_error(run_binary(kBinary, {"recording", "pull", "--out"}), "USAGE", 2);
  CHECK(missing["message"].get<std::string>().find("--out") != std::string::npos);
  // `recrod` is a typo of the alias.
  const json typo = expect_error(run_binary(kBinary, {"recrod"}), "UNKNOWN_COMMAND", 2);
  CHECK(typo["suggestion"] == "record");
}

TEST_CASE("recording: a flag of another subcommand is refused, never ignored", "[cli][recording]") {
  const json foreign =
      expect_error(run_binary(kBinary, {"recording", "start", "--input", "x.ndjson"}), "USAGE", 2);
  CHECK(foreign["details"]["flag"] == "--input");
  expect_error(run_binary(kBinary, {"recording", "parse", "--input", "x", "--force"}), "USAGE", 2);
  expect_error(run_binary(kBinary, {"recording", "export", "--input", "x", "--mode", "literal"}),
               "USAGE", 2);
  const json close_first = expect_error(
      run_binary(kBinary, {"recording", "parse", "--input", "x", "--close-app-first"}), "USAGE", 2);
  CHECK(close_first["details"]["flag"] == "--close-app-first");
  const json timeout = expect_error(
      run_binary(kBinary, {"recording", "parse", "--input", "x", "--timeout", "5000"}), "USAGE", 2);
  CHECK(timeout["details"]["flag"] == "--timeout");
  const json snapshots = expect_error(
      run_binary(kBinary, {"recording", "export", "--input", "x", "--snapshots", "some"}), "USAGE",
      2);
  CHECK(snapshots["details"]["flag"] == "--snapshots");
  const json empty =
      expect_error(run_binary(kBinary, {"recording", "start", "--session-id", ""}), "USAGE", 2);
  CHECK(empty["details"]["flag"] == "--session-id");
  expect_error(run_binary(kBinary, {"recording", "parse", "--input", ""}), "USAGE", 2);
  const json verify = expect_error(
      run_binary(kBinary, {"recording", "compile", "--input", "x", "--verify"}), "USAGE", 2);
  CHECK(verify["details"]["flag"] == "--verify");
  CHECK(verify["message"] ==
        "--verify is not an option of recording compile (it belongs to recording replay)");
  // replay reads the recording before any device: a missing one is the recording's error.
  const json missing =
      expect_error(run_binary(kBinary, {"recording", "replay", "--input", "/nonexistent.ndjson"}),
                   "RECORDING_PARSE_FAILED", 3);
  CHECK(missing["details"]["path"] == "/nonexistent.ndjson");
}

TEST_CASE("recording start with a blank id is refused before any device", "[cli][recording]") {
  const RunResult result =
      run_binary(kBinary, {"recording", "start", "--session-id", "  "}, without_adb());
  const json error = expect_error(result, "EXECUTION_VALIDATION_FAILED", 2);
  CHECK(error["message"].get<std::string>().find("sessionId must not be blank") !=
        std::string::npos);
}

TEST_CASE("recording pull refuses a bad id before adb runs; an existing file is kept",
          "[cli][recording]") {
  const TemporaryDirectory dir{"rec-cli"};
  for (const char* id : {"../evil", "nested/evil", ".", "a b", "session\nevil"}) {
    const RunResult result =
        run_binary(kBinary, {"recording", "pull", "--session-id", id, "--out", dir.path().string()},
                   without_adb());
    const json error = expect_error(result, "RECORDING_SESSION_NOT_FOUND", 3);
    CHECK(error["details"]["reason"] == "invalid_session_id");
    CHECK(error["hint"].get<std::string>().find("`clawperator recording start`") !=
          std::string::npos);
  }
  CHECK(fs::is_empty(dir.path()));
  // Whether an existing file is in the way is known once the device's is pulled (the same
  // bytes are not): with or without --force the pull reaches for adb, which is not there, and
  // the file stays as it was.
  write_file(dir.path() / "kept.ndjson", "mine");
  for (const bool force : {false, true}) {
    std::vector<std::string> args{"recording", "pull",  "--session-id",
                                  "kept",      "--out", dir.path().string()};
    if (force) args.emplace_back("--force");
    expect_error(run_binary(kBinary, args, without_adb()), "ADB_NOT_FOUND", 3);
    CHECK(read_whole_file(dir.path() / "kept.ndjson") == "mine");
  }
}

TEST_CASE("recording parse, compile and export of a recording", "[cli][recording]") {
  const TemporaryDirectory dir{"rec-cli"};
  const fs::path input = dir.path() / "sample.ndjson";
  write_file(input, sample_recording());

  const RunResult parsed = run_binary(kBinary, {"recording", "parse", "--input", input.string()});
  CHECK(parsed.exit_code == 0);
  const json steps = single_document(parsed);
  CHECK(steps["ok"] == true);
  CHECK(steps["stepCount"] == 2);
  CHECK(steps["outputFile"] == (dir.path() / "sample.steps.json").string());
  CHECK(parsed.err.empty());  // the step lines are for --output pretty
  const json step_file = json::parse(read_whole_file(dir.path() / "sample.steps.json"));
  CHECK(step_file["steps"][0]["type"] == "open_app");
  CHECK(step_file["steps"][1]["text"] == "Display");

  const RunResult pretty =
      run_binary(kBinary, {"recording", "parse", "--input", input.string(), "--out",
                           (dir.path() / "p.json").string(), "--output", "pretty"});
  CHECK(pretty.exit_code == 0);
  CHECK(pretty.err.find("[1] click      text=\"Display\"") != std::string::npos);

  const RunResult compiled =
      run_binary(kBinary, {"recording", "compile", "--input", input.string(), "--close-app-first"});
  REQUIRE(compiled.exit_code == 0);
  const json document = single_document(compiled);
  CHECK(document["sessionId"] == "sample");
  CHECK(document["payloadCount"] == 1);
  CHECK_FALSE(document.contains("outputFile"));
  const json& actions = document["execution"]["actions"];
  CHECK(actions[0]["type"] == "close_app");
  CHECK(actions[1]["type"] == "open_app");
  CHECK(actions[1]["params"]["applicationId"] == "com.android.settings");

  // parse --as-execution writes the payload beside the recording; exec validates it.
  const RunResult as_execution =
      run_binary(kBinary, {"recording", "parse", "--input", input.string(), "--as-execution"});
  REQUIRE(as_execution.exit_code == 0);
  const fs::path payload = dir.path() / "sample.execution.json";
  CHECK(single_document(as_execution)["outputFile"] == payload.string());
  const RunResult validated = run_binary(kBinary, {"exec", payload.string(), "--validate-only"});
  CHECK(validated.exit_code == 0);
  CHECK(single_document(validated)["validated"] == true);

  const RunResult exported = run_binary(
      kBinary, {"recording", "export", "--input", dir.path().string(), "--snapshots", "include"});
  REQUIRE(exported.exit_code == 0);
  const json export_document = single_document(exported);
  CHECK(export_document["eventCount"] == 4);
  const json export_file =
      json::parse(read_whole_file(export_document["outputFile"].get<std::string>()));
  CHECK(export_file["snapshotMode"] == "include");
  CHECK(export_file["events"][1]["snapshot"]["present"] == true);
}

TEST_CASE("recording parse of a bad recording names the code, line and exit", "[cli][recording]") {
  const TemporaryDirectory dir{"rec-cli"};
  const fs::path input = dir.path() / "bad.ndjson";
  const std::string header =
      R"({"type":"recording_header","schemaVersion":1,"sessionId":"s","startedAt":1,"operatorPackage":"p"})";
  write_file(input, header + "\n\n{not json\n");
  const json error =
      expect_error(run_binary(kBinary, {"recording", "parse", "--input", input.string()}),
                   "RECORDING_PARSE_FAILED", 3);
  CHECK(error["message"] == "Malformed NDJSON at line 3");
  CHECK(error["details"]["line"] == 3);
  CHECK_FALSE(fs::exists(dir.path() / "bad.steps.json"));

  write_file(
      input,
      R"({"type":"recording_header","schemaVersion":2,"sessionId":"s","startedAt":1,"operatorPackage":"p"})"
      "\n");
  const json version =
      expect_error(run_binary(kBinary, {"recording", "parse", "--input", input.string()}),
                   "RECORDING_SCHEMA_VERSION_UNSUPPORTED", 3);
  CHECK(version["message"] == "Unsupported recording schema version: 2");

  write_file(input, header + "\n");
  const json nothing =
      expect_error(run_binary(kBinary, {"recording", "compile", "--input", input.string()}),
                   "RECORDING_PARSE_FAILED", 3);
  CHECK(nothing["message"] == "Recording has no replayable steps");

  const json missing_dir = expect_error(
      run_binary(kBinary, {"recording", "export", "--input", (dir.path() / "none").string()}),
      "RECORDING_PARSE_FAILED", 3);
  (void)missing_dir;
}

TEST_CASE("recording compare: the report, exit 0 on a match and 1 on a divergence",
          "[cli][recording]") {
  const TemporaryDirectory dir{"rec-cli"};
  const fs::path input = dir.path() / "sample.ndjson";
  write_file(input, sample_recording());
  REQUIRE(run_binary(kBinary, {"recording", "export", "--input", input.string()}).exit_code == 0);
  const std::string baseline = (dir.path() / "sample.export.json").string();
  const auto saved_run = [&dir](const std::string& name, const json& checkpoints) {
    const json run{{"ok", true},
                   {"skillId", "com.android.settings.display"},
                   {"skillResult",
                    {{"contractVersion", "1.0.0"},
                     {"skillId", "com.android.settings.display"},
                     {"source", {{"kind", "script"}}},
                     {"status", "success"},
                     {"checkpoints", checkpoints},
                     {"terminalVerification", {{"status", "verified"}}}}}};
    write_file(dir.path() / name, run.dump());
    return (dir.path() / name).string();
  };
  const std::string matching =
      saved_run("match.json", json::array({{{"id", "app_opened"}, {"status", "ok"}}}));
  const RunResult matched =
      run_binary(kBinary, {"recording", "compare", "--baseline", baseline, "--result", matching});
  CHECK(matched.exit_code == 0);
  const json report = single_document(matched);
  CHECK(report["ok"] == true);
  CHECK(report["outcome"] == "literal_match");
  CHECK(report["compareMode"] == "literal");
  CHECK(report["baseline"]["appPackage"] == "com.android.settings");
  CHECK(report["baseline"]["checkpointIds"] == json::array({"app_opened"}));

  const std::string drifting =
      saved_run("drift.json", json::array({{{"id", "display_opened"}, {"status", "ok"}}}));
  const RunResult drifted = run_binary(kBinary, {"recording", "compare", "--baseline", baseline,
                                                 "--result", drifting, "--mode", "semantic"});
  CHECK(drifted.exit_code == 0);  // semantic: verified, the path may differ
  CHECK(single_document(drifted)["outcome"] == "outcome_matches_path_differs");
  const RunResult literal =
      run_binary(kBinary, {"recording", "compare", "--baseline", baseline, "--result", drifting});
  CHECK(literal.exit_code == 1);
  const json drift = single_document(literal);
  CHECK(drift["ok"] == false);
  CHECK(drift["outcome"] == "baseline_drift");
  CHECK(drift["firstDivergence"]["baselineSummary"] == "window_change:com.android.settings");

  const json mode =
      expect_error(run_binary(kBinary, {"recording", "compare", "--baseline", baseline, "--result",
                                        matching, "--mode", "fuzzy"}),
                   "USAGE", 2);
  CHECK(mode["details"]["flag"] == "--mode");
  const json no_baseline =
      expect_error(run_binary(kBinary, {"recording", "compare", "--result", matching}), "USAGE", 2);
  CHECK(no_baseline["details"]["flag"] == "--baseline");

  // The recording itself is no export; a skills run without a parsed result is an input error
  // of its own, with a hint about the run.
  const json not_export = expect_error(run_binary(kBinary, {"recording", "compare", "--baseline",
                                                            input.string(), "--result", matching}),
                                       "RECORDING_COMPARE_FAILED", 3);
  CHECK(not_export["details"]["reason"] == "not valid JSON");
  CHECK(not_export["hint"].get<std::string>().find("clawperator recording export") !=
        std::string::npos);
  write_file(dir.path() / "none.json", R"({"ok":true,"skillResult":null})");
  const json no_result =
      expect_error(run_binary(kBinary, {"recording", "compare", "--baseline", baseline, "--result",
                                        (dir.path() / "none.json").string()}),
                   "SKILL_RESULT_MISSING", 2);
  CHECK(no_result["details"]["reason"] == "skillResult is null");
  CHECK(no_result["disposition"] == json{{"delivery", "not_delivered"}, {"retry", "safe"}});
  CHECK(no_result["hint"].get<std::string>().find("clawperator skills run") != std::string::npos);
  const json absent =
      expect_error(run_binary(kBinary, {"recording", "compare", "--baseline", baseline, "--result",
                                        (dir.path() / "absent.json").string()}),
                   "RECORDING_COMPARE_FAILED", 3);
  CHECK(absent["details"]["reason"] == "No such file or directory");
}
