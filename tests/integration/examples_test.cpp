// Every payload in examples/ runs on the virtual device, twice, and gives the same result both
// times (docs/payload.md §2): an example that acts on a screen starts from a known one. What
// changes from run to run by nature (times, positions that advance with the clock, the
// screenshot's file) is masked before comparing; everything else must be equal.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include "farm_fixture.hpp"
#include "test_locations.hpp"
#include "wait_until.hpp"

using clawperator::testing::Farm;
using clawperator::testing::RunResult;
using nlohmann::json;

namespace {

// The scenario an example is written for; the rest run on the default phone.
std::string scenario_of(const std::string& example) {
  static const std::map<std::string, std::string> kScenarios = {
      {"drag", "observation"},
      {"media-seek-observe", "notifications-media"},
      {"notifications-list", "notifications-media"},
      {"on-screen-log", "notifications-media"},
  };
  const auto it = kScenarios.find(example);
  return it == kScenarios.end() ? "default" : it->second;
}

bool varies_by_run(const std::string& key) {
  static const std::vector<std::string> kKeys = {"timing",
                                                 "capturedAt",
                                                 "path",
                                                 "samples",
                                                 "newPlayerReportCount",
                                                 "playerReportSequence",
                                                 "positionUpdateAgeMs",
                                                 "reportedPositionDeltaMs"};
  return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end() ||
         key.find("Elapsed") != std::string::npos || key.find("PositionMs") != std::string::npos;
}

// The output with what varies by run masked, the JSON strings of step data (query, payload,
// candidates) included.
json comparable(const json& value) {
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [key, item] : value.items()) {
      out[key] = varies_by_run(key) ? json("<varies>") : comparable(item);
    }
    return out;
  }
  if (value.is_array()) {
    json out = json::array();
    for (const json& item : value) out.push_back(comparable(item));
    return out;
  }
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (!text.empty() && (text.front() == '{' || text.front() == '[')) {
      const json inner = json::parse(text, nullptr, false);
      if (!inner.is_discarded()) return comparable(inner);
    }
  }
  return value;
}

// The first step's payload of a CLI command on the farm's device.
json first_payload(const Farm& farm, std::vector<std::string> args) {
  args.insert(args.end(), {"--device", farm.serials().front()});
  const json document = clawperator::testing::single_document(farm.clawperator(args));
  const json& steps = document["envelope"]["stepResults"];
  return steps.is_array() && !steps.empty() ? steps[0]["payload"] : json();
}

// Whether the notifications-media phone is past its timed events (examples/scenarios/
// notifications-media.json): Grace's message posted, the short media session ended.
bool settled(const Farm& farm) {
  return clawperator::testing::wait_until(
      [&] {
        const json chat =
            first_payload(farm, {"notifications", "list", "--app", "com.example.chat"});
        bool posted = false;
        for (const json& notification : chat.value("notifications", json::array())) {
          posted = posted || notification.value("title", "") == "Grace";
        }
        if (!posted) return false;
        for (const json& session :
             first_payload(farm, {"media", "list"}).value("sessions", json::array())) {
          if (session.value("mediaSessionId", "") == "e1") return false;
        }
        return true;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(100));
}

}  // namespace

TEST_CASE("every example runs twice on the virtual device with the same result",
          "[integration][examples]") {
  std::map<std::string, std::vector<std::string>> by_scenario;
  for (const auto& entry : std::filesystem::directory_iterator(CLAWPERATOR_EXAMPLES_DIR)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const std::string name = entry.path().stem().string();
    by_scenario[scenario_of(name)].push_back(name);
  }
  REQUIRE(by_scenario["default"].size() >= 8);
  for (auto& [scenario, examples] : by_scenario) {
    std::sort(examples.begin(), examples.end());
    Farm farm({scenario});
    // The notifications-media phone posts a message 1.5 s and ends a session 2 s after boot:
    // both runs see the phone after that.
    if (scenario == "notifications-media") REQUIRE(settled(farm));
    for (const std::string& example : examples) {
      CAPTURE(scenario, example);
      const std::string path = std::string(CLAWPERATOR_EXAMPLES_DIR) + "/" + example + ".json";
      json runs[2];
      for (json& run : runs) {
        const RunResult result =
            farm.clawperator({"exec", path, "--device", farm.serials().front()});
        run = clawperator::testing::single_document(result);
        INFO(run.dump(2).substr(0, 3000));
        CHECK(result.exit_code == 0);
        CHECK(run["ok"] == true);
      }
      CHECK(comparable(runs[1]) == comparable(runs[0]));
    }
  }
}
