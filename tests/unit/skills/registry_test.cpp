// The registry (skills/registry.hpp): where it is looked for, what it must hold, where its paths
// may lead, which ids are usable.
#include "clawperator/skills/registry.hpp"

#include <catch2/catch.hpp>

#include "skills_fixture.hpp"

using namespace clawperator;
using namespace clawperator::skills;
using skills::testing::expect_refusal;
using skills::testing::registry_of;
using skills::testing::SkillsRepository;
namespace fs = std::filesystem;

TEST_CASE("registry lookup: --registry, then the environment, then ./skills, then installed",
          "[skills][registry]") {
  SkillsRepository repo;
  RegistryLookup lookup;
  lookup.working_directory = repo.root();
  lookup.home = repo.root() / "home";

  // Nothing named and no ./skills registry yet: the installed one.
  auto location = locate_registry(lookup);
  CHECK(location.source == RegistrySource::Installed);
  CHECK(location.path == repo.root() / "home/.clawperator/skills/skills/skills-registry.json");
  CHECK(to_string(location.source) == "installed");

  repo.write_registry(registry_of({}));
  location = locate_registry(lookup);
  CHECK(location.source == RegistrySource::WorkingDirectory);
  CHECK(location.path == repo.registry_path());

  lookup.environment = "env/reg.json";  // relative: to the working directory
  location = locate_registry(lookup);
  CHECK(location.source == RegistrySource::Environment);
  CHECK(location.path == repo.root() / "env/reg.json");

  lookup.flag = "/elsewhere/reg.json";
  location = locate_registry(lookup);
  CHECK(location.source == RegistrySource::Flag);
  CHECK(location.path == "/elsewhere/reg.json");

  // A blank environment value counts as unset; without a home, ./skills is named anyway.
  RegistryLookup blank;
  blank.working_directory = repo.root() / "nowhere";
  blank.environment = "";
  location = locate_registry(blank);
  CHECK(location.source == RegistrySource::WorkingDirectory);
}

TEST_CASE("registry load: missing, not JSON, no skills array, wrong member types",
          "[skills][registry]") {
  SkillsRepository repo;
  const RegistryLocation location{repo.registry_path(), RegistrySource::Environment};
  const auto expect_read_failed = [&](const std::string& reason_part) {
    const auto registry = load_registry(location);
    REQUIRE_FALSE(registry);
    expect_refusal(registry.error(), "REGISTRY_READ_FAILED", 3);
    CHECK(registry.error().details["registryPath"] == repo.registry_path().string());
    CHECK(registry.error().details["registrySource"] == "environment");
    CHECK_THAT(registry.error().details["reason"].get<std::string>(), Catch::Contains(reason_part));
  };
  expect_read_failed("No such file");
  repo.write("skills/skills-registry.json", "{\"skills\": [");
  expect_read_failed("invalid JSON");
  repo.write("skills/skills-registry.json", "{\"skill\": []}");
  expect_read_failed("skills array required");
  repo.write("skills/skills-registry.json", "[]");
  expect_read_failed("skills array required");
  repo.write("skills/skills-registry.json", R"({"skills": [{"id": "a.b", "scripts": "run.sh"}]})");
  expect_read_failed("scripts must be an array");
  repo.write("skills/skills-registry.json", R"({"skills": [{"id": "a.b", "summary": 3}]})");
  expect_read_failed("summary must be a string");
  repo.write("skills/skills-registry.json", R"({"skills": [{"id": "a.b", "artifacts": [1]}]})");
  expect_read_failed("artifacts must hold strings only");
  repo.write("skills/skills-registry.json", R"({"skills": [{"summary": "no id"}]})");
  expect_read_failed("non-empty string id");
  repo.write("skills/skills-registry.json", R"({"skills": ["a.b"]})");
  expect_read_failed("must be an object");
}

TEST_CASE("registry load: entries and unknown keys as written", "[skills][registry]") {
  SkillsRepository repo;
  repo.write(
      "skills/skills-registry.json",
      R"({"schemaVersion":"1","extra":{"k":1},"skills":[{"id":"a.b","custom":true},{"id":"a.b"}]})");
  const auto registry = load_registry({repo.registry_path(), RegistrySource::Flag});
  REQUIRE(registry);
  CHECK(registry->root == repo.root());
  CHECK(registry->document["extra"]["k"] == 1);
  REQUIRE(registry->skills.size() == 2);
  CHECK(registry->find("a.b") == &registry->skills[0]);  // the first match
  CHECK(registry->skills[0].raw["custom"] == true);
  CHECK_FALSE(registry->skills[0].has_artifacts);
  CHECK(registry->find("a") == nullptr);
}

TEST_CASE("resolve_inside: a path leads nowhere outside the repository", "[skills][registry]") {
  SkillsRepository repo;
  const Registry registry = repo.load(registry_of({}));
  const auto inside = resolve_inside(registry, "skills/a/b.txt", "scripts");
  REQUIRE(inside);
  CHECK(*inside == repo.root() / "skills/a/b.txt");

  for (const char* refused : {"../x", "skills/../../x", "/etc/passwd", ""}) {
    CAPTURE(refused);
    const auto outcome = resolve_inside(registry, refused, "scripts");
    REQUIRE_FALSE(outcome);
    expect_refusal(outcome.error(), "SKILL_VALIDATION_FAILED", 2);
    CHECK(outcome.error().details["field"] == "scripts");
  }
  // A symlink inside that points outside is followed, and refused.
  fs::create_symlink("/tmp", repo.root() / "skills" / "link");
  const auto through_link = resolve_inside(registry, "skills/link/x", "artifacts");
  REQUIRE_FALSE(through_link);
  CHECK(through_link.error().details["reason"] == "leads outside the skills repository");
}

TEST_CASE("check_skill_id: separators, '..', control bytes, length", "[skills][registry]") {
  CHECK(check_skill_id("com.example.app"));
  for (const std::string& bad :
       {std::string(""), std::string("a/b.c"), std::string("a\\b.c"), std::string("..x.y"),
        std::string("a\x01.b"), std::string("a\x7f.b"), std::string(201, 'a')}) {
    CAPTURE(bad);
    const auto checked = check_skill_id(bad);
    REQUIRE_FALSE(checked);
    expect_refusal(checked.error(), "SKILL_ID_INVALID", 2);
    CHECK(checked.error().details["skillId"] == bad);
  }
}
