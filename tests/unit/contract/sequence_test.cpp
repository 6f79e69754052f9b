// A sequence's admission (contract/sequence.hpp, docs/payload.md §12): every fault named by its
// path from the sequence, with the code and exit code a payload's fault has.
#include "clawperator/contract/sequence.hpp"

#include <catch2/catch.hpp>

using clawperator::Json;
using namespace clawperator::contract;

namespace {

Json payload(const std::string& command_id, double timeout_ms = 5000) {
  Json out = Json::parse(R"({"taskId":"t1","source":"test","expectedFormat":"android-ui-automator",
    "actions":[{"id":"a1","type":"snapshot"}]})");
  out["commandId"] = command_id;
  out["timeoutMs"] = timeout_ms;
  return out;
}

Json sequence_of(std::initializer_list<Json> payloads) {
  return Json{{"executions", Json(payloads)}};
}

HostError refused(const Json& input, std::optional<std::string_view> timeout = {}) {
  auto admitted = admit_sequence(input, timeout);
  REQUIRE_FALSE(admitted);
  CHECK(exit_code_of(admitted.error()) == 2);
  CHECK(disposition_of(admitted.error()).delivery == Delivery::NotDelivered);
  return admitted.error();
}

}  // namespace

TEST_CASE("sequence: an object with executions is one; a payload is not") {
  CHECK(is_sequence(sequence_of({payload("a")})));
  CHECK_FALSE(is_sequence(payload("a")));
  CHECK_FALSE(is_sequence(Json::array()));
}

TEST_CASE("sequence: admitted in order, each payload validated and kept typed") {
  auto admitted = admit_sequence(sequence_of({payload("a"), payload("b", 7000)}));
  REQUIRE(admitted);
  REQUIRE(admitted->executions.size() == 2);
  CHECK(admitted->executions[0].command_id == "a");
  CHECK(admitted->executions[1].timeout_ms.value() == 7000);
  CHECK(to_device_json(*admitted)["executions"][1]["commandId"] == "b");
  // --timeout replaces every payload's timeoutMs, as it replaces one payload's.
  auto overridden = admit_sequence(sequence_of({payload("a"), payload("b")}), "9000");
  REQUIRE(overridden);
  CHECK(overridden->executions[0].timeout_ms.value() == 9000);
  CHECK(overridden->executions[1].timeout_ms.value() == 9000);
}

TEST_CASE("sequence: the shape refused with its path") {
  SECTION("no payloads") {
    const HostError error = refused(Json{{"executions", Json::array()}});
    CHECK(error.code == "EXECUTION_VALIDATION_FAILED");
    CHECK(error.details["path"] == "executions");
  }
  SECTION("not an array") {
    CHECK(refused(Json{{"executions", "a"}}).details["path"] == "executions");
  }
  SECTION("a key of its own") {
    Json input = sequence_of({payload("a")});
    input["timeoutMs"] = 1000;
    const HostError error = refused(input);
    CHECK(error.details["path"] == "");
    CHECK(error.details["invalidKeys"] == Json::array({"timeoutMs"}));
  }
  SECTION("more than the limit") {
    Json input = Json{{"executions", Json::array()}};
    for (std::size_t i = 0; i <= kMaxSequenceExecutions; ++i) {
      input["executions"].push_back(payload("p" + std::to_string(i)));
    }
    const HostError error = refused(input);
    CHECK(error.details["maxExecutions"] == kMaxSequenceExecutions);
  }
  SECTION("a sequence inside") {
    const HostError error = refused(sequence_of({payload("a"), sequence_of({payload("b")})}));
    CHECK(error.details["path"] == "executions.1");
  }
}

TEST_CASE("sequence: a payload's fault named from the sequence") {
  SECTION("an unknown action type") {
    Json bad = payload("b");
    bad["actions"][0]["type"] = "tapp";
    const HostError error = refused(sequence_of({payload("a"), bad}));
    CHECK(error.code == "EXECUTION_ACTION_UNSUPPORTED");
    // The path a single payload gives this fault ("actions": the original's), from the sequence.
    CHECK(error.details["path"] == "executions.1.actions");
    CHECK(error.details["executionIndex"] == 1);
    CHECK(error.details["actionId"] == "a1");
  }
  SECTION("a missing field") {
    Json bad = payload("b");
    bad.erase("taskId");
    const HostError error = refused(sequence_of({bad}));
    CHECK(error.code == "EXECUTION_VALIDATION_FAILED");
    CHECK(error.details["path"] == "executions.0.taskId");
    CHECK(error.details["executionIndex"] == 0);
  }
  SECTION("a --timeout out of range") {
    const HostError error = refused(sequence_of({payload("a")}), "0");
    CHECK(error.details["path"] == "executions.0.timeoutMs");
    CHECK(error.details["executionIndex"] == 0);
  }
  SECTION("two payloads with one command id") {
    const HostError error = refused(sequence_of({payload("a"), payload("b"), payload("a")}));
    CHECK(error.details["path"] == "executions.2.commandId");
    CHECK(error.message ==
          "commandId 'a' is also executions.0's: each payload of a sequence "
          "needs its own");
  }
}
