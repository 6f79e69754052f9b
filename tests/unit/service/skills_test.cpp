// A remote skill run's arguments, read once for HTTP and MCP (src/service/skills.cpp).
#include "clawperator/service/skills.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace clawperator;

TEST_CASE("read_skill_run: the members a remote caller may set, each bounded", "[service]") {
  const auto read = service::read_skill_run(Json::parse(
      R"({"skillId":"x","args":["a b","--x"],"expectContains":"ok","skipValidate":true,
          "timeoutMs":5000})"));
  REQUIRE(read);
  CHECK(read->args == std::vector<std::string>{"a b", "--x"});
  CHECK(read->expect_contains == "ok");
  CHECK(read->skip_validate);
  CHECK(read->timeout_ms == 5000);
  CHECK(service::skill_run_lock_wait_ms(*read) == 5000);
  CHECK(service::skill_run_lock_wait_ms(service::SkillRunArguments{}) == 120000);

  // What every front end refuses alike: a NUL no argv can carry, sizes past the bounds.
  Json nul = Json::object();
  nul["args"] = Json::array({"ok", std::string("a\0b", 3)});
  for (const auto& [arguments, field] : std::vector<std::pair<Json, std::string>>{
           {nul, "args.1"},
           {Json::parse(R"({"args":"a"})"), "args"},
           {Json{{"args", Json::array({std::string(4097, 'x')})}}, "args.0"},
           {Json{{"args", Json(std::vector<std::string>(65, "a"))}}, "args"},
           {Json::parse(R"({"expectContains":""})"), "expectContains"},
           {Json::parse(R"({"skipValidate":"yes"})"), "skipValidate"},
           {Json::parse(R"({"timeoutMs":0})"), "timeoutMs"},
           {Json::parse(R"({"timeoutMs":600001})"), "timeoutMs"}}) {
    CAPTURE(field);
    const auto refused = service::read_skill_run(arguments);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == "INVALID_BODY");
    CHECK(refused.error().details["field"] == field);
  }
}
