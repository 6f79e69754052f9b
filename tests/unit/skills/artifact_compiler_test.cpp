// skills compile-artifact (§2.5 of the original's facts): ids, vars, placeholders, validation.
#include "clawperator/skills/artifact_compiler.hpp"

#include <catch2/catch.hpp>

#include "clawperator/transport/sha256.hpp"
#include "skills_fixture.hpp"

using namespace clawperator;
using namespace clawperator::skills;
using skills::testing::expect_refusal;
using skills::testing::kValidArtifact;
using skills::testing::registry_of;
using skills::testing::SkillsRepository;

namespace {

contract::Outcome<CompiledArtifact> compile(const Registry& registry, const std::string& vars,
                                            const std::string& artifact = "recipe") {
  return compile_artifact(registry, {"com.example.test", artifact, vars});
}

}  // namespace

TEST_CASE("compile-artifact: the same inputs give the same bytes, whatever the vars' order",
          "[skills][compile]") {
  SkillsRepository repo;
  const Registry registry = repo.load(
      registry_of({repo.add_skill("com.example.test", {{"recipe.recipe.json", kValidArtifact}})}));
  const auto one = compile(registry, R"({"APP":"com.android.settings","EXTRA":"1"})");
  const auto two = compile(registry, R"({"EXTRA":"1","APP":"com.android.settings"})");
  const auto suffixed =
      compile(registry, R"({"EXTRA":"1","APP":"com.android.settings"})", "recipe.RECIPE.json");
  REQUIRE(one);
  REQUIRE(two);
  REQUIRE(suffixed);
  CHECK(one->document.dump() == two->document.dump());
  CHECK(one->document.dump() == suffixed->document.dump());

  // The ids are the first 12 hex digits of SHA-256 over the seed, vars sorted by key.
  const std::string seed =
      R"({"skillId":"com.example.test","artifactName":"recipe","vars":{"APP":"com.android.settings","EXTRA":"1"}})";
  const std::string hash = transport::sha256_hex(seed).substr(0, 12);
  const Json& execution = one->document["execution"];
  CHECK(execution["commandId"] == "cmd-" + hash);
  CHECK(execution["taskId"] == "task-" + hash);
  CHECK(execution["mode"] == "artifact_compiled");
  CHECK(one->execution.mode == std::optional<std::string>("artifact_compiled"));
  CHECK(execution["actions"][0]["params"]["applicationId"] == "com.android.settings");
  CHECK(one->document["registryPath"] == repo.registry_path().string());
  CHECK(one->document["registrySource"] == "flag");

  // Other vars, other ids.
  const auto other = compile(registry, R"({"APP":"com.android.settings","EXTRA":"2"})");
  REQUIRE(other);
  CHECK(other->document["execution"]["commandId"] != execution["commandId"]);
}

TEST_CASE("compile-artifact: the seed orders keys as JSON.stringify writes a JS object",
          "[skills][compile]") {
  // Array-index keys first, numerically; then the others, sorted.
  const CompileVars vars = {{"b", "1"}, {"10", "x"}, {"2", "y"}, {"A", "z"}, {"01", "w"}};
  const std::string seed =
      R"({"skillId":"s","artifactName":"n","vars":{"2":"y","10":"x","01":"w","A":"z","b":"1"}})";
  CHECK(compile_seed_hash("s", "n", vars) == transport::sha256_hex(seed).substr(0, 12));
}

TEST_CASE("compile-artifact: a COMMAND_ID or TASK_ID given is kept", "[skills][compile]") {
  SkillsRepository repo;
  const Registry registry = repo.load(
      registry_of({repo.add_skill("com.example.test", {{"recipe.recipe.json", kValidArtifact}})}));
  const auto compiled = compile(registry, R"({"APP":"a.b","COMMAND_ID":"mine"})");
  REQUIRE(compiled);
  CHECK(compiled->document["execution"]["commandId"] == "mine");
  CHECK(compiled->document["execution"]["taskId"].get<std::string>().rfind("task-", 0) == 0);
  // An empty one is generated, as if absent.
  const auto empty = compile(registry, R"({"APP":"a.b","COMMAND_ID":""})");
  REQUIRE(empty);
  CHECK(empty->document["execution"]["commandId"].get<std::string>().rfind("cmd-", 0) == 0);
}

TEST_CASE("compile-artifact: quotes and backslashes in a value stay inside the JSON string",
          "[skills][compile]") {
  SkillsRepository repo;
  const std::string artifact = std::string(kValidArtifact)
                                   .replace(std::string(kValidArtifact).find("\"snapshot\"}"), 11,
                                            "\"read_text\", \"params\": {\"matcher\": "
                                            "{\"textEquals\": \"{{LABEL}}\"}}}");
  const Registry registry = repo.load(
      registry_of({repo.add_skill("com.example.test", {{"recipe.recipe.json", artifact}})}));
  const auto compiled = compile(registry, R"({"APP":"a.b","LABEL":"say \"hi\" \\ now\n"})");
  REQUIRE(compiled);
  CHECK(compiled->document["execution"]["actions"][1]["params"]["matcher"]["textEquals"] ==
        "say \"hi\" \\ now\n");
}

TEST_CASE("compile-artifact: the first missing variable is named", "[skills][compile]") {
  SkillsRepository repo;
  const Registry registry = repo.load(
      registry_of({repo.add_skill("com.example.test", {{"recipe.recipe.json", kValidArtifact}})}));
  for (const char* vars : {"{}", R"({"APP":""})", R"({"OTHER":"x"})"}) {
    CAPTURE(vars);
    const auto compiled = compile(registry, vars);
    REQUIRE_FALSE(compiled);
    expect_refusal(compiled.error(), "COMPILE_VAR_MISSING", 2);
    CHECK(compiled.error().details["placeholder"] == "APP");
    CHECK(compiled.error().details["skillId"] == "com.example.test");
    CHECK(compiled.error().details["artifactName"] == "recipe.recipe.json");
    CHECK(compiled.error().details["registryPath"] == repo.registry_path().string());
  }
}

TEST_CASE("compile-artifact: --vars that is not JSON is COMPILE_VARS_PARSE_FAILED",
          "[skills][compile]") {
  SkillsRepository repo;
  const Registry registry = repo.load(
      registry_of({repo.add_skill("com.example.test", {{"recipe.recipe.json", kValidArtifact}})}));
  const auto compiled = compile(registry, "{APP:1");
  REQUIRE_FALSE(compiled);
  expect_refusal(compiled.error(), "COMPILE_VARS_PARSE_FAILED", 2);
  CHECK(compiled.error().details["varsJson"] == "{APP:1");
}

TEST_CASE("compile-artifact: values are converted as JavaScript's String() does",
          "[skills][compile]") {
  const auto vars = parse_compile_vars(
      R"({"i":100,"f":1.5,"whole":100.0,"big":1e21,"small":1.5e-7,"t":true,"n":null,"o":{"a":1},"s":"x"})");
  REQUIRE(vars);
  CHECK(vars->at("i") == "100");
  CHECK(vars->at("f") == "1.5");
  CHECK(vars->at("whole") == "100");
  CHECK(vars->at("big") == "1e+21");
  CHECK(vars->at("small") == "1.5e-7");
  // The thresholds of Number::toString, as node prints them.
  const auto more = parse_compile_vars(
      R"({"a":0.00001,"b":1e-7,"c":123456789012345680000,"d":1.2345e20,"e":-2.5,"f":0.1,"g":-0.0,"h":1e300})");
  REQUIRE(more);
  CHECK(more->at("a") == "0.00001");
  CHECK(more->at("b") == "1e-7");
  CHECK(more->at("c") == "123456789012345680000");
  CHECK(more->at("d") == "123450000000000000000");
  CHECK(more->at("e") == "-2.5");
  CHECK(more->at("f") == "0.1");
  CHECK(more->at("g") == "0");
  CHECK(more->at("h") == "1e+300");
  CHECK(vars->at("t") == "true");
  CHECK(vars->at("n") == "null");
  CHECK(vars->at("o") == R"({"a":1})");
  CHECK(vars->at("s") == "x");
  // Not an object: no variables.
  const auto scalar = parse_compile_vars("42");
  REQUIRE(scalar);
  CHECK(scalar->empty());
}

TEST_CASE("compile-artifact: placeholders are filled in one pass", "[skills][compile]") {
  std::string missing;
  const CompileVars vars = {{"A", "{{B}}"}, {"B", "b"}};
  CHECK(substitute_placeholders("[{{A}}|{{B}}|{{not-one}}|{{}}]", vars, missing) ==
        "[{{B}}|b|{{not-one}}|{{}}]");
  CHECK(missing.empty());
  substitute_placeholders("{{B}} {{C}} {{D}}", vars, missing);
  CHECK(missing == "C");
}

TEST_CASE(
    "compile-artifact: an artifact that is not a valid payload reports the validator's issues",
    "[skills][compile]") {
  SkillsRepository repo;
  const std::string bad = R"({"commandId":"{{COMMAND_ID}}","taskId":"{{TASK_ID}}","source":"t",
    "expectedFormat":"android-ui-automator","timeoutMs":30000,
    "actions":[{"id":"open","type":"open_app","params":{"applicationId":"{{APP}}","bogus":1}}]})";
  const Registry registry =
      repo.load(registry_of({repo.add_skill("com.example.test", {{"recipe.recipe.json", bad}})}));
  const auto compiled = compile(registry, R"({"APP":"a.b"})");
  REQUIRE_FALSE(compiled);
  expect_refusal(compiled.error(), "COMPILE_VALIDATION_FAILED", 2);
  const Json& details = compiled.error().details;
  CHECK(details["path"].get<std::string>().rfind("actions.0.params", 0) == 0);
  REQUIRE(details["issues"].is_array());
  REQUIRE_FALSE(details["issues"].empty());
  CHECK(details["issues"][0].contains("message"));
  CHECK(compiled.error().message.find("[object Object]") == std::string::npos);
  CHECK(details["artifactName"] == "recipe.recipe.json");

  // A value that makes the JSON itself invalid cannot happen (it is escaped); a broken file can.
  SkillsRepository broken;
  const Registry broken_registry = broken.load(
      registry_of({broken.add_skill("com.example.test", {{"recipe.recipe.json", "{\"a\": "}})}));
  const auto unparsable = compile(broken_registry, "{}");
  REQUIRE_FALSE(unparsable);
  expect_refusal(unparsable.error(), "COMPILE_VALIDATION_FAILED", 2);
}

TEST_CASE("compile-artifact: unknown skill, unknown artifact, unreadable or escaping file",
          "[skills][compile]") {
  SkillsRepository repo;
  Json entry = repo.add_skill("com.example.test", {{"recipe.recipe.json", kValidArtifact}});
  entry["artifacts"].push_back("skills/com.example.test/artifacts/gone.recipe.json");
  entry["artifacts"].push_back("../outside.recipe.json");
  const Registry registry = repo.load(registry_of({entry}));

  const auto unknown = compile_artifact(registry, {"nope", "recipe", "{}"});
  REQUIRE_FALSE(unknown);
  expect_refusal(unknown.error(), "SKILL_NOT_FOUND", 2);

  const auto no_artifact = compile(registry, "{}", "other");
  REQUIRE_FALSE(no_artifact);
  expect_refusal(no_artifact.error(), "ARTIFACT_NOT_FOUND", 2);
  CHECK(no_artifact.error().details["artifactName"] == "other.recipe.json");
  CHECK(no_artifact.error().message ==
        "Artifact not found: other.recipe.json (skill: com.example.test)");

  const auto gone = compile(registry, "{}", "gone");
  REQUIRE_FALSE(gone);
  expect_refusal(gone.error(), "REGISTRY_READ_FAILED", 3);
  CHECK(gone.error().details["artifactName"] == "gone.recipe.json");

  const auto outside = compile(registry, "{}", "outside");
  REQUIRE_FALSE(outside);
  expect_refusal(outside.error(), "SKILL_VALIDATION_FAILED", 2);
  CHECK(outside.error().details["field"] == "artifacts");
}

TEST_CASE("compile-artifact: an artifact file above the payload input limit is not read",
          "[skills][compile]") {
  SkillsRepository repo;
  const std::string huge = std::string(kValidArtifact) + std::string(1024 * 1024 + 1, ' ');
  const Registry registry =
      repo.load(registry_of({repo.add_skill("com.example.test", {{"recipe.recipe.json", huge}})}));
  const auto compiled = compile(registry, R"({"APP":"a.b"})");
  REQUIRE_FALSE(compiled);
  expect_refusal(compiled.error(), "REGISTRY_READ_FAILED", 3);
  CHECK(compiled.error().details["reason"].get<std::string>().find("larger than") == 0);
}

TEST_CASE("compile-artifact: a compiled payload above the payload size limit is refused",
          "[skills][compile]") {
  // Forty actions, each with a URI within its own limit: together above 64 000 bytes.
  std::string actions;
  for (int i = 0; i < 40; ++i) {
    if (i > 0) actions += ",";
    actions +=
        R"({"id":"u)" + std::to_string(i) + R"(","type":"open_uri","params":{"uri":"{{URI}}"}})";
  }
  const std::string artifact = R"({"commandId":"{{COMMAND_ID}}","taskId":"{{TASK_ID}}",
    "source":"t","expectedFormat":"android-ui-automator","timeoutMs":30000,"actions":[)" +
                               actions + "]}";
  SkillsRepository repo;
  const Registry registry = repo.load(
      registry_of({repo.add_skill("com.example.test", {{"recipe.recipe.json", artifact}})}));
  const std::string uri = "https://example.com/" + std::string(1900, 'a');
  const auto compiled = compile(registry, R"({"URI":")" + uri + R"("})");
  REQUIRE_FALSE(compiled);
  expect_refusal(compiled.error(), "COMPILE_VALIDATION_FAILED", 2);
  CHECK(compiled.error().details["limitBytes"] == 64000);
  // The same artifact with a short URI compiles.
  CHECK(compile(registry, R"({"URI":"https://example.com/"})"));
}
