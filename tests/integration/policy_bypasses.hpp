// The ways around a guardrail a determined caller tried (issue 46), as payloads: each must meet
// the rule on what the step would tap, on the CLI, over HTTP and over MCP
// (tests/integration/policy_test.cpp, tests/serve/serve_policy_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "farm_fixture.hpp"

namespace clawperator::testing {

// A rule on what a tap would activate, whatever names it; and one on a row of Settings, which a
// payload may reach from the home screen with open_app.
inline const char* const kNoNetworkTaps = R"({"schemaVersion": 1, "rules": [
  {"id": "no-network", "decision": "deny", "effects": ["tap"], "labels": ["network*"],
   "reason": "network settings are off limits"},
  {"id": "no-apps-in-settings", "decision": "deny", "actions": ["click"],
   "packages": ["com.android.settings"], "labels": ["Apps"]}]})";

struct Bypass {
  std::string name;
  nlohmann::json actions;
  std::string rule;        // the rule that must refuse it
  bool from_home = false;  // sent with the home screen in front (else Settings')
};

inline nlohmann::json click_on(const nlohmann::json& matcher) {
  return {{"id", "tap"}, {"type", "click"}, {"params", {{"matcher", matcher}}}};
}

// The Network row by its title below it: a matcher with no word a rule could read itself.
inline nlohmann::json row_by_its_title() {
  return {{"role", "LinearLayout"}, {"descendant", {{"textEquals", "Network & internet"}}}};
}

// Every bypass; `farm` shows Settings' home (a point on the Network row is measured on it).
inline std::vector<Bypass> policy_bypasses(const Farm& farm) {
  using nlohmann::json;
  const auto bounds_of = [&](const json& matcher) {
    const RunResult found = farm.clawperator({"query", "--matcher-json", matcher.dump()});
    const json document = single_document(found);
    REQUIRE(document["query"]["nodes"].size() == 1);
    return document["query"]["nodes"][0]["bounds"];
  };
  const json title = bounds_of({{"textEquals", "Network & internet"}});
  const json row = bounds_of(row_by_its_title());
  // On the row below its title: no text of the payload's, only the row's.
  const int x = (row["left"].get<int>() + row["right"].get<int>()) / 2;
  const int y = (title["bottom"].get<int>() + row["bottom"].get<int>()) / 2;
  REQUIRE(y > title["bottom"].get<int>());
  REQUIRE(y < row["bottom"].get<int>());
  return {
      {"a relation-only matcher", json::array({click_on(row_by_its_title())}), "no-network"},
      {"an id every row shares", json::array({click_on({{"resourceId", "android:id/title"}})}),
       "no-network"},
      {"a fragment", json::array({click_on({{"textContains", "etwork"}})}), "no-network"},
      {"a Kelvin sign", json::array({click_on({{"textContains", "NETWOR\u212a"}})}), "no-network"},
      {"a point on the row outside its title",
       json::array({{{"id", "tap"},
                     {"type", "click"},
                     {"params", {{"coordinate", {{"x", x}, {"y", y}}}}}}}),
       "no-network"},
      {"scroll_until that clicks after",
       json::array(
           {{{"id", "scroll"},
             {"type", "scroll_until"},
             {"params", {{"matcher", {{"textContains", "hotspot"}}}, {"clickAfter", true}}}}}),
       "no-network"},
      {"open_app, a sleep, then a click from the home screen",
       json::array({{{"id", "open"},
                     {"type", "open_app"},
                     {"params", {{"applicationId", "com.android.settings"}}}},
                    {{"id", "pause"}, {"type", "sleep"}, {"params", {{"durationMs", 100}}}},
                    click_on({{"textEquals", "Apps"}})}),
       "no-apps-in-settings", true},
  };
}

}  // namespace clawperator::testing
