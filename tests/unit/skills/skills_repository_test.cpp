#include "clawperator/skills/skills_repository.hpp"

#include <catch2/catch.hpp>

using namespace clawperator::skills;

TEST_CASE("skills ref: refs git would read as options are refused", "[skills]") {
  CHECK(check_skills_ref("main"));
  CHECK(check_skills_ref("v1.2.0"));
  CHECK(check_skills_ref("a1b2c3d"));
  for (const char* ref : {"", "-", "--upload-pack=touch /tmp/x", "main\nx"}) {
    INFO(ref);
    const auto refused = check_skills_ref(ref);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == "USAGE");
    CHECK(refused.error().details["flag"] == "--ref");
  }
}

TEST_CASE("skills repository: a --repo git would read as an option is refused", "[skills]") {
  CHECK(check_skills_repository("https://github.com/clawperator/clawperator-skills"));
  CHECK(check_skills_repository("/srv/git/skills.git"));
  CHECK(check_skills_repository("git@example.com:team/skills.git"));
  for (const char* repository : {"", "-", "--upload-pack=touch /tmp/x", "-u touch", "a\tb"}) {
    INFO(repository);
    const auto refused = check_skills_repository(repository);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == "USAGE");
    CHECK(refused.error().details["flag"] == "--repo");
    CHECK(refused.error().details["repository"] == repository);
  }
}
