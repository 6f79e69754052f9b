// skills validate (§2.7 of the original's facts, minus its quirks): files, metadata, paths,
// raw artifacts, --all.
#include "clawperator/skills/skill_validation.hpp"

#include <catch2/catch.hpp>

#include "skills_fixture.hpp"

using namespace clawperator;
using namespace clawperator::skills;
using skills::testing::expect_refusal;
using skills::testing::kValidArtifact;
using skills::testing::registry_of;
using skills::testing::SkillsRepository;
namespace fs = std::filesystem;

TEST_CASE("validate: a complete skill, with and without --dry-run", "[skills][validate]") {
  SkillsRepository repo;
  const Registry registry =
      repo.load(registry_of({repo.add_skill("a.script"),
                             repo.add_skill("a.recipe", {{"r.recipe.json", kValidArtifact}})}));
  const auto plain = validate_skill(registry, "a.script", false);
  REQUIRE(plain);
  CHECK((*plain)["valid"] == true);
  CHECK((*plain)["skill"]["id"] == "a.script");
  CHECK_FALSE(plain->contains("dryRun"));
  CHECK((*plain)["checks"]["skillJsonPath"] ==
        (repo.root() / "skills/a.script/skill.json").string());
  CHECK((*plain)["checks"]["scriptPaths"][0] ==
        (repo.root() / "skills/a.script/scripts/run.sh").string());
  CHECK((*plain)["registryPath"] == repo.registry_path().string());

  const auto script_only = validate_skill(registry, "a.script", true);
  REQUIRE(script_only);
  CHECK((*script_only)["dryRun"]["payloadValidation"] == "skipped");

  // Raw: "{{APP}}" is a non-blank string, so the template is a valid payload as it stands.
  const auto recipe = validate_skill(registry, "a.recipe", true);
  REQUIRE(recipe);
  CHECK((*recipe)["valid"] == true);
  CHECK_FALSE(recipe->contains("dryRun"));  // as the original: artifacts that pass add nothing
  CHECK((*recipe)["checks"]["artifactPaths"].size() == 1);
}

TEST_CASE("validate: unknown skill, missing files, no scripts", "[skills][validate]") {
  SkillsRepository repo;
  Json entry = repo.add_skill("a.b");
  entry["scripts"].push_back("skills/a.b/scripts/gone.sh");
  Json no_scripts = repo.add_skill("a.c");
  no_scripts.erase("scripts");
  const Registry registry = repo.load(registry_of({entry, no_scripts}));

  const auto unknown = validate_skill(registry, "zzz", false);
  REQUIRE_FALSE(unknown);
  expect_refusal(unknown.error(), "SKILL_NOT_FOUND", 2);

  fs::remove(repo.root() / "skills/a.b/SKILL.md");
  const auto missing = validate_skill(registry, "a.b", false);
  REQUIRE_FALSE(missing);
  expect_refusal(missing.error(), "SKILL_VALIDATION_FAILED", 2);
  CHECK(missing.error().message == "Skill a.b is missing required files");
  CHECK(missing.error().details["missingFiles"] ==
        Json::array({(repo.root() / "skills/a.b/SKILL.md").string(),
                     (repo.root() / "skills/a.b/scripts/gone.sh").string()}));
  CHECK(missing.error().details["skillId"] == "a.b");

  const auto scripts = validate_skill(registry, "a.c", false);
  REQUIRE_FALSE(scripts);
  expect_refusal(scripts.error(), "SKILL_VALIDATION_FAILED", 2);
  CHECK(scripts.error().details["missingFields"] == Json::array({"scripts"}));
}

TEST_CASE("validate: skill.json must match the entry; no artifacts on either side is no mismatch",
          "[skills][validate]") {
  SkillsRepository repo;
  Json entry = repo.add_skill("a.b");
  entry.erase("artifacts");  // absent in the registry, [] in skill.json: the same
  Json changed = repo.add_skill("a.c");
  repo.write("skills/a.c/skill.json", [&] {
    Json other = changed;
    other["summary"] = "something else";
    other["scripts"] = Json::array();
    return other.dump(2);
  }());
  const Registry registry = repo.load(registry_of({entry, changed}));
  CHECK(validate_skill(registry, "a.b", false));

  const auto mismatch = validate_skill(registry, "a.c", false);
  REQUIRE_FALSE(mismatch);
  expect_refusal(mismatch.error(), "SKILL_VALIDATION_FAILED", 2);
  CHECK(mismatch.error().details["mismatchFields"] == Json::array({"summary", "scripts"}));
}

TEST_CASE("validate: a skill.json syntax error fails that skill, not the --all run",
          "[skills][validate]") {
  SkillsRepository repo;
  const Json good = repo.add_skill("a.good");
  const Json bad = repo.add_skill("a.bad");
  repo.write("skills/a.bad/skill.json", "{\"id\": ");
  const Registry registry = repo.load(registry_of({bad, good}));

  const auto one = validate_skill(registry, "a.bad", false);
  REQUIRE_FALSE(one);
  expect_refusal(one.error(), "SKILL_VALIDATION_FAILED", 2);
  CHECK(one.error().details["reason"] == "skill.json is not valid JSON");

  const auto all = validate_all_skills(registry, false);
  REQUIRE_FALSE(all);
  expect_refusal(all.error(), "SKILL_VALIDATION_FAILED", 2);
  CHECK(all.error().message == "1 of 2 registered skills failed validation");
  const Json& details = all.error().details;
  CHECK(details["totalSkills"] == 2);
  CHECK(details["validCount"] == 1);
  CHECK(details["invalidCount"] == 1);
  REQUIRE(details["failures"].size() == 1);
  CHECK(details["failures"][0]["skillId"] == "a.bad");
  CHECK(details["failures"][0]["code"] == "SKILL_VALIDATION_FAILED");
  CHECK(details["failures"][0]["details"]["reason"] == "skill.json is not valid JSON");
  CHECK(details["registryPath"] == repo.registry_path().string());
}

TEST_CASE("validate --all: every skill valid", "[skills][validate]") {
  SkillsRepository repo;
  const Registry registry = repo.load(registry_of(
      {repo.add_skill("a.one"), repo.add_skill("a.two", {{"r.recipe.json", kValidArtifact}})}));
  const auto all = validate_all_skills(registry, true);
  REQUIRE(all);
  CHECK((*all)["totalSkills"] == 2);
  REQUIRE((*all)["validSkills"].size() == 2);
  CHECK((*all)["validSkills"][1]["skill"]["id"] == "a.two");
  CHECK((*all)["validSkills"][1].contains("checks"));
  CHECK((*all)["registrySource"] == "flag");
}

TEST_CASE("validate: a path that leads outside the repository is refused, by ../ or a symlink",
          "[skills][validate]") {
  SkillsRepository repo;
  Json dotdot = repo.add_skill("a.dotdot");
  dotdot["scripts"] = Json::array({"../../etc/passwd"});
  Json linked = repo.add_skill("a.link");
  fs::create_symlink("/etc", repo.root() / "skills/a.link/outside");
  linked["skillFile"] = "skills/a.link/outside/passwd";
  repo.write("skills/a.link/skill.json", linked.dump(2));
  repo.write("skills/a.dotdot/skill.json", dotdot.dump(2));
  const Registry registry = repo.load(registry_of({dotdot, linked}));

  for (const char* id : {"a.dotdot", "a.link"}) {
    CAPTURE(id);
    const auto outcome = validate_skill(registry, id, false);
    REQUIRE_FALSE(outcome);
    expect_refusal(outcome.error(), "SKILL_VALIDATION_FAILED", 2);
    CHECK(outcome.error().details["reason"] == "leads outside the skills repository");
    CHECK(outcome.error().details["skillId"] == id);
  }
  CHECK(validate_skill(registry, "a.link", false).error().details["field"] == "skillFile");
}

TEST_CASE("validate --dry-run: the first schema issue of a raw artifact", "[skills][validate]") {
  SkillsRepository repo;
  const std::string bad = R"({"commandId":"{{COMMAND_ID}}","taskId":"t","source":"s",
    "expectedFormat":"android-ui-automator","timeoutMs":30000,
    "actions":[{"id":"c1","type":"click","params":{"matcher":{"textEquals":"x"},"nonsense":1}}]})";
  const Registry registry =
      repo.load(registry_of({repo.add_skill("a.bad", {{"bad.recipe.json", bad}}),
                             repo.add_skill("a.broken", {{"broken.recipe.json", "not json"}})}));
  // Without --dry-run the artifacts are not read.
  CHECK(validate_skill(registry, "a.bad", false));

  const auto outcome = validate_skill(registry, "a.bad", true);
  REQUIRE_FALSE(outcome);
  expect_refusal(outcome.error(), "SKILL_VALIDATION_FAILED", 2);
  const Json& details = outcome.error().details;
  CHECK(details["artifact"] == "bad.recipe.json");
  CHECK(details["path"].get<std::string>().rfind("actions.0", 0) == 0);
  CHECK(details["actionId"] == "c1");
  CHECK(details["actionType"] == "click");
  CHECK(details["invalidKeys"] == Json::array({"nonsense"}));
  CHECK(details.contains("reason"));

  // A parameter the Operator removed: the validator's hint is passed on.
  SkillsRepository removed;
  const std::string old_format = R"({"commandId":"c","taskId":"t","source":"s",
    "expectedFormat":"android-ui-automator","timeoutMs":30000,
    "actions":[{"id":"snap","type":"snapshot_ui","params":{"format":"ascii"}}]})";
  const Registry removed_registry =
      removed.load(registry_of({removed.add_skill("a.old", {{"artifact.json", old_format}})}));
  const auto hinted = validate_skill(removed_registry, "a.old", true);
  REQUIRE_FALSE(hinted);
  CHECK(hinted.error().details["artifact"] == "artifact.json");
  CHECK(hinted.error().details["actionType"] == "snapshot_ui");
  CHECK(hinted.error().details["invalidKeys"] == Json::array({"format"}));
  CHECK_THAT(hinted.error().details["hint"].get<std::string>(), Catch::Contains("snapshot_ui"));

  const auto broken = validate_skill(registry, "a.broken", true);
  REQUIRE_FALSE(broken);
  CHECK(broken.error().details["artifact"] == "broken.recipe.json");
  CHECK(broken.error().details["reason"] == "the artifact is not valid JSON");
  CHECK_FALSE(broken.error().details.contains("path"));
}
