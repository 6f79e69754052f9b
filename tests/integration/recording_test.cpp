// recording start → a person's taps, typing and back key through `adb shell input` → stop →
// pull → parse → compile → exec of the compiled payload, through the real adb against the
// virtual device's recorder (docs/recording.md).
#include <filesystem>
#include <regex>
#include <set>

#include "farm_fixture.hpp"
#include "test_files.hpp"

using namespace clawperator::testing;
namespace fs = std::filesystem;

namespace {

// The snapshot's XML on `serial`.
std::string screen_xml(const Farm& farm, const std::string& serial) {
  const RunResult result = farm.clawperator({"snapshot", "--device", serial});
  REQUIRE(result.exit_code == 0);
  return single_document(result)["envelope"]["stepResults"][0]["data"]["text"].get<std::string>();
}

// What a person sees on the screen: every text and resource-id, in a set.
std::set<std::string> screen_labels(const std::string& xml) {
  std::set<std::string> labels;
  static const std::regex attribute(R"re((text|resource-id)="([^"]+)")re");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), attribute);
       it != std::sregex_iterator(); ++it) {
    labels.insert((*it)[1].str() + "=" + (*it)[2].str());
  }
  return labels;
}

// The centre of the node whose resource-id is `id` ("[l,t][r,b]").
std::pair<int, int> centre_of(const std::string& xml, const std::string& id) {
  const std::regex bounds("resource-id=\"" +
                          std::regex_replace(id, std::regex(R"([.:/])"), R"(\$&)") +
                          R"re("[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]")re");
  std::smatch match;
  REQUIRE(std::regex_search(xml, match, bounds));
  return {(std::stoi(match[1]) + std::stoi(match[3])) / 2,
          (std::stoi(match[2]) + std::stoi(match[4])) / 2};
}

}  // namespace

TEST_CASE("recording: a person's session, pulled, compiled and replayed reaches the same screen",
          "[integration][recording]") {
  Farm farm({"default"});
  const std::string serial = farm.serials().front();
  const auto cli = [&](std::vector<std::string> args) {
    args.insert(args.end(), {"--device", serial});
    return farm.clawperator(args);
  };
  const auto shell = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"-s", serial, "shell"});
    const RunResult result = farm.adb(args);
    INFO(result.err);
    CHECK(result.exit_code == 0);
  };

  const RunResult started = cli({"recording", "start", "--session-id", "it-rec"});
  REQUIRE(started.exit_code == 0);
  const json start = single_document(started);
  CHECK(start["envelope"]["stepResults"][0]["data"]["sessionId"] == "it-rec");
  CHECK(start["envelope"]["stepResults"][0]["data"]["filePath"].get<std::string>().find(
            "/files/recordings/it-rec.ndjson") != std::string::npos);
  // A second start: the step's code promoted to the wrapper, exit 1.
  const RunResult again = cli({"record", "start", "--session-id", "other"});
  CHECK(again.exit_code == 1);
  const json busy = single_document(again);
  CHECK(busy["code"] == "RECORDING_ALREADY_IN_PROGRESS");
  CHECK(busy["failedStep"]["actionType"] == "start_recording");
  CHECK(busy["envelope"]["stepResults"][0]["data"]["sessionId"] == "it-rec");

  // The person: opens Settings, taps the search bar, types, goes back.
  shell({"am", "start", "-n", "com.android.settings/.Settings"});
  const std::string home = screen_xml(farm, serial);
  const auto [x, y] = centre_of(home, "com.android.settings:id/search_action_bar");
  shell({"input", "tap", std::to_string(x), std::to_string(y)});
  CHECK(screen_xml(farm, serial).find("android:id/search_src_text") != std::string::npos);
  shell({"input", "text", "wifi"});
  shell({"input", "keyevent", "4"});
  const std::set<std::string> recorded_end = screen_labels(screen_xml(farm, serial));

  const RunResult stopped = cli({"recording", "stop"});
  REQUIRE(stopped.exit_code == 0);
  const json stop = single_document(stopped);
  CHECK(stop["envelope"]["stepResults"][0]["data"]["sessionId"] == "it-rec");
  CHECK(std::stoi(stop["envelope"]["stepResults"][0]["data"]["eventCount"].get<std::string>()) >=
        4);
  const RunResult idle = cli({"recording", "stop"});
  CHECK(idle.exit_code == 1);
  CHECK(single_document(idle)["code"] == "RECORDING_NOT_IN_PROGRESS");

  const TemporaryDirectory dir{"rec-it"};
  const std::string out = dir.path().string();
  // The device's latest pointer names the recording just stopped.
  const RunResult pulled = cli({"recording", "pull", "--out", out});
  REQUIRE(pulled.exit_code == 0);
  const json pull = single_document(pulled);
  const fs::path local = dir.path() / "it-rec.ndjson";
  CHECK(pull["sessionId"] == "it-rec");
  CHECK(pull["localPath"] == local.string());
  CHECK(pull["bytes"] == fs::file_size(local));
  const std::string pulled_text = read_file(local.string());
  // Never over an existing file; a missing session leaves nothing behind.
  const json exists =
      expect_error(cli({"recording", "pull", "--out", out}), "RECORDING_PULL_FAILED", 3);
  CHECK(exists["details"]["reason"] == "exists");
  CHECK(read_file(local.string()) == pulled_text);
  const json missing =
      expect_error(cli({"recording", "pull", "--session-id", "never-recorded", "--out", out}),
                   "RECORDING_SESSION_NOT_FOUND", 3);
  CHECK(missing["details"]["reason"] == "no_such_recording");
  std::size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    (void)entry;
    ++entries;
  }
  CHECK(entries == 1);
  CHECK(cli({"recording", "pull", "--out", out, "--force"}).exit_code == 0);

  const RunResult parsed = farm.clawperator({"recording", "parse", "--input", local.string()});
  REQUIRE(parsed.exit_code == 0);
  const json steps = json::parse(read_file((dir.path() / "it-rec.steps.json").string()));
  REQUIRE(steps["steps"].size() >= 2);
  CHECK(steps["steps"][0]["type"] == "open_app");
  CHECK(steps["steps"][0]["packageName"] == "com.android.settings");
  CHECK(steps["steps"][1]["type"] == "click");
  CHECK(steps["steps"][1]["resourceId"] == "com.android.settings:id/search_action_bar");

  // The export, and a skill run that reports the baseline's own checkpoints compares literally.
  const RunResult exported = farm.clawperator(
      {"recording", "export", "--input", local.string(), "--snapshots", "include"});
  REQUIRE(exported.exit_code == 0);
  const std::string baseline = single_document(exported)["outputFile"];
  const fs::path run_file = dir.path() / "run.json";
  const auto compare_with = [&](const json& checkpoints) {
    write_file(run_file, json{{"skillResult",
                               {{"contractVersion", "1.0.0"},
                                {"skillId", "com.android.settings.search"},
                                {"source", {{"kind", "script"}}},
                                {"status", "success"},
                                {"checkpoints", checkpoints},
                                {"terminalVerification", {{"status", "verified"}}}}}}
                             .dump());
    return farm.clawperator(
        {"recording", "compare", "--baseline", baseline, "--result", run_file.string()});
  };
  const RunResult first_compare = compare_with(json::array());
  const json drift = single_document(first_compare);
  CHECK(first_compare.exit_code == 1);
  CHECK(drift["baseline"]["appPackage"] == "com.android.settings");
  REQUIRE(drift["baseline"]["checkpointIds"].size() >= 1);
  CHECK(drift["baseline"]["checkpointIds"][0] == "app_opened");
  json checkpoints = json::array();
  for (const json& id : drift["baseline"]["checkpointIds"]) {
    checkpoints.push_back({{"id", id}, {"status", "ok"}});
  }
  const RunResult matched = compare_with(checkpoints);
  CHECK(matched.exit_code == 0);
  CHECK(single_document(matched)["outcome"] == "literal_match");

  const fs::path replay = dir.path() / "replay.json";
  const RunResult compiled =
      farm.clawperator({"recording", "parse", "--input", local.string(), "--as-execution",
                        "--close-app-first", "--out", replay.string()});
  REQUIRE(compiled.exit_code == 0);
  const json compile = single_document(compiled);
  std::vector<std::string> types;
  for (const json& action : compile["execution"]["actions"]) types.push_back(action["type"]);
  INFO(compile.dump(2));
  CHECK(std::find(types.begin(), types.end(), "enter_text") != types.end());
  CHECK(std::find(types.begin(), types.end(), "press_key") != types.end());
  CHECK_FALSE(compile.contains("warnings"));

  // Somewhere else first, then the replay: the same screen as at the end of the recording.
  shell({"input", "keyevent", "3"});
  CHECK(screen_labels(screen_xml(farm, serial)) != recorded_end);
  const RunResult replayed = cli({"exec", replay.string()});
  INFO(replayed.out);
  REQUIRE(replayed.exit_code == 0);
  CHECK(screen_labels(screen_xml(farm, serial)) == recorded_end);
}
