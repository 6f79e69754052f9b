// The server's pure parts: status mapping, the access guard, request bodies, the event hub,
// the snapshot-side query.
#include <catch2/catch.hpp>
#include <chrono>

#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/access_log.hpp"
#include "clawperator/serve/event_hub.hpp"
#include "clawperator/serve/http_status.hpp"
#include "clawperator/serve/node_query.hpp"
#include "clawperator/serve/request_body.hpp"

using namespace clawperator;
using namespace clawperator::serve;

TEST_CASE("status mapping: the original's codes, its newest additions, the default", "[serve]") {
  CHECK(http_status_of_code("EXECUTION_CONFLICT_IN_FLIGHT") == 423);
  CHECK(http_status_of_code("POLICY_DENIED") == 403);
  CHECK(http_status_of_code("CONFIRMATION_REQUIRED") == 428);
  CHECK(http_status_of_code("RESULT_AUTHENTICITY_UNAVAILABLE") == 409);
  CHECK(http_status_of_code("DEVICE_NOT_FOUND") == 404);
  CHECK(http_status_of_code("NO_DEVICES") == 404);
  CHECK(http_status_of_code("MULTIPLE_DEVICES_DEVICE_ID_REQUIRED") == 400);
  CHECK(http_status_of_code("EXECUTION_VALIDATION_FAILED") == 400);
  CHECK(http_status_of_code("PAYLOAD_TOO_LARGE") == 413);
  CHECK(http_status_of_code("RESULT_ENVELOPE_TIMEOUT") == 504);
  CHECK(http_status_of_code("DEVICE_NOT_INTERACTIVE") == 409);
  CHECK(http_status_of_code("DEVICE_ACCESSIBILITY_NOT_RUNNING") == 409);
  CHECK(http_status_of_code("DEVICE_SHELL_UNAVAILABLE") == 503);
  CHECK(http_status_of_code("UNAUTHORIZED") == 401);
  CHECK(http_status_of_code("FORBIDDEN_ORIGIN") == 403);
  CHECK(http_status_of_code("SSE_CLIENT_LIMIT") == 503);
  // The codes that fell to 500 before the catalog gave each one a status (issue 45).
  CHECK(http_status_of_code("RESULT_TRANSPORT_EXITED") == 502);
  CHECK(http_status_of_code("ADB_NOT_FOUND") == 503);
  CHECK(http_status_of_code("OPERATOR_NOT_INSTALLED") == 409);
  CHECK(http_status_of_code("REGISTRY_READ_FAILED") == 503);
  CHECK(http_status_of_code("NODE_NOT_FOUND") == 502);
  CHECK(http_status_of_code("WAIT_TIMEOUT") == 504);
  CHECK(http_status_of_code("INTERNAL_ERROR") == 500);
  CHECK(http_status_of_code("NO_SUCH_CODE") == 500);
  CHECK(http_status_of(Json{{"ok", true}}) == 200);
  // A failed envelope is a terminal result: its failure is in the envelope.
  CHECK(http_status_of(Json{{"ok", false}, {"envelope", {{"status", "failed"}}}}) == 200);
  CHECK(http_status_of(Json{{"ok", false}, {"code", "NO_DEVICES"}}) == 404);
  CHECK(http_status_of(Json::array()) == 500);
}

TEST_CASE("access guard: Host, Origin, token", "[serve]") {
  const AccessPolicy loopback{"127.0.0.1", 3000, ""};
  auto facts = [](std::string_view path, std::optional<std::string_view> host,
                  std::optional<std::string_view> origin = std::nullopt,
                  std::optional<std::string_view> authorization = std::nullopt) {
    return RequestFacts{path, host, origin, authorization, false};
  };
  CHECK(check_access(loopback, facts("/devices", "127.0.0.1:3000")));
  CHECK(check_access(loopback, facts("/devices", "localhost:3000")));
  CHECK(check_access(loopback, facts("/", "localhost:3000", "http://localhost:3000")));
  // A DNS-rebound name, another port, no Host at all.
  CHECK(check_access(loopback, facts("/devices", "evil.example:3000")).error().code ==
        "FORBIDDEN_ORIGIN");
  CHECK(check_access(loopback, facts("/devices", "127.0.0.1:3001")).error().code ==
        "FORBIDDEN_ORIGIN");
  CHECK(check_access(loopback, facts("/devices", std::nullopt)).error().code == "FORBIDDEN_ORIGIN");
  // A page of another site, and a page of ours called by another name.
  CHECK(check_access(loopback, facts("/execute", "127.0.0.1:3000", "http://evil.example"))
            .error()
            .code == "FORBIDDEN_ORIGIN");
  CHECK(check_access(loopback, facts("/execute", "127.0.0.1:3000", "http://localhost:3000"))
            .error()
            .code == "FORBIDDEN_ORIGIN");
  CHECK(check_access(loopback, facts("/execute", "127.0.0.1:3000", "null")).error().code ==
        "FORBIDDEN_ORIGIN");

  const AccessPolicy wide{"0.0.0.0", 8080, "s3cret"};
  CHECK(check_access(wide, facts("/ping", "10.1.2.3:8080")));
  CHECK(check_access(wide, facts("/devices", "10.1.2.3:8080")).error().code == "UNAUTHORIZED");
  CHECK(check_access(wide, facts("/devices", "10.1.2.3:8080", std::nullopt, "Bearer nope"))
            .error()
            .code == "UNAUTHORIZED");
  CHECK(
      check_access(wide, facts("/devices", "10.1.2.3:8080", std::nullopt, "s3cret")).error().code ==
      "UNAUTHORIZED");
  CHECK(check_access(wide, facts("/devices", "[fe80::1]:8080", std::nullopt, "Bearer s3cret")));

  CHECK(is_loopback_host("127.0.0.1"));
  CHECK(is_loopback_host("127.9.9.9"));
  CHECK(is_loopback_host("::1"));
  CHECK(is_loopback_host("LOCALHOST"));
  CHECK_FALSE(is_loopback_host("0.0.0.0"));
  CHECK_FALSE(is_loopback_host("192.168.1.2"));
  CHECK(tokens_equal("abc", "abc"));
  CHECK_FALSE(tokens_equal("abc", "abd"));
  CHECK_FALSE(tokens_equal("abc", "abcd"));
}

TEST_CASE("request bodies: JSON, fields, device ids, matchers", "[serve]") {
  CHECK(parse_body("", {"deviceId"}).value() == Json::object());
  CHECK(parse_body("{", {"deviceId"}).error().code == "INVALID_JSON");
  CHECK(parse_body("[1]", {"deviceId"}).error().code == "INVALID_BODY");
  const auto unknown = parse_body(R"({"path":"/etc/x"})", {"deviceId"});
  CHECK(unknown.error().code == "INVALID_BODY");
  CHECK(unknown.error().details["field"] == "path");

  CHECK(read_target(Json{{"deviceId", " "}}).error().code == "INVALID_DEVICE_ID");
  CHECK(read_target(Json{{"deviceId", 7}}).error().code == "INVALID_DEVICE_ID");
  CHECK(read_target(Json{{"operatorPackage", ""}}).error().code == "INVALID_BODY");
  CHECK(*read_target(Json{{"deviceId", " emu-1 "}}).value().device == "emu-1");

  CHECK(read_execution(Json::object()).error().code == "MISSING_EXECUTION");
  CHECK(read_execution(Json{{"execution", "x"}}).error().code == "INVALID_BODY");

  CHECK(read_matcher(Json::object()).error().code == "INVALID_BODY");
  CHECK(read_matcher(Json{{"matcher", Json::object()}}).error().code == "INVALID_BODY");
  CHECK(read_matcher(Json{{"matcher", {{"label", "x"}}}}).error().details["field"] ==
        "matcher.label");
  CHECK(read_matcher(Json{{"matcher", {{"textEquals", ""}}}}).error().code == "INVALID_BODY");
  CHECK(read_matcher(Json{{"matcher", {{"textEquals", "OK"}, {"ancestor", {{"ancestor", {}}}}}}})
            .error()
            .code == "INVALID_BODY");
  CHECK(read_matcher(Json{{"matcher", {{"textEquals", "OK"}, {"ancestor", {{"resourceId", "a"}}}}}})
            .has_value());
}

TEST_CASE("event hub: heartbeat first, fan-out, bounded subscribers, close", "[serve]") {
  using std::chrono::milliseconds;
  EventHub hub(2);
  auto first = hub.subscribe();
  auto second = hub.subscribe();
  REQUIRE(first);
  REQUIRE(second);
  CHECK_FALSE(hub.subscribe());
  std::string text;
  REQUIRE(first->next(milliseconds(0), text) == Subscription::Wait::Event);
  CHECK(text.rfind("event: heartbeat\ndata: {\"code\":\"CONNECTED\"", 0) == 0);
  hub.publish("clawperator:execution", Json{{"n", 1}});
  REQUIRE(first->next(milliseconds(0), text) == Subscription::Wait::Event);
  CHECK(text == "event: clawperator:execution\ndata: {\"n\":1}\n\n");
  CHECK(first->next(milliseconds(1), text) == Subscription::Wait::Timeout);
  second.reset();
  CHECK(hub.subscribers() == 1);
  CHECK(hub.subscribe());  // a place is free again (and released at once)
  // 256 events behind: the queue becomes one `dropped` event, then the stream ends.
  for (int i = 0; i < 300; ++i) hub.publish("e", Json{{"n", i}});
  int received = 0;
  while (first->next(milliseconds(0), text) == Subscription::Wait::Event) ++received;
  CHECK(received == 1);
  CHECK(text.rfind("event: dropped\ndata: {\"code\":\"SSE_SUBSCRIBER_TOO_SLOW\"", 0) == 0);
  CHECK(text.find("\"queuedEvents\":" + std::to_string(EventHub::kQueueLimit)) !=
        std::string::npos);
  CHECK(first->next(milliseconds(0), text) == Subscription::Wait::Closed);
  auto third = hub.subscribe();
  REQUIRE(third);
  hub.close();
  CHECK(third->next(milliseconds(1000), text) == Subscription::Wait::Event);  // its heartbeat
  CHECK(third->next(milliseconds(1000), text) == Subscription::Wait::Closed);
  CHECK_FALSE(hub.subscribe());
}

namespace {

// /query's matcher read as the route reads it, then the nodes it selects.
contract::Outcome<Json> query_json(std::string_view xml, const Json& matcher) {
  auto read = read_matcher(Json{{"matcher", matcher}});
  if (!read) return contract::failed(read.error());
  return query_nodes(xml, *read);
}

}  // namespace

TEST_CASE("query_nodes: matchers against a UI Automator dump", "[serve]") {
  const std::string xml =
      R"(<?xml version="1.0"?><hierarchy rotation="0">)"
      R"(<node class="L" resource-id="app:id/list" text="" content-desc="" bounds="[0,0][10,10]">)"
      R"(<node class="T" resource-id="app:id/row" text="Wi-Fi" content-desc="" bounds="[0,0][5,5]"/>)"
      R"(<node class="T" resource-id="app:id/row" text="Display &amp; more" content-desc="d" bounds="[0,5][5,10]"/>)"
      R"(</node><node class="B" resource-id="" text="Wi-Fi" content-desc="" bounds="[1,1][2,2]"/>)"
      R"(</hierarchy>)";
  const auto rows = query_json(xml, Json{{"resourceId", "app:id/row"}});
  REQUIRE(rows);
  CHECK((*rows)["count"] == 2);
  CHECK((*rows)["matches"][1]["path"] == "0.1");
  CHECK((*rows)["matches"][1]["text"] == "Display & more");
  CHECK(query_json(xml, Json{{"textEquals", "Wi-Fi"}}).value()["count"] == 2);
  const auto scoped =
      query_json(xml, Json{{"textEquals", "Wi-Fi"}, {"ancestor", {{"resourceId", "app:id/list"}}}});
  CHECK(scoped.value()["count"] == 1);
  CHECK(scoped.value()["matches"][0]["path"] == "0.0");
  CHECK(query_json(xml, Json{{"textContains", "more"}}).value()["matches"][0]["bounds"] ==
        "[0,5][5,10]");
  CHECK(query_json(xml, Json{{"contentDescEquals", "nothing"}}).value()["count"] == 0);
  CHECK(query_json("<hierarchy><node", Json{{"textEquals", "x"}}).error().code ==
        "SNAPSHOT_EXTRACTION_FAILED");
}

TEST_CASE("query_nodes: texts as the dump holds them, …Contains ignoring case as the Operator",
          "[serve]") {
  // Literal TAB, LF and CR bytes inside the attribute values, not character references: an XML
  // parser alone would read each as a space.
  const std::string xml =
      "<hierarchy rotation=\"0\">"
      "<node class=\"T\" resource-id=\"a\" text=\"Total\t42\" content-desc=\"line one\nline "
      "two\" bounds=\"[0,0][1,1]\"/>"
      "<node class=\"T\" resource-id=\"b\" text=\"Carriage\rreturn\" content-desc=\"\" "
      "bounds=\"[0,1][1,2]\"/>"
      "<node class=\"T\" resource-id=\"c\" text=\"\xc3\x9c"
      "ber uns\" content-desc=\"Network &amp; Internet\" bounds=\"[0,2][1,3]\"/>"
      "</hierarchy>";
  const auto tab = query_json(xml, Json{{"textEquals", "Total\t42"}});
  REQUIRE(tab);
  REQUIRE(tab.value()["count"] == 1);
  CHECK(tab.value()["matches"][0]["text"] == "Total\t42");
  CHECK(tab.value()["matches"][0]["contentDesc"] == "line one\nline two");
  CHECK(query_json(xml, Json{{"textEquals", "Total 42"}}).value()["count"] == 0);
  CHECK(query_json(xml, Json{{"contentDescContains", "one\nLINE"}}).value()["count"] == 1);
  CHECK(query_json(xml, Json{{"textEquals", "Carriage\rreturn"}}).value()["count"] == 1);

  // textContains / contentDescContains: case-blind per character (Kotlin's ignoreCase);
  // the equals fields and resourceId are not.
  CHECK(query_json(xml, Json{{"textContains", "TOTAL"}}).value()["matches"][0]["resourceId"] ==
        "a");
  CHECK(query_json(xml, Json{{"textContains",
                              "\xc3\xbc"
                              "BER"}})
            .value()["count"] == 1);  // üBER in Über uns
  CHECK(query_json(xml, Json{{"contentDescContains", "network & INTERNET"}}).value()["count"] == 1);
  CHECK(query_json(xml, Json{{"textEquals", "total\t42"}}).value()["count"] == 0);
  CHECK(query_json(xml, Json{{"contentDescEquals", "network & internet"}}).value()["count"] == 0);
  CHECK(query_json(xml, Json{{"textContains", "absent"}}).value()["count"] == 0);
  CHECK(query_json(xml, Json{{"resourceId", "A"}}).value()["count"] == 0);
}

TEST_CASE("query_nodes: role and descendant, as an action's matcher takes them", "[serve]") {
  const std::string xml =
      R"(<hierarchy rotation="0">)"
      R"(<node class="android.widget.LinearLayout" resource-id="row" text="" content-desc="">)"
      R"(<node class="android.widget.TextView" resource-id="" text="Wi-Fi" content-desc=""/>)"
      R"(<node class="android.widget.Switch" resource-id="toggle" text="" content-desc=""/>)"
      R"(</node><node class="android.widget.Button" resource-id="ok" text="OK" content-desc=""/>)"
      R"(</hierarchy>)";
  // role: the Operator's role of the class, or the class's simple name, in any case.
  CHECK(query_json(xml, Json{{"role", "switch"}}).value()["matches"][0]["resourceId"] == "toggle");
  CHECK(query_json(xml, Json{{"role", "BUTTON"}}).value()["matches"][0]["resourceId"] == "ok");
  CHECK(query_json(xml, Json{{"role", "linearlayout"}}).value()["count"] == 1);
  // descendant: some strict descendant satisfies it; the node itself does not count.
  const auto row =
      query_json(xml, Json{{"resourceId", "row"}, {"descendant", {{"textEquals", "Wi-Fi"}}}});
  REQUIRE(row);
  CHECK(row.value()["count"] == 1);
  CHECK(row.value()["matches"][0]["path"] == "0");
  CHECK(query_json(xml, Json{{"textEquals", "Wi-Fi"}, {"descendant", {{"textEquals", "Wi-Fi"}}}})
            .value()["count"] == 0);
  // The payload's aliases too (contract/matcher_fields.hpp).
  CHECK(query_json(xml, Json{{"resource_id", "ok"}}).value()["count"] == 1);
}

TEST_CASE("query_nodes: a matcher the payload would refuse is INVALID_BODY naming the field",
          "[serve]") {
  const std::string xml = R"(<hierarchy><node text="x"/></hierarchy>)";
  const auto unknown = query_json(xml, Json{{"bogus", "x"}});
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().code == "INVALID_BODY");
  const auto blank = query_json(xml, Json{{"textEquals", " "}});
  REQUIRE_FALSE(blank);
  CHECK(blank.error().code == "INVALID_BODY");
  CHECK(blank.error().details["field"] == "matcher.textEquals");
  const auto nested = query_json(xml, Json{{"ancestor", {{"ancestor", {{"textEquals", "x"}}}}}});
  REQUIRE_FALSE(nested);
  CHECK(nested.error().details["field"] == "matcher.ancestor.ancestor");  // relations do not nest
  CHECK(read_matcher(Json::object()).error().details["field"] == "matcher");
}

TEST_CASE("query_nodes: what is not a hierarchy is SNAPSHOT_EXTRACTION_FAILED", "[serve]") {
  const auto matcher = read_matcher(Json{{"matcher", {{"textEquals", "x"}}}}).value();
  for (const char* xml :
       {"<root><node text=\"x\"/></root>", "<!DOCTYPE hierarchy [<!ENTITY x \"y\">]><hierarchy/>",
        "<hierarchy><widget/></hierarchy>", "<hierarchy><node"}) {
    INFO(xml);
    const auto failed = query_nodes(xml, matcher);
    REQUIRE_FALSE(failed);
    CHECK(failed.error().code == "SNAPSHOT_EXTRACTION_FAILED");
    CHECK(failed.error().details["reason"].get<std::string>() != "");
  }
}

TEST_CASE("access log fields never carry the query string", "[serve]") {
  const Json fields = access_log_fields({"GET", "/events?token=abc", 200, 12, "127.0.0.1"});
  CHECK(fields["path"] == "/events");
  CHECK(fields["status"] == 200);
  CHECK(fields["method"] == "GET");
}
