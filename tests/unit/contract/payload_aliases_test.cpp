// Every alias of docs/payload.md §11 through validation to the canonical payload the device
// receives, one row each; and the rows and the document name the same aliases.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "test_locations.hpp"

using clawperator::Json;
using namespace clawperator::contract;

namespace {

enum class Where { TopLevel, Params, Matcher };

struct AliasCase {
  std::string alias;
  Where where;
  std::string type;    // the action that carries it
  std::string params;  // the other params the action needs (JSON object)
  std::string value;   // the alias's value (JSON)
  std::string canonical;
  std::string expected;  // the canonical key's value after normalisation; "" = key dropped
};

const char* kMatcher = R"({"matcher":{"textEquals":"A"}})";

// Where a matcher key alias sits: inside the matcher of a click.
const std::vector<AliasCase> kCases = {
    {"command_id", Where::TopLevel, "snapshot", "{}", R"("c9")", "commandId", R"("c9")"},
    {"task_id", Where::TopLevel, "snapshot", "{}", R"("t9")", "taskId", R"("t9")"},
    {"expected_format", Where::TopLevel, "snapshot", "{}", R"("android-ui-automator")",
     "expectedFormat", R"("android-ui-automator")"},
    {"timeout_ms", Where::TopLevel, "snapshot", "{}", "7000", "timeoutMs", "7000"},

    {"application_id", Where::Params, "open_app", "{}", R"("com.x")", "applicationId",
     R"("com.x")"},
    {"app_id", Where::Params, "open_app", "{}", R"("com.x")", "applicationId", R"("com.x")"},
    {"appId", Where::Params, "open_app", "{}", R"("com.x")", "applicationId", R"("com.x")"},
    {"app", Where::Params, "open_app", "{}", R"("com.x")", "applicationId", R"("com.x")"},
    {"package", Where::Params, "open_app", "{}", R"("com.x")", "applicationId", R"("com.x")"},
    {"package_id", Where::Params, "open_app", "{}", R"("com.x")", "applicationId", R"("com.x")"},
    {"packageId", Where::Params, "open_app", "{}", R"("com.x")", "applicationId", R"("com.x")"},
    {"session_id", Where::Params, "start_recording", "{}", R"("s1")", "sessionId", R"("s1")"},
    {"url", Where::Params, "open_uri", "{}", R"("https://example.com")", "uri",
     R"("https://example.com")"},
    {"duration_ms", Where::Params, "sleep", "{}", "100", "durationMs", "100"},
    {"file", Where::Params, "take_screenshot", "{}", R"("/tmp/a.png")", "path", R"("/tmp/a.png")"},
    {"filePath", Where::Params, "take_screenshot", "{}", R"("/tmp/a.png")", "path",
     R"("/tmp/a.png")"},
    {"output_path", Where::Params, "take_screenshot", "{}", R"("/tmp/a.png")", "path",
     R"("/tmp/a.png")"},
    {"selector", Where::Params, "click", "{}", R"({"textEquals":"A"})", "matcher",
     R"({"textEquals":"A"})"},
    {"node", Where::Params, "click", "{}", R"({"textEquals":"A"})", "matcher",
     R"({"textEquals":"A"})"},
    {"element", Where::Params, "click", "{}", R"({"textEquals":"A"})", "matcher",
     R"({"textEquals":"A"})"},
    {"value", Where::Params, "enter_text", kMatcher, R"("hi")", "text", R"("hi")"},
    {"click_type", Where::Params, "click", kMatcher, R"("long_click")", "clickType",
     R"("long_click")"},
    {"longPress", Where::Params, "click", kMatcher, "true", "clickType", R"("long_click")"},
    {"longPress", Where::Params, "click", kMatcher, "false", "clickType", ""},
    {"within", Where::Params, "click", kMatcher, R"({"textEquals":"Box"})", "container",
     R"({"textEquals":"Box"})"},
    {"container_selector", Where::Params, "click", kMatcher, R"({"textEquals":"Box"})", "container",
     R"({"textEquals":"Box"})"},
    {"max_swipes", Where::Params, "scroll_until", "{}", "3", "maxSwipes", "3"},
    {"distance_ratio", Where::Params, "scroll", R"({"direction":"down"})", "0.5", "distanceRatio",
     "0.5"},
    {"settle_delay_ms", Where::Params, "scroll", R"({"direction":"down"})", "100", "settleDelayMs",
     "100"},
    {"max_scrolls", Where::Params, "scroll_until", "{}", "5", "maxScrolls", "5"},
    {"max_duration_ms", Where::Params, "scroll_until", "{}", "1000", "maxDurationMs", "1000"},
    {"no_position_change_threshold", Where::Params, "scroll_until", "{}", "3",
     "noPositionChangeThreshold", "3"},
    {"find_first_scrollable_child", Where::Params, "scroll", R"({"direction":"down"})", "true",
     "findFirstScrollableChild", "true"},
    {"click_after", Where::Params, "scroll_until", kMatcher, "true", "clickAfter", "true"},
    {"validator_pattern", Where::Params, "read_text",
     R"({"matcher":{"textEquals":"A"},"validator":"regex"})", R"("\\d+")", "validatorPattern",
     R"("\\d+")"},
    {"expected_package", Where::Params, "wait_for_navigation", R"({"timeoutMs":1000})",
     R"("com.x")", "expectedPackage", R"("com.x")"},
    {"expected_node", Where::Params, "wait_for_navigation", R"({"timeoutMs":1000})",
     R"({"textEquals":"A"})", "expectedNode", R"({"textEquals":"A"})"},
    {"wait_for", Where::Params, "wait_for_navigation", R"({"timeoutMs":1000})",
     R"({"textEquals":"A"})", "expectedNode", R"({"textEquals":"A"})"},
    {"timeout_ms", Where::Params, "wait_for_node", kMatcher, "1000", "timeoutMs", "1000"},
    {"skip_navigation_wait", Where::Params, "click", kMatcher, "true", "skipNavigationWait",
     "true"},
    {"navigation_timeout_ms", Where::Params, "click", kMatcher, "5000", "navigationTimeoutMs",
     "5000"},
    {"label_matcher", Where::Params, "read_key_value_pair", "{}", R"({"textEquals":"Battery"})",
     "labelMatcher", R"({"textEquals":"Battery"})"},
    {"label_selector", Where::Params, "read_key_value_pair", "{}", R"({"textEquals":"Battery"})",
     "labelMatcher", R"({"textEquals":"Battery"})"},

    {"resource_id", Where::Matcher, "click", "{}", R"("a:id/b")", "resourceId", R"("a:id/b")"},
    {"id", Where::Matcher, "click", "{}", R"("a:id/b")", "resourceId", R"("a:id/b")"},
    {"text", Where::Matcher, "click", "{}", R"("OK")", "textEquals", R"("OK")"},
    {"text_contains", Where::Matcher, "click", "{}", R"("O")", "textContains", R"("O")"},
    {"content_desc", Where::Matcher, "click", "{}", R"("D")", "contentDescEquals", R"("D")"},
    {"content_desc_equals", Where::Matcher, "click", "{}", R"("D")", "contentDescEquals", R"("D")"},
    {"description", Where::Matcher, "click", "{}", R"("D")", "contentDescEquals", R"("D")"},
    {"accessibility_label", Where::Matcher, "click", "{}", R"("D")", "contentDescEquals", R"("D")"},
    {"content_desc_contains", Where::Matcher, "click", "{}", R"("D")", "contentDescContains",
     R"("D")"},
    {"description_contains", Where::Matcher, "click", "{}", R"("D")", "contentDescContains",
     R"("D")"},
    {"accessibility_label_contains", Where::Matcher, "click", "{}", R"("D")", "contentDescContains",
     R"("D")"},
};

Json payload_with(const AliasCase& c) {
  Json payload = Json::parse(R"({"commandId":"c1","taskId":"t1","source":"test",
      "expectedFormat":"android-ui-automator","timeoutMs":5000})");
  Json action = Json::object();
  action["id"] = "a1";
  action["type"] = c.type;
  Json params = Json::parse(c.params);
  const Json value = Json::parse(c.value);
  switch (c.where) {
    case Where::TopLevel:
      payload.erase(c.canonical);
      payload[c.alias] = value;
      break;
    case Where::Params:
      params[c.alias] = value;
      break;
    case Where::Matcher:
      params["matcher"] = Json::object({{c.alias, value}});
      break;
  }
  if (!params.empty()) action["params"] = params;
  payload["actions"] = Json::array({action});
  return payload;
}

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The backticked words of docs/payload.md §11's two paragraphs on keys.
std::set<std::string> documented_words() {
  const std::string doc = read_file(std::string(CLAWPERATOR_SOURCE_DIR) + "/docs/payload.md");
  const auto start = doc.find("## 11. Normalisation before validation");
  REQUIRE(start != std::string::npos);
  const auto body = doc.find('\n', start);
  const auto end = doc.find("A canonical key that is present wins", body);
  REQUIRE(end != std::string::npos);
  const std::string section = doc.substr(body, end - body);
  std::set<std::string> words;
  for (auto open = section.find('`'); open != std::string::npos;
       open = section.find('`', open + 1)) {
    const auto close = section.find('`', open + 1);
    REQUIRE(close != std::string::npos);
    words.insert(section.substr(open + 1, close - open - 1));
    open = close;
  }
  return words;
}

}  // namespace

TEST_CASE("every payload alias validates to the canonical payload", "[contract][aliases]") {
  for (const AliasCase& c : kCases) {
    CAPTURE(c.alias, c.type, c.value);
    const ValidationOutcome outcome = validate_execution(payload_with(c));
    INFO((outcome.issues.empty() ? std::string() : outcome.issues.front().message));
    REQUIRE(outcome.valid);
    const Json device = to_device_json(*outcome.valid);
    const Json& holder = c.where == Where::TopLevel ? device
                         : c.where == Where::Params ? device["actions"][0]["params"]
                                                    : device["actions"][0]["params"]["matcher"];
    CHECK_FALSE(holder.contains(c.alias));
    if (c.expected.empty()) {
      CHECK_FALSE(holder.contains(c.canonical));
    } else {
      REQUIRE(holder.contains(c.canonical));
      CHECK(holder[c.canonical] == Json::parse(c.expected));
    }
  }
}

TEST_CASE("the alias rows are the aliases docs/payload.md §11 names", "[contract][aliases]") {
  std::set<std::string> aliases;
  std::set<std::string> canonical;
  for (const AliasCase& c : kCases) {
    aliases.insert(c.alias);
    canonical.insert(c.canonical);
  }
  // The section's words that are neither: the file, the flag, longPress's values, the four
  // matcher params and the two relations whose keys are not aliased.
  const std::set<std::string> prose = {"src/contract/payload_normalization.cpp",
                                       "--validate-only",
                                       "true",
                                       "false",
                                       "clickType: \"long_click\"",
                                       "ancestor",
                                       "descendant"};
  const std::set<std::string> words = documented_words();
  for (const std::string& word : words) {
    CAPTURE(word);
    CHECK((aliases.count(word) + canonical.count(word) + prose.count(word)) > 0);
  }
  for (const std::string& alias : aliases) {
    CAPTURE(alias);
    CHECK(words.count(alias) == 1);
  }
}

TEST_CASE("a canonical key wins over its alias; relation keys are not aliased",
          "[contract][aliases]") {
  Json payload = payload_with(kCases.at(4));  // application_id on open_app
  payload["actions"][0]["params"]["applicationId"] = "com.canonical";
  ValidationOutcome outcome = validate_execution(payload);
  REQUIRE(outcome.valid);
  CHECK(to_device_json(*outcome.valid)["actions"][0]["params"] ==
        Json({{"applicationId", "com.canonical"}}));

  payload["actions"][0] =
      Json::parse(R"({"id":"a1","type":"click","params":{"matcher":{"textEquals":"A",)"
                  R"("ancestor":{"text":"B"}}}})");
  outcome = validate_execution(payload);
  REQUIRE_FALSE(outcome.valid);
  CHECK(outcome.issues.front().path == "actions.0.params.matcher.ancestor");
  CHECK(outcome.issues.front().invalid_keys == std::vector<std::string>{"text"});
}

TEST_CASE("navigationTimeoutMs is an integer from 1000 to 120000", "[contract][aliases]") {
  auto click_with = [](const std::string& extra) {
    Json payload = Json::parse(R"({"commandId":"c1","taskId":"t1","source":"test",
        "expectedFormat":"android-ui-automator","timeoutMs":5000})");
    payload["actions"] = Json::array({Json::parse(
        R"({"id":"a1","type":"click","params":{"matcher":{"textEquals":"A"},)" + extra + "}}")});
    return validate_execution(payload);
  };
  for (const char* good : {R"("navigationTimeoutMs":1000)", R"("navigationTimeoutMs":120000)",
                           R"("navigation_timeout_ms":1e3)", R"("skipNavigationWait":false)"}) {
    CAPTURE(good);
    CHECK(click_with(good).valid);
  }
  const std::string range = "click params.navigationTimeoutMs must be an integer in [1000, 120000]";
  for (const auto& [bad, path, message] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {R"("navigationTimeoutMs":999)", "actions.0.params.navigationTimeoutMs", range},
           {R"("navigation_timeout_ms":120001)", "actions.0.params.navigationTimeoutMs", range},
           {R"("navigationTimeoutMs":1500.5)", "actions.0.params.navigationTimeoutMs", range},
           {R"("navigationTimeoutMs":"2000")", "actions.0.params.navigationTimeoutMs",
            "Expected number, received string"},
           {R"("skip_navigation_wait":"yes")", "actions.0.params.skipNavigationWait",
            "Expected boolean, received string"},
       }) {
    CAPTURE(bad);
    const ValidationOutcome outcome = click_with(bad);
    REQUIRE_FALSE(outcome.valid);
    CHECK(outcome.issues.front().path == path);
    CHECK(outcome.issues.front().message == message);
    const clawperator::contract::HostError error = validation_failure(outcome.issues);
    CHECK(error.code == "EXECUTION_VALIDATION_FAILED");
    CHECK(exit_code_of(error) == 2);
    CHECK(disposition_of(error).delivery == Delivery::NotDelivered);
  }
}
