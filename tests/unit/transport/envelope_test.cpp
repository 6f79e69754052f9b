#include "clawperator/transport/envelope.hpp"

#include <catch2/catch.hpp>
#include <string>

using clawperator::transport::Envelope;
using clawperator::transport::parse_envelope;
using clawperator::transport::to_json;

namespace {

std::string parse_failure(std::string_view text) {
  const auto result = parse_envelope(text);
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().path.empty());  // the member is the subject of the message
  return result.error().message;
}

}  // namespace

TEST_CASE("envelope: a complete success envelope", "[transport][envelope]") {
  const auto result = parse_envelope(
      R"({"commandId":"c1","taskId":"t1","status":"success","stepResults":[)"
      R"({"id":"s1","actionType":"read_text","success":true,"data":{"text":"héllo","b":"x"}},)"
      R"({"id":"s2","actionType":"sleep","success":false}],"error":null,"errorCode":"E_X",)"
      R"("extra":{"ignored":true}})");
  REQUIRE(result.has_value());
  const Envelope& envelope = *result;
  CHECK(envelope.commandId == "c1");
  CHECK(envelope.taskId == "t1");
  CHECK(envelope.status == "success");
  REQUIRE(envelope.steps.size() == 2);
  CHECK(envelope.steps[0].id == "s1");
  CHECK(envelope.steps[0].actionType == "read_text");
  CHECK(envelope.steps[0].success);
  using Data = std::vector<std::pair<std::string, std::string>>;
  CHECK(envelope.steps[0].data == Data{{"text", "héllo"}, {"b", "x"}});
  REQUIRE(envelope.steps[0].data_value("text") != nullptr);
  CHECK(*envelope.steps[0].data_value("text") == "héllo");
  CHECK(envelope.steps[0].data_value("missing") == nullptr);
  CHECK_FALSE(envelope.steps[1].success);
  CHECK(envelope.steps[1].data.empty());
  CHECK_FALSE(envelope.error.has_value());
  CHECK(envelope.errorCode == std::optional<std::string>("E_X"));
  CHECK(envelope.has_error_code_key);
}

TEST_CASE("envelope: error and errorCode forms", "[transport][envelope]") {
  const std::string head = R"({"commandId":"c","taskId":"t","status":"failed","stepResults":[])";
  SECTION("missing error is null (docs/wire-protocol.md §7.6), missing errorCode is absent") {
    const auto result = parse_envelope(head + "}");
    REQUIRE(result.has_value());
    CHECK_FALSE(result->error.has_value());
    CHECK_FALSE(result->errorCode.has_value());
    CHECK_FALSE(result->has_error_code_key);
  }
  SECTION("string error, null errorCode") {
    const auto result = parse_envelope(head + R"(,"error":"boom","errorCode":null})");
    REQUIRE(result.has_value());
    CHECK(result->error == std::optional<std::string>("boom"));
    CHECK_FALSE(result->errorCode.has_value());
    CHECK(result->has_error_code_key);
  }
  SECTION("non-string error or errorCode") {
    CHECK(parse_failure(head + R"(,"error":5})") == "error must be a string or null");
    CHECK(parse_failure(head + R"(,"error":{}})") == "error must be a string or null");
    CHECK(parse_failure(head + R"(,"errorCode":false})") == "errorCode must be a string or null");
  }
}

TEST_CASE("envelope: strict top-level fields", "[transport][envelope]") {
  CHECK(parse_failure("") == "envelope is not valid JSON");
  CHECK(parse_failure(R"({"commandId":"c",)") == "envelope is not valid JSON");
  CHECK(parse_failure(R"({"commandId":"c"} trailing)") == "envelope is not valid JSON");
  CHECK(parse_failure("[1,2]") == "envelope must be a JSON object");
  CHECK(parse_failure(R"({"taskId":"t","status":"success","stepResults":[]})") ==
        "commandId must be a string");
  CHECK(parse_failure(R"({"commandId":7,"taskId":"t","status":"success","stepResults":[]})") ==
        "commandId must be a string");
  CHECK(parse_failure(R"({"commandId":"c","taskId":null,"status":"success","stepResults":[]})") ==
        "taskId must be a string");
  CHECK(parse_failure(R"({"commandId":"c","taskId":"t","status":"ok","stepResults":[]})") ==
        "status must be \"success\" or \"failed\"");
  CHECK(parse_failure(R"({"commandId":"c","taskId":"t","status":"SUCCESS","stepResults":[]})") ==
        "status must be \"success\" or \"failed\"");
  CHECK(parse_failure(R"({"commandId":"c","taskId":"t","status":true,"stepResults":[]})") ==
        "status must be \"success\" or \"failed\"");
  CHECK(parse_failure(R"({"commandId":"c","taskId":"t","status":"success"})") ==
        "stepResults must be an array");
  CHECK(parse_failure(R"({"commandId":"c","taskId":"t","status":"success","stepResults":{}})") ==
        "stepResults must be an array");
}

TEST_CASE("envelope: strict step fields", "[transport][envelope]") {
  const auto with_steps = [](std::string_view steps) {
    return R"({"commandId":"c","taskId":"t","status":"success","stepResults":[)" +
           std::string(steps) + "]}";
  };
  const std::string good = R"({"id":"a","actionType":"click","success":true})";
  CHECK(parse_failure(with_steps(good + ",3")) == "stepResults[1] must be an object");
  CHECK(parse_failure(with_steps(R"({"actionType":"click","success":true})")) ==
        "stepResults[0].id must be a string");
  CHECK(parse_failure(with_steps(R"({"id":"a","actionType":1,"success":true})")) ==
        "stepResults[0].actionType must be a string");
  CHECK(parse_failure(with_steps(good + R"(,{"id":"a","actionType":"x","success":"true"})")) ==
        "stepResults[1].success must be a boolean");
  CHECK(parse_failure(with_steps(R"({"id":"a","actionType":"x","success":1})")) ==
        "stepResults[0].success must be a boolean");
  CHECK(parse_failure(with_steps(R"({"id":"a","actionType":"x"})")) ==
        "stepResults[0].success must be a boolean");
}

TEST_CASE("envelope: data values are stringified, non-object data is empty",
          "[transport][envelope]") {
  const auto result = parse_envelope(
      R"({"commandId":"c","taskId":"t","status":"success","stepResults":[)"
      R"({"id":"a","actionType":"x","success":true,"data":{"n":42,"f":1.5,"neg":-3,"b":true,)"
      R"("z":null,"o":{"k":[1,"two"]},"s":"str"}},)"
      R"({"id":"b","actionType":"x","success":true,"data":[1,2]},)"
      R"({"id":"c","actionType":"x","success":true,"data":"text"}],"error":null})");
  REQUIRE(result.has_value());
  using Data = std::vector<std::pair<std::string, std::string>>;
  CHECK(result->steps[0].data == Data{{"n", "42"},
                                      {"f", "1.5"},
                                      {"neg", "-3"},
                                      {"b", "true"},
                                      {"z", "null"},
                                      {"o", R"({"k":[1,"two"]})"},
                                      {"s", "str"}});
  CHECK(result->steps[1].data.empty());
  CHECK(result->steps[2].data.empty());
}

TEST_CASE("envelope: a hostile nesting depth in data is refused, not recursed",
          "[transport][envelope]") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  CHECK(parse_failure(R"({"commandId":"c","taskId":"t","status":"success","stepResults":[)"
                      R"({"id":"a","actionType":"x","success":true,"data":{"d":)" +
                      deep + "}}]}") == "stepResults[0].data.d nests too deeply");
}

TEST_CASE("envelope: to_json writes the wire shape back", "[transport][envelope]") {
  const std::string text =
      R"({"commandId":"c1","taskId":"t1","status":"failed","stepResults":[)"
      R"({"id":"s1","actionType":"click","success":false,"data":{"n":7,"msg":"x"}}],)"
      R"("error":"boom","errorCode":null})";
  const auto result = parse_envelope(text);
  REQUIRE(result.has_value());
  CHECK(to_json(*result).dump() ==
        R"({"commandId":"c1","taskId":"t1","status":"failed","stepResults":[)"
        R"({"id":"s1","actionType":"click","success":false,"data":{"n":"7","msg":"x"}}],)"
        R"("error":"boom","errorCode":null})");

  Envelope minimal;
  minimal.commandId = "c";
  minimal.taskId = "t";
  minimal.status = "success";
  CHECK(to_json(minimal).dump() ==
        R"({"commandId":"c","taskId":"t","status":"success","stepResults":[],"error":null})");
  minimal.errorCode = "CODE";
  minimal.has_error_code_key = true;
  CHECK(to_json(minimal).dump() ==
        R"({"commandId":"c","taskId":"t","status":"success","stepResults":[],"error":null,)"
        R"("errorCode":"CODE"})");
}
