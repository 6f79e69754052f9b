#include "clawperator/service/actions.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <regex>
#include <set>

#include "clawperator/contract/payload_validation.hpp"

using namespace clawperator;
using namespace clawperator::service;

namespace {

const service::IdStamp kStamp{"0f1e2d3c4b5a69788796a5b4c3d2e1f0"};

Json parse(const char* text) {
  return Json::parse(text);
}

const Json kOk = parse(R"({"textEquals":"OK"})");

}  // namespace

TEST_CASE("ids carry 128 random bits, never the time", "[cli][builders]") {
  CHECK(service::stamped_id("click", kStamp) == "click-0f1e2d3c4b5a69788796a5b4c3d2e1f0");
  const service::IdStamp first = service::make_id_stamp();
  const service::IdStamp second = service::make_id_stamp();
  CHECK(std::regex_match(first.random, std::regex("[0-9a-f]{32}")));
  CHECK(std::regex_match(second.random, std::regex("[0-9a-f]{32}")));
  CHECK(first.random != second.random);
  // Every bit varies: no digit position is fixed (a time stamp's leading digits would be).
  std::set<std::string> seen;
  for (int i = 0; i < 64; ++i) seen.insert(service::make_id_stamp().random.substr(0, 4));
  CHECK(seen.size() > 48);
}

TEST_CASE("milliseconds print as integers when they are", "[cli][builders]") {
  CHECK(service::milliseconds_json(30000).dump() == "30000");
  CHECK(service::milliseconds_json(30000).is_number_integer());
  CHECK(service::milliseconds_json(1500.5).dump() == "1500.5");
}

TEST_CASE("open tells URIs from package ids", "[cli][builders]") {
  // The original's scheme:// rule, and any leading scheme: (a package never holds ':').
  for (const char* uri :
       {"https://example.com", "HTTP://X", "intent://scan#Intent;end", "my-app+v1.2://deep",
        "see 1a://x", "market://details?id=a", "tel:123", "mailto:a@b.c", "a:/b", "geo:0,0"}) {
    CAPTURE(uri);
    CHECK(service::is_uri_target(uri));
  }
  for (const char* package : {"com.android.settings", "123://x", "://x", "1a:b", ":x", ""}) {
    CAPTURE(package);
    CHECK_FALSE(service::is_uri_target(package));
  }
}

TEST_CASE("the element actions are direct clawperator-action executions", "[cli][builders]") {
  CHECK(service::build_click(kStamp, kOk, std::nullopt, service::ClickType::Default) ==
        parse(R"({"commandId":"click-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                  "taskId":"click-0f1e2d3c4b5a69788796a5b4c3d2e1f0","source":"clawperator-action",
                  "expectedFormat":"android-ui-automator","timeoutMs":30000,
                  "actions":[{"id":"click","type":"click",
                              "params":{"matcher":{"textEquals":"OK"}}}],
                  "mode":"direct"})"));
  CHECK(service::build_click(kStamp, std::nullopt, service::Coordinate{10, 20},
                             service::ClickType::LongClick)["actions"] ==
        parse(R"([{"id":"click","type":"click",
                   "params":{"coordinate":{"x":10,"y":20},"clickType":"long_click"}}])"));
  CHECK(service::build_click(kStamp, kOk, std::nullopt,
                             service::ClickType::Focus)["actions"][0]["params"] ==
        parse(R"({"matcher":{"textEquals":"OK"},"clickType":"focus"})"));

  CHECK(service::build_type(kStamp, kOk, "hi", true, false) ==
        parse(R"({"commandId":"type-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                  "taskId":"type-0f1e2d3c4b5a69788796a5b4c3d2e1f0","source":"clawperator-action",
                  "expectedFormat":"android-ui-automator","timeoutMs":30000,
                  "actions":[{"id":"type","type":"enter_text",
                              "params":{"matcher":{"textEquals":"OK"},"text":"hi",
                                        "submit":true,"clear":false}}],
                  "mode":"direct"})"));

  CHECK(service::build_read(kStamp, kOk, std::nullopt, false)["actions"] ==
        parse(R"([{"id":"read","type":"read_text","params":{"matcher":{"textEquals":"OK"}}}])"));
  const Json read_all = service::build_read(kStamp, kOk, parse(R"({"resourceId":"list"})"), true);
  CHECK(read_all["commandId"] == "read-0f1e2d3c4b5a69788796a5b4c3d2e1f0");
  CHECK(read_all["actions"][0]["params"] ==
        parse(R"({"matcher":{"textEquals":"OK"},"all":true,"container":{"resourceId":"list"}})"));

  const Json value = service::build_read_value(kStamp, kOk, true);
  CHECK(value["commandId"] == "read-value-0f1e2d3c4b5a69788796a5b4c3d2e1f0");
  CHECK(value["source"] == "clawperator-action");
  CHECK(value["mode"] == "direct");
  CHECK(value["actions"] == parse(R"([{"id":"read-value","type":"read_key_value_pair",
                   "params":{"labelMatcher":{"textEquals":"OK"},"all":true}}])"));
}

TEST_CASE("waits give the execution 5 s more than the wait, at least 30 s", "[cli][builders]") {
  const Json plain = service::build_wait(kStamp, kOk, std::nullopt);
  CHECK(plain["commandId"] == "wait-0f1e2d3c4b5a69788796a5b4c3d2e1f0");
  CHECK(plain["timeoutMs"] == 30000);
  CHECK(
      plain["actions"] ==
      parse(R"([{"id":"wait","type":"wait_for_node","params":{"matcher":{"textEquals":"OK"}}}])"));
  CHECK(service::build_wait(kStamp, kOk, 10000)["timeoutMs"] == 30000);
  const Json long_wait = service::build_wait(kStamp, kOk, 40000);
  CHECK(long_wait["timeoutMs"] == 45000);
  CHECK(long_wait["actions"][0]["params"]["timeoutMs"] == 40000);

  const Json nav = service::build_wait_for_navigation(kStamp, "com.x", std::nullopt, 5000);
  CHECK(nav == parse(R"({"commandId":"wait-for-nav-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                         "taskId":"wait-for-nav-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                         "source":"clawperator-action","expectedFormat":"android-ui-automator",
                         "timeoutMs":30000,
                         "actions":[{"id":"wait-for-nav","type":"wait_for_navigation",
                                     "params":{"expectedPackage":"com.x","timeoutMs":5000}}],
                         "mode":"direct"})"));
  CHECK(service::build_wait_for_navigation(kStamp, std::nullopt, kOk, 30000)["timeoutMs"] == 35000);
  CHECK(service::build_wait_for_navigation(kStamp, std::nullopt, kOk,
                                           30000)["actions"][0]["params"] ==
        parse(R"({"expectedNode":{"textEquals":"OK"},"timeoutMs":30000})"));

  CHECK(service::build_sleep(kStamp, 2000, std::nullopt) ==
        parse(R"({"commandId":"sleep-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                  "taskId":"sleep-0f1e2d3c4b5a69788796a5b4c3d2e1f0","source":"clawperator-cli",
                  "expectedFormat":"android-ui-automator","timeoutMs":30000,
                  "actions":[{"id":"sleep","type":"sleep","params":{"durationMs":2000}}]})"));
  CHECK(service::build_sleep(kStamp, 60000, std::nullopt)["timeoutMs"] == 65000);
  CHECK(service::build_sleep(kStamp, 1000, 90000)["timeoutMs"] == 90000);
  CHECK(service::build_sleep(kStamp, 1000, 2000)["timeoutMs"] == 30000);
}

TEST_CASE("the navigation actions keep the original's ids and timeouts", "[cli][builders]") {
  CHECK(
      service::build_open(kStamp, "com.android.settings") ==
      parse(
          R"({"commandId":"open_app_0f1e2d3c4b5a69788796a5b4c3d2e1f0","taskId":"cli-action-open-app",
                  "source":"clawperator-cli","expectedFormat":"android-ui-automator",
                  "timeoutMs":15000,
                  "actions":[{"id":"a1","type":"open_app",
                              "params":{"applicationId":"com.android.settings"}}]})"));
  CHECK(
      service::build_open(kStamp, "https://example.com") ==
      parse(
          R"({"commandId":"open_uri_0f1e2d3c4b5a69788796a5b4c3d2e1f0","taskId":"cli-action-open-uri",
                  "source":"clawperator-cli","expectedFormat":"android-ui-automator",
                  "timeoutMs":15000,
                  "actions":[{"id":"a1","type":"open_uri",
                              "params":{"uri":"https://example.com"}}]})"));
  CHECK(
      service::build_press_key(kStamp, "home") ==
      parse(
          R"({"commandId":"press_key_0f1e2d3c4b5a69788796a5b4c3d2e1f0","taskId":"cli-action-press-key",
                  "source":"clawperator-cli","expectedFormat":"android-ui-automator",
                  "timeoutMs":10000,
                  "actions":[{"id":"a1","type":"press_key","params":{"key":"home"}}]})"));
  CHECK(service::build_close(kStamp, "com.x", std::nullopt) ==
        parse(R"({"commandId":"close-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                  "taskId":"close-0f1e2d3c4b5a69788796a5b4c3d2e1f0","source":"clawperator-cli",
                  "expectedFormat":"android-ui-automator","timeoutMs":30000,
                  "actions":[{"id":"close","type":"close_app",
                              "params":{"applicationId":"com.x"}}]})"));
  CHECK(service::build_close(kStamp, "com.x", 5000)["timeoutMs"] == 5000);
  CHECK(
      service::build_scroll(kStamp, "down", std::nullopt, std::nullopt) ==
      parse(R"({"commandId":"scroll-0f1e2d3c4b5a69788796a5b4c3d2e1f0","taskId":"cli-action-scroll",
                  "source":"clawperator-cli","expectedFormat":"android-ui-automator",
                  "timeoutMs":30000,
                  "actions":[{"id":"a1","type":"scroll","params":{"direction":"down"}}]})"));
  CHECK(service::build_scroll(kStamp, "up", parse(R"({"role":"list"})"), 7000)["timeoutMs"] ==
        7000);
  CHECK(service::build_scroll(kStamp, "up", parse(R"({"role":"list"})"),
                              7000)["actions"][0]["params"] ==
        parse(R"({"direction":"up","container":{"role":"list"}})"));

  service::ScrollUntilRequest until;
  until.matcher = kOk;
  CHECK(service::build_scroll_until(kStamp, until) ==
        parse(R"({"commandId":"scroll-until-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                  "taskId":"scroll-until-0f1e2d3c4b5a69788796a5b4c3d2e1f0","source":"clawperator-cli",
                  "expectedFormat":"android-ui-automator","timeoutMs":30000,
                  "actions":[{"id":"a1","type":"scroll_until",
                              "params":{"direction":"down","matcher":{"textEquals":"OK"}}}]})"));
  until.direction = "left";
  until.container = parse(R"({"resourceId":"l"})");
  until.click_after = true;
  until.timeout_ms = 8000;
  const Json and_click = service::build_scroll_until(kStamp, until);
  CHECK(and_click["timeoutMs"] == 8000);
  CHECK(and_click["actions"] == parse(R"([{"id":"a1","type":"scroll_and_click",
                   "params":{"direction":"left","matcher":{"textEquals":"OK"},
                             "container":{"resourceId":"l"},"clickAfter":true}}])"));
}

TEST_CASE("the observe actions", "[cli][builders]") {
  CHECK(service::build_snapshot(kStamp) ==
        parse(R"({"commandId":"snapshot-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                  "taskId":"snapshot-0f1e2d3c4b5a69788796a5b4c3d2e1f0","source":"clawperator-observe",
                  "expectedFormat":"android-ui-automator","timeoutMs":30000,
                  "actions":[{"id":"snap","type":"snapshot"}],"mode":"direct"})"));
  CHECK(service::build_screenshot(kStamp, std::nullopt, std::nullopt) ==
        parse(R"({"commandId":"screenshot-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                  "taskId":"screenshot-0f1e2d3c4b5a69788796a5b4c3d2e1f0","source":"clawperator-observe",
                  "expectedFormat":"android-ui-automator","timeoutMs":30000,
                  "actions":[{"id":"snap","type":"take_screenshot","params":{}}]})"));
  const Json with_path = service::build_screenshot(kStamp, std::string("/tmp/s.png"), 5000);
  CHECK(with_path["timeoutMs"] == 5000);
  CHECK(with_path["actions"][0]["params"] == parse(R"({"path":"/tmp/s.png"})"));
}

TEST_CASE("every builder's payload passes validation", "[cli][builders]") {
  service::ScrollUntilRequest until;
  until.matcher = kOk;
  for (const Json& execution :
       {service::build_snapshot(kStamp),
        service::build_screenshot(kStamp, std::nullopt, std::nullopt),
        service::build_click(kStamp, kOk, std::nullopt, service::ClickType::Default),
        service::build_click(kStamp, std::nullopt, service::Coordinate{0, 0},
                             service::ClickType::LongClick),
        service::build_open(kStamp, "com.x"), service::build_open(kStamp, "https://x"),
        service::build_type(kStamp, kOk, "t", false, true),
        service::build_read(kStamp, kOk, kOk, true), service::build_wait(kStamp, kOk, 1000),
        service::build_press_key(kStamp, "back"),
        service::build_close(kStamp, "com.x", std::nullopt),
        service::build_sleep(kStamp, 0, std::nullopt),
        service::build_scroll(kStamp, "right", kOk, std::nullopt),
        service::build_scroll_until(kStamp, until),
        service::build_wait_for_navigation(kStamp, "com.x", kOk, 1),
        service::build_read_value(kStamp, kOk, false)}) {
    CAPTURE(execution.dump());
    const contract::ValidationOutcome outcome = contract::validate_execution(execution);
    CHECK(outcome.issues.empty());
    CHECK(outcome.valid);
  }
}
