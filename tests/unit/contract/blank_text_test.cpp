// Blank means empty or only white space as JavaScript knows it (text.hpp), for every non-blank
// check of validation: toast text, required strings, and each matcher field, which is refused
// when blank rather than sent for the Operator to ignore.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/text.hpp"

using clawperator::is_blank;
using clawperator::Json;
using namespace clawperator::contract;

namespace {

// Each white space code point, UTF-8 encoded.
const std::vector<std::string> kWhiteSpace = {
    "\t",           "\n",           "\v",           "\f",           "\r",           " ",
    "\xc2\xa0",     "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81", "\xe2\x80\x82", "\xe2\x80\x83",
    "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89",
    "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80",
    "\xef\xbb\xbf",
};

ValidationOutcome validate_action(const std::string& action) {
  Json payload = Json::parse(R"({"commandId":"c1","taskId":"t1","source":"test",
      "expectedFormat":"android-ui-automator","timeoutMs":5000})");
  payload["actions"] = Json::array({Json::parse(action)});
  return validate_execution(payload);
}

}  // namespace

TEST_CASE("blank: empty or JavaScript's white space only", "[contract][blank]") {
  CHECK(is_blank(""));
  std::string all;
  for (const std::string& space : kWhiteSpace) {
    CAPTURE(space);
    CHECK(is_blank(space));
    CHECK_FALSE(is_blank(space + "x"));
    all += space;
  }
  CHECK(is_blank(all));
  // Not white space: NEL (a C1 control in JavaScript), the zero-width space, letters.
  for (const char* text : {"\xc2\x85", "\xe2\x80\x8b", "a", "\xc3\xa9", "\xf0\x9f\x98\x80"}) {
    CAPTURE(text);
    CHECK_FALSE(is_blank(text));
  }
}

TEST_CASE("non-blank checks refuse Unicode white space", "[contract][blank]") {
  struct Case {
    std::string action;
    std::string path;
    std::string message;
  };
  const std::string nbsp = "\xc2\xa0";
  const std::string ideographic = "\xe3\x80\x80";
  const std::vector<Case> cases = {
      {R"({"id":"a1","type":"show_toast","params":{"text":")" + nbsp + ideographic + R"("}})",
       "actions.0.params.text", "show_toast requires params.text"},
      {R"({"id":"a1","type":"open_app","params":{"applicationId":"\u2028"}})",
       "actions.0.params.applicationId", "open_app requires params.applicationId"},
      {R"({"id":"a1","type":"list_notifications","params":{"applicationId":"\ufeff"}})",
       "actions.0.params.applicationId",
       "list_notifications params.applicationId must not be blank"},
      {R"({"id":"a1","type":"click","params":{"matcher":{"textEquals":")" + ideographic + R"("}}})",
       "actions.0.params.matcher.textEquals",
       "textEquals must not be blank: omit it to leave it open"},
      {R"({"id":"a1","type":"click","params":{"matcher":{"resourceId":"a:id/b",)"
       R"("contentDescContains":"\u2003"}}})",
       "actions.0.params.matcher.contentDescContains",
       "contentDescContains must not be blank: omit it to leave it open"},
      {R"({"id":"a1","type":"read_text","params":{"matcher":{"textEquals":"A"},)"
       R"("container":{"role":""}}})",
       "actions.0.params.container.role", "role must not be blank: omit it to leave it open"},
      {R"({"id":"a1","type":"query_ui","params":{"matcher":{"textEquals":"A",)"
       R"("descendant":{"textContains":"\u00a0"}}}})",
       "actions.0.params.matcher.descendant.textContains",
       "textContains must not be blank: omit it to leave it open"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.action);
    const ValidationOutcome outcome = validate_action(c.action);
    REQUIRE_FALSE(outcome.valid);
    CHECK(outcome.issues.front().path == c.path);
    CHECK(outcome.issues.front().message == c.message);
    const HostError error = validation_failure(outcome.issues);
    CHECK(error.code == "EXECUTION_VALIDATION_FAILED");
    CHECK(exit_code_of(error) == 2);
    CHECK(disposition_of(error).delivery == Delivery::NotDelivered);
    CHECK(disposition_of(error).retry == Retry::Safe);
  }
  // White space inside text is text: only all-blank is refused.
  CHECK(validate_action(R"({"id":"a1","type":"show_toast","params":{"text":"\u00a0a\u3000"}})")
            .valid);
}
