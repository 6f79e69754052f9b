// The virtual Operator's recorder: the NDJSON lines key for key as RecordingManager.kt writes
// them, its start/stop answers, its filter, the latest pointer and the cap
// (docs/recording.md, "The virtual device records").
#include "vdevice/android/operator/recorder.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "clawperator/recording/events.hpp"
#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/android/system/android_system.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;

namespace {

const std::string kOperator = "com.clawperator.operator";
const std::string kDir = "/sdcard/Android/data/com.clawperator.operator/files/recordings";

struct Device {
  AndroidSystem system{default_scenario(), DeviceClock{std::chrono::steady_clock::now(),
                                                       std::chrono::system_clock::now()}};

  std::vector<Json> lines(const std::string& id) {
    auto text = system.files().read(kDir + "/" + id + ".ndjson");
    REQUIRE(text.has_value());
    std::vector<Json> out;
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) out.push_back(Json::parse(line));
    return out;
  }
  std::vector<std::string> keys(const Json& line) {
    std::vector<std::string> names;
    for (const auto& item : line.items()) names.push_back(item.key());
    return names;
  }
  VisibleNode* find(VisibleTree& tree, const std::string& resource_id) {
    NodeMatcher matcher;
    matcher.resource_id = resource_id;
    const auto found = tree.find(matcher);
    REQUIRE_FALSE(found.empty());
    return found.front();
  }
};

}  // namespace

TEST_CASE("recorder: every event line as the Operator writes it", "[vdevice][android][recording]") {
  Device device;
  AndroidSystem& system = device.system;
  UiModel& ui = system.ui();
  const auto started = system.recorder().start(kOperator, std::string("it-1"));
  REQUIRE(started.ok);
  CHECK(started.data["sessionId"] == "it-1");
  CHECK(started.data["filePath"] == kDir + "/it-1.ndjson");
  // Nothing points at a recording that has not stopped.
  CHECK_FALSE(system.files().read(kDir + "/latest").has_value());

  REQUIRE(system.start_app("com.android.settings", "shell"));
  {
    auto tree = ui.tree(system.now());
    VisibleNode* bar = device.find(*tree, "com.android.settings:id/search_action_bar");
    ui.click(*tree, *bar, *bar, system.now());
  }
  {
    auto tree = ui.tree(system.now());
    ui.set_text(*device.find(*tree, "android:id/search_src_text"), "wifi");
  }
  ui.back(system.now());
  {
    auto tree = ui.tree(system.now());
    VisibleNode* list = device.find(*tree, "com.android.settings:id/recycler_view");
    CHECK(ui.scroll(*list, ScrollDirection::Down, 0.5) > 0);
  }
  const auto stopped = system.recorder().stop(std::nullopt);
  REQUIRE(stopped.ok);
  CHECK(stopped.data["sessionId"] == "it-1");
  CHECK(system.files().read(kDir + "/latest").value() == "it-1");  // no newline

  const std::vector<Json> lines = device.lines("it-1");
  REQUIRE(lines.size() == 8);
  CHECK(stopped.data["eventCount"] == "7");
  using Keys = std::vector<std::string>;
  CHECK(device.keys(lines[0]) ==
        Keys{"type", "schemaVersion", "sessionId", "startedAt", "operatorPackage"});
  CHECK(lines[0]["operatorPackage"] == kOperator);
  const std::vector<std::pair<std::string, Keys>> expected = {
      {"window_change", {"ts", "seq", "snapshot", "packageName", "className", "title", "type"}},
      {"click",
       {"ts", "seq", "snapshot", "packageName", "resourceId", "text", "contentDesc", "bounds",
        "type"}},
      {"window_change", {"ts", "seq", "snapshot", "packageName", "className", "title", "type"}},
      {"text_change", {"ts", "seq", "snapshot", "packageName", "resourceId", "text", "type"}},
      {"press_key", {"ts", "seq", "snapshot", "key", "type"}},
      {"window_change", {"ts", "seq", "snapshot", "packageName", "className", "title", "type"}},
      {"scroll",
       {"ts", "seq", "snapshot", "packageName", "resourceId", "scrollX", "scrollY", "maxScrollX",
        "maxScrollY", "type"}},
  };
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO(lines[i + 1].dump());
    CHECK(lines[i + 1]["type"] == expected[i].first);
    CHECK(device.keys(lines[i + 1]) == expected[i].second);
    CHECK(lines[i + 1]["seq"] == i);
    // Our own reader accepts every line.
    CHECK(recording::parse_event_line(lines[i + 1].dump(), i + 2).has_value());
  }
  CHECK(recording::parse_header_line(lines[0].dump()).has_value());
  const Json& click = lines[2];
  CHECK(click["resourceId"] == "com.android.settings:id/search_action_bar");
  CHECK(click["text"] == "Search settings");  // the child's text, as a ViewGroup's event has
  CHECK(click["contentDesc"] == "Search settings");
  CHECK(click["bounds"]["right"].get<int>() > click["bounds"]["left"].get<int>());
  // The screen before the click; the window change after it shows the new one.
  CHECK(click["snapshot"].get<std::string>().find("search_action_bar") != std::string::npos);
  CHECK(lines[3]["snapshot"].get<std::string>().find("search_src_text") != std::string::npos);
  CHECK(lines[1]["className"] == "com.android.settings.Settings");
  CHECK(lines[1]["title"] == "Settings");
  CHECK(lines[4]["text"] == "wifi");
  CHECK(lines[4]["snapshot"].is_null());
  CHECK(lines[4]["resourceId"].is_null());
  CHECK(lines[5]["key"] == "back");
  CHECK(lines[7]["snapshot"].is_null());
  CHECK(lines[7]["scrollY"].get<int>() > 0);
  CHECK(lines[7]["scrollX"] == 0);
}

TEST_CASE("recorder: start and stop answer as RecordingManager.kt",
          "[vdevice][android][recording]") {
  Device device;
  Recorder& recorder = device.system.recorder();
  const auto idle = recorder.stop(std::nullopt);
  CHECK_FALSE(idle.ok);
  CHECK(idle.data["error"] == "RECORDING_NOT_IN_PROGRESS");
  CHECK(idle.data["message"] == "Recording is not in progress");
  for (const char* bad : {".", "..", "../evil", "nested/evil", "nested\\evil", "session\nevil"}) {
    const auto refused = recorder.start(kOperator, std::string(bad));
    CHECK_FALSE(refused.ok);
    CHECK(refused.data["error"] == "RECORDING_START_FAILED");
  }
  CHECK_FALSE(device.system.files().list(kDir).has_value());
  // No id (or a blank one): record-<ms>-<8 hex>.
  const auto generated = recorder.start(kOperator, std::string("  "));
  REQUIRE(generated.ok);
  const std::string id = generated.data["sessionId"];
  CHECK(id.rfind("record-", 0) == 0);
  CHECK(id.size() == std::string("record-").size() + 13 + 1 + 8);
  const auto busy = recorder.start(kOperator, std::string("other"));
  CHECK_FALSE(busy.ok);
  CHECK(busy.data["error"] == "RECORDING_ALREADY_IN_PROGRESS");
  CHECK(busy.data["message"] == "Recording is already in progress");
  CHECK(busy.data["sessionId"] == id);
  // A different id stops the active session.
  const auto stopped = recorder.stop(std::string("other"));
  REQUIRE(stopped.ok);
  CHECK(stopped.data["sessionId"] == id);
  CHECK(stopped.data["eventCount"] == "0");
  CHECK(device.lines(id).size() == 1);
}

TEST_CASE("recorder: the Operator's own windows, up buttons and idle time are not recorded",
          "[vdevice][android][recording]") {
  Device device;
  AndroidSystem& system = device.system;
  // Before start: nothing recorded, nothing written.
  REQUIRE(system.start_app("com.android.settings", "shell"));
  REQUIRE(system.recorder().start(kOperator, std::string("filtered")).ok);
  REQUIRE(system.start_app(kOperator, "shell"));
  // An up button closes the screen: a click and a window change, not a back key.
  REQUIRE(system.start_app("com.android.settings", "shell"));
  {
    auto tree = system.ui().tree(system.now());
    NodeMatcher network;
    network.text_equals = "Network & internet";
    VisibleNode* row = tree->find(network).front();
    system.ui().click(*tree, *row, *row->parent, system.now());
  }
  {
    auto tree = system.ui().tree(system.now());
    NodeMatcher up;
    up.content_desc_equals = "Navigate up";
    VisibleNode* button = tree->find(up).front();
    system.ui().click(*tree, *button, *button, system.now());
  }
  REQUIRE(system.recorder().stop(std::nullopt).ok);
  std::vector<std::string> types;
  for (const Json& line : device.lines("filtered")) {
    if (line.contains("packageName")) CHECK(line["packageName"] != kOperator);
    types.push_back(line["type"]);
  }
  CHECK(types == std::vector<std::string>{"recording_header", "window_change", "click",
                                          "window_change", "click", "window_change"});
}

TEST_CASE("recorder: a recording stops growing at its cap, and still stops cleanly",
          "[vdevice][android][recording]") {
  Device device;
  AndroidSystem& system = device.system;
  REQUIRE(system.recorder().start(kOperator, std::string("capped")).ok);
  REQUIRE(system.start_app("com.android.settings", "shell"));
  std::size_t size = 0;
  for (int i = 0; size < Recorder::kMaxFileBytes + (1 << 20) && i < 20000; ++i) {
    system.ui().home(system.now());
    REQUIRE(system.start_app("com.android.settings", "shell"));
    if (i % 256 == 0) size = device.system.files().stat(kDir + "/capped.ndjson").value().size;
    if (size >= Recorder::kMaxFileBytes - (64 << 10)) break;
  }
  for (int i = 0; i < 64; ++i) {
    system.ui().home(system.now());
    REQUIRE(system.start_app("com.android.settings", "shell"));
  }
  const auto stopped = system.recorder().stop(std::nullopt);
  REQUIRE(stopped.ok);
  CHECK(system.files().stat(kDir + "/capped.ndjson").value().size <= Recorder::kMaxFileBytes);
  CHECK(system.files().read(kDir + "/latest").value() == "capped");
}
