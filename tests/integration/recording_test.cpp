// recording start → a person's taps, typing and back key through `adb shell input` → stop →
// pull → parse → compile → exec of the compiled payload, through the real adb against the
// virtual device's recorder (docs/recording.md); and the same flow run by a skill of its own
// checkpoint ids, compared with the recording.
#include <filesystem>
#include <regex>
#include <set>

#include "../unit/recording/recording_lines.hpp"
#include "farm_fixture.hpp"
#include "skills_repo.hpp"
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

struct NodeBounds {
  int left = 0, top = 0, right = 0, bottom = 0;
  int centre_x() const { return (left + right) / 2; }
  int centre_y() const { return (top + bottom) / 2; }
};

// The bounds ("[l,t][r,b]") of the first node whose `attribute` is `value` (as the XML writes
// it: escaped).
NodeBounds bounds_of(const std::string& xml, const std::string& attribute,
                     const std::string& value) {
  const std::regex bounds(attribute + "=\"" +
                          std::regex_replace(value, std::regex(R"([.:/&;])"), R"(\$&)") +
                          R"re("[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]")re");
  std::smatch match;
  REQUIRE(std::regex_search(xml, match, bounds));
  return {std::stoi(match[1]), std::stoi(match[2]), std::stoi(match[3]), std::stoi(match[4])};
}

// The centre of the node whose resource-id is `id`.
std::pair<int, int> centre_of(const std::string& xml, const std::string& id) {
  const NodeBounds bounds = bounds_of(xml, "resource-id", id);
  return {bounds.centre_x(), bounds.centre_y()};
}

// One virtual phone; the CLI and `adb shell` aimed at it, as a person's terminal would be.
struct Phone {
  Farm farm{{"default"}};
  std::string serial = farm.serials().front();

  RunResult cli(std::vector<std::string> args) const {
    args.insert(args.end(), {"--device", serial});
    return farm.clawperator(args);
  }
  std::string screen() const { return screen_xml(farm, serial); }
  void shell(std::vector<std::string> args) const {
    args.insert(args.begin(), {"-s", serial, "shell"});
    const RunResult result = farm.adb(args);
    INFO(result.err);
    CHECK(result.exit_code == 0);
  }
};

// The person of docs/recording.md's example: opens Settings, taps the search bar, types
// "wifi", goes back.
void search_settings_as_a_person(const Phone& phone) {
  phone.shell({"am", "start", "-n", "com.android.settings/.Settings"});
  const auto [x, y] = centre_of(phone.screen(), "com.android.settings:id/search_action_bar");
  phone.shell({"input", "tap", std::to_string(x), std::to_string(y)});
  CHECK(phone.screen().find("android:id/search_src_text") != std::string::npos);
  phone.shell({"input", "text", "wifi"});
  phone.shell({"input", "keyevent", "4"});
}

}  // namespace

TEST_CASE("recording: a person's session, pulled, compiled and replayed reaches the same screen",
          "[integration][recording]") {
  const Phone phone;

  const RunResult started = phone.cli({"recording", "start", "--session-id", "it-rec"});
  REQUIRE(started.exit_code == 0);
  const json start = single_document(started);
  CHECK(start["envelope"]["stepResults"][0]["data"]["sessionId"] == "it-rec");
  CHECK(start["envelope"]["stepResults"][0]["data"]["filePath"].get<std::string>().find(
            "/files/recordings/it-rec.ndjson") != std::string::npos);
  // A second start: the step's code promoted to the wrapper, exit 1.
  const RunResult again = phone.cli({"record", "start", "--session-id", "other"});
  CHECK(again.exit_code == 1);
  const json busy = single_document(again);
  CHECK(busy["code"] == "RECORDING_ALREADY_IN_PROGRESS");
  CHECK(busy["failedStep"]["actionType"] == "start_recording");
  CHECK(busy["envelope"]["stepResults"][0]["data"]["sessionId"] == "it-rec");

  search_settings_as_a_person(phone);
  const std::set<std::string> recorded_end = screen_labels(phone.screen());

  const RunResult stopped = phone.cli({"recording", "stop"});
  REQUIRE(stopped.exit_code == 0);
  const json stop = single_document(stopped);
  CHECK(stop["envelope"]["stepResults"][0]["data"]["sessionId"] == "it-rec");
  CHECK(std::stoi(stop["envelope"]["stepResults"][0]["data"]["eventCount"].get<std::string>()) >=
        4);
  // Nothing recording: the Operator's refusal, and a hint at the command a person types.
  const RunResult idle = phone.cli({"recording", "stop"});
  CHECK(idle.exit_code == 1);
  const json not_recording = single_document(idle);
  CHECK(not_recording["code"] == "RECORDING_NOT_IN_PROGRESS");
  CHECK(not_recording["disposition"]["delivery"] == "delivered_unverified");
  CHECK(not_recording["disposition"]["retry"] == "unsafe");
  CHECK(not_recording["hint"] ==
        "Start a recording with `clawperator recording start` first, or skip the stop.");

  const TemporaryDirectory dir{"rec-it"};
  const std::string out = dir.path().string();
  // The device's latest pointer names the recording just stopped.
  const RunResult pulled = phone.cli({"recording", "pull", "--out", out});
  REQUIRE(pulled.exit_code == 0);
  const json pull = single_document(pulled);
  const fs::path local = dir.path() / "it-rec.ndjson";
  CHECK(pull["sessionId"] == "it-rec");
  CHECK(pull["localPath"] == local.string());
  CHECK(pull["bytes"] == fs::file_size(local));
  CHECK(pull["alreadyPresent"] == false);
  const std::string pulled_text = read_file(local.string());
  // Pulled again: the same bytes are the pull already done.
  const RunResult repeated = phone.cli({"recording", "pull", "--out", out});
  REQUIRE(repeated.exit_code == 0);
  CHECK(single_document(repeated)["alreadyPresent"] == true);
  CHECK(single_document(repeated)["bytes"] == pulled_text.size());
  // Never over a file of other content; a missing session leaves nothing behind.
  write_file(local, pulled_text + "\n");
  const json exists =
      expect_error(phone.cli({"recording", "pull", "--out", out}), "RECORDING_PULL_FAILED", 3);
  CHECK(exists["details"]["reason"] == "exists");
  CHECK(exists["details"]["errno"] == EEXIST);
  CHECK(read_file(local.string()) == pulled_text + "\n");
  // A link is never the file pulled, even to the same bytes.
  const fs::path copy = dir.path() / "copy.ndjson";
  write_file(copy, pulled_text);
  fs::remove(local);
  fs::create_symlink(copy, local);
  const json linked =
      expect_error(phone.cli({"recording", "pull", "--out", out}), "RECORDING_PULL_FAILED", 3);
  CHECK(linked["details"]["reason"] == "exists");
  CHECK(fs::is_symlink(local));
  const json missing =
      expect_error(phone.cli({"recording", "pull", "--session-id", "never-recorded", "--out", out}),
                   "RECORDING_SESSION_NOT_FOUND", 3);
  CHECK(missing["details"]["reason"] == "no_such_recording");
  std::size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    (void)entry;
    ++entries;
  }
  CHECK(entries == 2);  // the recording, and the link's target
  CHECK(phone.cli({"recording", "pull", "--out", out, "--force"}).exit_code == 0);
  CHECK(read_file(local.string()) == pulled_text);

  const RunResult parsed =
      phone.farm.clawperator({"recording", "parse", "--input", local.string()});
  REQUIRE(parsed.exit_code == 0);
  const json steps = json::parse(read_file((dir.path() / "it-rec.steps.json").string()));
  REQUIRE(steps["steps"].size() >= 2);
  CHECK(steps["steps"][0]["type"] == "open_app");
  CHECK(steps["steps"][0]["packageName"] == "com.android.settings");
  CHECK(steps["steps"][1]["type"] == "click");
  CHECK(steps["steps"][1]["resourceId"] == "com.android.settings:id/search_action_bar");

  // The export, and a skill run that reports the baseline's own checkpoints compares literally.
  const RunResult exported = phone.farm.clawperator(
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
    return phone.farm.clawperator(
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
      phone.farm.clawperator({"recording", "parse", "--input", local.string(), "--as-execution",
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
  phone.shell({"input", "keyevent", "3"});
  CHECK(screen_labels(phone.screen()) != recorded_end);
  const RunResult replayed = phone.cli({"exec", replay.string()});
  INFO(replayed.out);
  REQUIRE(replayed.exit_code == 0);
  CHECK(screen_labels(phone.screen()) == recorded_end);

  // And checked by the replay itself, from a fresh start of the app: the typing and the back
  // key lead to the screen the recording ended on.
  phone.shell({"input", "keyevent", "3"});
  const RunResult verified = phone.cli(
      {"recording", "replay", "--input", local.string(), "--verify", "--close-app-first"});
  INFO(verified.out.substr(0, 3000));
  REQUIRE(verified.exit_code == 0);
  CHECK(single_document(verified)["replay"]["verified"] == true);
}

TEST_CASE(
    "recording: a swipe down the Settings list and a tap on a row below the fold replay from a "
    "fresh start",
    "[integration][recording]") {
  const Phone phone;

  REQUIRE(phone.cli({"recording", "start", "--session-id", "it-scroll"}).exit_code == 0);
  // The person: opens Settings, swipes the list up by two thirds of its height, taps the row
  // that came into view.
  phone.shell({"am", "start", "-n", "com.android.settings/.Settings"});
  const std::string top = phone.screen();
  CHECK(top.find("Passwords &amp; accounts") == std::string::npos);
  const NodeBounds list = bounds_of(top, "resource-id", "com.android.settings:id/recycler_view");
  const int third = (list.bottom - list.top) / 3;
  phone.shell({"input", "swipe", std::to_string(list.centre_x()),
               std::to_string(list.centre_y() + third), std::to_string(list.centre_x()),
               std::to_string(list.centre_y() - third), "300"});
  const NodeBounds row = bounds_of(phone.screen(), "text", "Passwords &amp; accounts");
  phone.shell({"input", "tap", std::to_string(row.centre_x()), std::to_string(row.centre_y())});
  const std::set<std::string> recorded_end = screen_labels(phone.screen());
  CHECK(recorded_end.count("text=Passwords &amp; accounts") == 1);  // the new screen's title
  REQUIRE(phone.cli({"recording", "stop"}).exit_code == 0);

  const TemporaryDirectory dir{"rec-scroll"};
  REQUIRE(phone.cli({"recording", "pull", "--out", dir.path().string()}).exit_code == 0);
  const fs::path local = dir.path() / "it-scroll.ndjson";
  const fs::path replay = dir.path() / "replay.json";
  const RunResult compiled =
      phone.farm.clawperator({"recording", "compile", "--input", local.string(),
                              "--close-app-first", "--out", replay.string()});
  REQUIRE(compiled.exit_code == 0);
  const json compile = single_document(compiled);
  INFO(compile.dump(2));
  CHECK_FALSE(compile.contains("warnings"));
  REQUIRE(compile["payloadCount"] == 1);
  const json& actions = compile["execution"]["actions"];
  std::vector<std::string> types;
  for (const json& action : actions) types.push_back(action["type"]);
  CHECK(types == std::vector<std::string>{"close_app", "open_app", "wait_for_node", "scroll_until",
                                          "click", "wait_for_node"});
  CHECK(actions[3]["params"] == json{{"matcher", {{"textEquals", "Passwords & accounts"}}},
                                     {"direction", "down"},
                                     {"maxScrolls", 5},
                                     {"maxDurationMs", 5000}});
  CHECK(actions[4]["params"] ==
        json{{"matcher", {{"textEquals", "Passwords & accounts"}}}, {"strict", true}});

  // Somewhere else first; the replay starts Settings afresh (its list at the top) and scrolls.
  phone.shell({"input", "keyevent", "3"});
  CHECK(screen_labels(phone.screen()) != recorded_end);
  const RunResult replayed = phone.cli({"exec", replay.string()});
  INFO(replayed.out);
  REQUIRE(replayed.exit_code == 0);
  const json scrolled = single_document(replayed)["envelope"]["stepResults"][3];
  CHECK(scrolled["actionType"] == "scroll_until");
  CHECK(scrolled["data"]["termination_reason"] == "TARGET_FOUND");
  CHECK(scrolled["data"]["scrolls"] == "1");
  CHECK(screen_labels(phone.screen()) == recorded_end);
}

// The click a person's tap on Settings' "Network & internet" row records, on `home` (the
// Settings start screen as the virtual phone draws it).
clawperator::test_recording::ClickFields network_row_tap(const std::string& home) {
  const NodeBounds row = bounds_of(home, "text", "Network &amp; internet");
  clawperator::test_recording::ClickFields tap =
      clawperator::test_recording::click_on_text("Network & internet");
  tap.package = "com.android.settings";
  tap.left = row.left;
  tap.top = row.top;
  tap.right = row.right;
  tap.bottom = row.bottom;
  return tap;
}

TEST_CASE("recording: forty steps compile to one file that exec replays as a sequence",
          "[integration][recording]") {
  using namespace clawperator::test_recording;
  const Phone phone;
  phone.shell({"am", "start", "-n", "com.android.settings/.Settings"});
  const std::string home = phone.screen();
  REQUIRE(home.find("Network &amp; internet") != std::string::npos);
  REQUIRE(phone.cli({"click", "--text", "Network & internet"}).exit_code == 0);
  const std::string network = phone.screen();
  REQUIRE(network.find("Airplane mode") != std::string::npos);
  phone.shell({"input", "keyevent", "4"});

  // A person going in and out of Network & internet twenty times, five seconds a step: each
  // wait gets its 10 s, so the replay is longer than one payload's 120 s.
  ClickFields tap = network_row_tap(home);
  std::string lines = header_line("forty-steps") + "\n" +
                      at_ms(window_change_line(0, "com.android.settings", home), 0) + "\n";
  long long seq = 0;
  for (int round = 0; round < 20; ++round) {
    ++seq;
    lines += at_ms(click_line(seq, tap, home), seq * 5000) + "\n";
    ++seq;
    lines += at_ms(press_back_line(seq, network), seq * 5000) + "\n";
  }
  const TemporaryDirectory dir{"rec-forty"};
  const fs::path recording = dir.path() / "forty-steps.ndjson";
  write_file(recording, lines);
  const fs::path replay = dir.path() / "replay.json";
  const RunResult compiled = phone.farm.clawperator(
      {"recording", "compile", "--input", recording.string(), "--out", replay.string()});
  INFO(compiled.out << compiled.err);
  REQUIRE(compiled.exit_code == 0);
  const json compile = single_document(compiled);
  CHECK(compile["outputFile"] == replay.string());
  REQUIRE(compile["payloadCount"].get<int>() > 1);
  const json file = json::parse(read_file(replay.string()));
  REQUIRE(file["executions"].size() == compile["payloadCount"]);

  // From elsewhere: the replay opens Settings and ends where the person did.
  phone.shell({"input", "keyevent", "3"});
  const RunResult replayed = phone.cli({"exec", replay.string()});
  INFO(replayed.out.substr(0, 3000));
  REQUIRE(replayed.exit_code == 0);
  const json document = single_document(replayed);
  CHECK(document["sequence"]["count"] == compile["payloadCount"]);
  std::size_t clicks = 0;
  for (const json& part : document["executions"]) {
    for (const json& step : part["envelope"]["stepResults"]) {
      if (step["actionType"] == "click") ++clicks;
    }
  }
  CHECK(clicks == 20);
  CHECK(screen_labels(phone.screen()) == screen_labels(home));
}

TEST_CASE("recording replay --verify: the end screen the recording saw, or the divergence",
          "[integration][recording]") {
  using namespace clawperator::test_recording;
  const Phone phone;
  phone.shell({"am", "start", "-n", "com.android.settings/.Settings"});
  const std::string home = phone.screen();
  REQUIRE(phone.cli({"click", "--text", "Network & internet"}).exit_code == 0);
  const std::string network = phone.screen();
  REQUIRE(network.find("Airplane mode") != std::string::npos);

  ClickFields tap = network_row_tap(home);
  const TemporaryDirectory dir{"rec-replay"};
  // A person's tap on Network & internet, and the screen it led to (`end`, the last one seen).
  const auto recording_ending_on = [&](const std::string& name, const std::string& end) {
    std::string lines = header_line(name) + "\n" +
                        at_ms(window_change_line(0, "com.android.settings", home), 0) + "\n" +
                        at_ms(click_line(1, tap, home), 1500) + "\n";
    if (!end.empty())
      lines += at_ms(window_change_line(2, "com.android.settings", end), 2000) + "\n";
    const fs::path path = dir.path() / (name + ".ndjson");
    write_file(path, lines);
    return path.string();
  };
  const auto replay = [&](const std::string& recording) {
    phone.shell({"input", "keyevent", "3"});
    return phone.cli(
        {"recording", "replay", "--input", recording, "--verify", "--close-app-first"});
  };

  const RunResult same = replay(recording_ending_on("same", network));
  INFO(same.out.substr(0, 3000) << same.err);
  REQUIRE(same.exit_code == 0);
  const json verified = single_document(same);
  CHECK(verified["ok"] == true);
  CHECK(verified["replay"]["verified"] == true);
  CHECK(verified["replay"]["sessionId"] == "same");
  CHECK(verified["replay"]["payloadCount"] == 1);
  CHECK(verified["replay"]["finalScreen"]["texts"].get<int>() > 3);

  // The app renamed a row since: the replay reaches the screen, which is not the recorded one.
  std::string renamed = network;
  renamed.replace(renamed.find("Airplane mode"), 13, "Flight mode");
  const RunResult renamed_run = replay(recording_ending_on("renamed", renamed));
  const json diverged = single_document(renamed_run);
  CHECK(renamed_run.exit_code == 1);
  REQUIRE(diverged["code"] == "REPLAY_DIVERGED");
  CHECK(diverged["details"]["recordedOnly"]["texts"] == json::array({"Flight mode"}));
  CHECK(diverged["details"]["replayedOnly"]["texts"] == json::array({"Airplane mode"}));
  CHECK(diverged["disposition"] == json{{"delivery", "delivered_verified"}, {"retry", "unsafe"}});
  CHECK(diverged["replay"]["verified"] == false);
  CHECK(diverged["run"]["ok"] == true);

  // Nothing after the last tap: nothing to verify against, and nothing is sent.
  const json unverifiable =
      expect_error(replay(recording_ending_on("no-end", "")), "REPLAY_UNVERIFIABLE", 2);
  CHECK(unverifiable["disposition"] == json{{"delivery", "not_delivered"}, {"retry", "safe"}});
  CHECK(phone.screen().find("Network &amp; internet") == std::string::npos);

  // A step the recording took that the replay cannot: the failed step is the divergence.
  std::string moved = home;
  moved.replace(moved.find("Network &amp; internet"), 22, "Connections");
  tap.text = "Connections";
  const std::string gone = dir.path() / "gone.ndjson";
  write_file(gone, header_line("gone") + "\n" +
                       at_ms(window_change_line(0, "com.android.settings", moved), 0) + "\n" +
                       at_ms(click_line(1, tap, moved), 1500) + "\n" +
                       at_ms(window_change_line(2, "com.android.settings", network), 2000) + "\n");
  const RunResult failed = replay(gone);
  const json failure = single_document(failed);
  CHECK(failed.exit_code == 1);
  CHECK(failure["ok"] == false);
  CHECK(failure["replay"]["verified"] == false);
  // The wait for what the person tapped, on the screen before the tap, is where it parts.
  CHECK(failure["replay"]["divergence"]["step"]["actionType"] == "wait_for_node");
  CHECK(failure["code"] == "WAIT_TIMEOUT");
}

TEST_CASE("recording: docs/recording.md's worked example runs as written, twice",
          "[integration][recording]") {
  const std::string doc = read_file(std::string(CLAWPERATOR_SOURCE_DIR) + "/docs/recording.md");
  const std::string heading = "## A worked example: record on the virtual device, compile, replay";
  const auto section = doc.find(heading);
  REQUIRE(section != std::string::npos);
  const auto from = doc.find("```sh\n", section);
  const auto to = doc.find("```\n", from + 6);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  const TemporaryDirectory dir{"rec-example"};
  write_file(dir.path() / "record-replay.sh", doc.substr(from + 6, to - from - 6));
  const std::string bin = fs::path(CLAWPERATOR_BINARY).parent_path().string();
  const std::string vdevice = fs::path(CLAWPERATOR_VDEVICE_BINARY).parent_path().string();
  RunOptions options;
  options.working_directory = dir.path().string();
  options.extra_env = {{"PATH", bin + ":" + vdevice + ":" + std::getenv("PATH")},
                       {"CLAWPERATOR_STATE_DIR", (dir.path() / "state").string()},
                       {"CLAWPERATOR_LOG_DIR", (dir.path() / "logs").string()},
                       {"ANDROID_SERIAL", ""}};
  for (int run = 1; run <= 2; ++run) {
    const RunResult result =
        run_binary(CLAWPERATOR_VDEVICE_BINARY, {"with", "--", "sh", "record-replay.sh"}, options);
    INFO("run " << run << "\nstdout: "
                << result.out.substr(result.out.size() > 4000 ? result.out.size() - 4000 : 0)
                << "\nstderr: " << result.err.substr(0, 3000));
    REQUIRE(result.exit_code == 0);
    // The last document is replay --verify's.
    const std::string last = result.out.substr(result.out.rfind("\n{", result.out.size() - 2) + 1);
    const json verified = json::parse(last);
    CHECK(verified["replay"]["verified"] == true);
    CHECK(verified["replay"]["sessionId"] == "settings-scroll");
  }
}

TEST_CASE("recording compare: a skill's own checkpoints match what the recording did",
          "[integration][recording]") {
  const Phone phone;
  REQUIRE(phone.cli({"recording", "start", "--session-id", "it-compare"}).exit_code == 0);
  search_settings_as_a_person(phone);
  REQUIRE(phone.cli({"recording", "stop"}).exit_code == 0);
  const TemporaryDirectory dir{"rec-compare-it"};
  REQUIRE(phone.cli({"recording", "pull", "--out", dir.path().string()}).exit_code == 0);
  const RunResult exported = phone.farm.clawperator(
      {"recording", "export", "--input", (dir.path() / "it-compare.ndjson").string()});
  REQUIRE(exported.exit_code == 0);
  const std::string baseline = single_document(exported)["outputFile"];

  // The skill runs the same flow through `clawperator exec` and reports checkpoints of its own
  // ids, each saying what it did; success and the verified end only when every step of the
  // payload did, its last a wait for the Settings home.
  SkillsRepo repo;
  const std::string search_bar = "com.android.settings:id/search_action_bar";
  const json bar = {{"resourceId", search_bar}};
  const json field = {{"resourceId", "android:id/search_src_text"}};
  const std::string payload = repo.path("settings-search.json");
  std::ofstream(payload)
      << json{{"commandId", "settings-search"},
              {"taskId", "settings-search"},
              {"source", "skill"},
              {"expectedFormat", "android-ui-automator"},
              {"timeoutMs", 60000},
              {"actions",
               json::array({{{"id", "open"},
                             {"type", "open_app"},
                             {"params", {{"applicationId", "com.android.settings"}}}},
                            {{"id", "bar"},
                             {"type", "wait_for_node"},
                             {"params", {{"matcher", bar}, {"timeoutMs", 10000}}}},
                            {{"id", "tap"}, {"type", "click"}, {"params", {{"matcher", bar}}}},
                            {{"id", "field"},
                             {"type", "wait_for_node"},
                             {"params", {{"matcher", field}, {"timeoutMs", 10000}}}},
                            {{"id", "type"},
                             {"type", "enter_text"},
                             {"params", {{"matcher", field}, {"text", "wifi"}, {"clear", true}}}},
                            {{"id", "back"}, {"type", "press_key"}, {"params", {{"key", "back"}}}},
                            {{"id", "home"},
                             {"type", "wait_for_node"},
                             {"params", {{"matcher", bar}, {"timeoutMs", 10000}}}}})}}
             .dump();
  const json checkpoints = json::array(
      {{{"id", "settings_launched"},
        {"status", "ok"},
        {"evidence", {{"kind", "json"}, {"value", {{"applicationId", "com.android.settings"}}}}}},
       {{"id", "search_opened"}, {"status", "ok"}, {"note", "clicked " + search_bar}},
       {{"id", "query_typed"},
        {"status", "ok"},
        {"evidence", {{"kind", "text"}, {"text", "wifi"}}}},
       {{"id", "back_on_home"}, {"status", "ok"}, {"note", "pressed back to the Settings home"}}});
  const json succeeded = {{"contractVersion", "1.0.0"},
                          {"skillId", "com.test.settings-search"},
                          {"status", "success"},
                          {"checkpoints", checkpoints},
                          {"terminalVerification", {{"status", "verified"}}}};
  json failed = succeeded;
  failed["status"] = "failed";
  failed["checkpoints"] = json::array();
  failed["terminalVerification"] = {{"status", "failed"}};
  repo.add("com.test.settings-search",
           "if \"$CLAWPERATOR_BIN\" exec '" + payload + "' > '" + repo.path("exec.json") +
               "'; then\n  echo '[Clawperator-Skill-Result]" + succeeded.dump() +
               "'\nelse\n  echo '[Clawperator-Skill-Result]" + failed.dump() + "'\n  exit 1\nfi\n");
  // A skill whose script prints no result line.
  repo.add("com.test.silent", "echo 'searched, said nothing'\n");

  phone.shell({"input", "keyevent", "3"});
  const auto run_saved = [&](const std::string& skill, const std::string& name) {
    const RunResult run = phone.farm.clawperator({"skills", "--registry", repo.registry(), "run",
                                                  skill, "--json", "--device", phone.serial});
    INFO(run.out << run.err << read_file(repo.path("exec.json")));
    REQUIRE(run.exit_code == 0);
    const fs::path saved = dir.path() / name;
    write_file(saved, run.out);
    return saved.string();
  };
  const auto compare = [&](const std::string& result) {
    return phone.farm.clawperator(
        {"recording", "compare", "--baseline", baseline, "--result", result});
  };

  const std::string run_file = run_saved("com.test.settings-search", "run.json");
  const RunResult matched = compare(run_file);
  const json report = single_document(matched);
  INFO(report.dump(2));
  CHECK(matched.exit_code == 0);
  CHECK(report["ok"] == true);
  CHECK(report["outcome"] == "literal_match");
  CHECK(report["pathMatchedBy"] == "recorded_steps");
  CHECK(report["actual"]["checkpointIds"] ==
        json::array({"settings_launched", "search_opened", "query_typed", "back_on_home"}));
  CHECK(report["actual"]["matchedSteps"] ==
        json::array({"app_opened", "tap_1", "text_entered_1", "final_screen"}));
  CHECK(report["unmatchedCheckpoints"] == json::array());
  CHECK(report["uncoveredSteps"] == json::array());
  // The original's ids of this recording, which the skill does not use, are still derived.
  CHECK(report["baseline"]["checkpointIds"][0] == "app_opened");

  // Without the typing's checkpoint the recorded text entry is left over: a drift, exit 1.
  json without_typing = json::parse(read_file(run_file));
  without_typing["skillResult"]["checkpoints"].erase(2);
  write_file(dir.path() / "without-typing.json", without_typing.dump());
  const RunResult drifted = compare((dir.path() / "without-typing.json").string());
  const json drift = single_document(drifted);
  CHECK(drifted.exit_code == 1);
  CHECK(drift["outcome"] == "baseline_drift");
  REQUIRE(drift["uncoveredSteps"].size() == 1);
  CHECK(drift["uncoveredSteps"][0]["id"] == "text_entered_1");
  CHECK(drift["firstDivergence"]["baselineCheckpoint"] == "text_entered_1");

  // A run whose script printed no SkillResult: an input error about the run, not the recording.
  const json missing =
      expect_error(compare(run_saved("com.test.silent", "silent.json")), "SKILL_RESULT_MISSING", 2);
  CHECK(missing["details"]["reason"] == "skillResult is null");
  CHECK(missing["disposition"] == json{{"delivery", "not_delivered"}, {"retry", "safe"}});
  CHECK(missing["hint"].get<std::string>().find("clawperator skills run") != std::string::npos);
}
