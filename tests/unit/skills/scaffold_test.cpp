// skills new (§2.8 of the original's facts): the id rules, the files, the registry rewrite,
// nothing overwritten, nothing left behind by a failure.
#include "clawperator/skills/scaffold.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <tuple>

#include "clawperator/skills/script_output.hpp"
#include "skills_fixture.hpp"

using namespace clawperator;
using namespace clawperator::skills;
using clawperator::testing::mode_of;
using skills::testing::expect_refusal;
using skills::testing::registry_of;
using skills::testing::SkillsRepository;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("new: the three files, their modes, and the registry sorted with unknown keys kept",
          "[skills][scaffold]") {
  SkillsRepository repo;
  Json document = registry_of({Json{{"id", "z.last"}, {"custom", 1}}, Json{{"id", "a.first"}}});
  document["schemaVersion"] = "7";
  const Registry registry = repo.load(document);

  const auto created =
      scaffold_skill(registry, {"  com.example.app.check  ", std::string("Line one\r\nLine two")});
  REQUIRE(created);
  const fs::path folder = repo.root() / "skills/com.example.app.check";
  CHECK((*created)["created"] == true);
  CHECK((*created)["skillId"] == "com.example.app.check");
  CHECK((*created)["skillPath"] == folder.string());
  CHECK((*created)["files"] ==
        Json::array({(folder / "SKILL.md").string(), (folder / "skill.json").string(),
                     (folder / "scripts/run.sh").string()}));
  CHECK((*created)["next"] ==
        "Edit SKILL.md and scripts/run.sh, then verify with: clawperator skills validate "
        "com.example.app.check");
  CHECK((*created)["registryPath"] == repo.registry_path().string());

  CHECK(mode_of(folder / "scripts/run.sh") == 0755);
  CHECK(mode_of(folder / "SKILL.md") == 0644);
  CHECK(mode_of(folder / "skill.json") == 0644);
  const std::string markdown = read_text(folder / "SKILL.md");
  CHECK(markdown.rfind(
            "---\nname: com.example.app.check\ndescription: |-\n  Line one\n  Line two\n---\n",
            0) == 0);
  const std::string script = read_text(folder / "scripts/run.sh");
  CHECK(script.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(script.find("CLAWPERATOR_BIN:-clawperator") != std::string::npos);
  CHECK(script.find("\"type\":\"snapshot\"") != std::string::npos);
  CHECK(script.find("\"timeoutMs\":30000") != std::string::npos);

  const Json entry = parse_json(read_text(folder / "skill.json"));
  CHECK(entry["applicationId"] == "com.example.app");
  CHECK(entry["intent"] == "check");
  CHECK(entry["summary"] == "Line one\r\nLine two");
  CHECK(entry["scripts"] == Json::array({"skills/com.example.app.check/scripts/run.sh"}));
  CHECK(entry["artifacts"] == Json::array());

  const std::string registry_text = read_text(repo.registry_path());
  CHECK(registry_text.back() == '\n');
  CHECK(registry_text.find("\n  \"skills\": [") != std::string::npos);  // 2-space indent
  const Json rewritten = parse_json(registry_text);
  CHECK(rewritten["schemaVersion"] == "7");
  REQUIRE(rewritten["skills"].size() == 3);
  CHECK(rewritten["skills"][0]["id"] == "a.first");
  CHECK(rewritten["skills"][1]["id"] == "com.example.app.check");
  CHECK(rewritten["skills"][2]["id"] == "z.last");
  CHECK(rewritten["skills"][2]["custom"] == 1);
  CHECK(rewritten["skills"][1] == entry);
}

TEST_CASE("new: the generated script is POSIX sh that sh can parse", "[skills][scaffold]") {
  SkillsRepository repo;
  repo.write("check.sh", scaffold_run_script("a'b\"c$d.e"));
  const std::string command = "sh -n '" + (repo.root() / "check.sh").string() + "'";
  CHECK(std::system(command.c_str()) == 0);
}

TEST_CASE("new: the generated script prints a SkillResult line skills run accepts, for any id",
          "[skills][scaffold]") {
  SkillsRepository repo;
  // A stand-in for clawperator exec: its exit status is the first word of status.txt.
  repo.write("fake-bin.sh", "#!/bin/sh\necho '{\"ok\":true}'\nexit \"$(cat \"$0.status\")\"\n");
  const fs::path fake = repo.root() / "fake-bin.sh";
  ::chmod(fake.c_str(), 0755);
  for (const std::string id : {"com.example.app.check", "a'b\"c$d\\e `f`.g"}) {
    for (const auto& [exec_status, skill_status, step] :
         {std::tuple{"0", "success", "ok"}, std::tuple{"5", "failed", "failed"}}) {
      CAPTURE(id, exec_status);
      repo.write("fake-bin.sh.status", exec_status);
      repo.write("run.sh", scaffold_run_script(id));
      const std::string command = "CLAWPERATOR_BIN='" + fake.string() + "' sh '" +
                                  (repo.root() / "run.sh").string() + "' > '" +
                                  (repo.root() / "out.txt").string() + "'";
      const int status = std::system(command.c_str());
      CHECK(WEXITSTATUS(status) == std::stoi(exec_status));
      const std::string out = read_text(repo.root() / "out.txt");
      SkillResultScanner scanner;
      scanner.feed(out);
      scanner.finish();
      REQUIRE(scanner.last());
      CHECK(scanner.last()->error.empty());
      CHECK(scanner.last()->value["skillId"] == id);
      CHECK(scanner.last()->value["contractVersion"] == "1.0.0");
      CHECK(scanner.last()->value["status"] == skill_status);
      CHECK(scanner.last()->value["checkpoints"][0]["status"] == step);
      // The exec's own output is still there, apart from the result line.
      CHECK(script_output_json(out) == Json{{"ok", true}});
    }
  }
}

TEST_CASE("new: an id with YAML's special characters is quoted in the frontmatter",
          "[skills][scaffold]") {
  CHECK(scaffold_skill_markdown("a.b-c_d", "s").rfind("---\nname: a.b-c_d\n", 0) == 0);
  CHECK(scaffold_skill_markdown("a: #b.c", "s").rfind("---\nname: \"a: #b.c\"\n", 0) == 0);
}

TEST_CASE("new: a blank summary becomes the TODO one", "[skills][scaffold]") {
  SkillsRepository repo;
  const Registry registry = repo.load(registry_of({}));
  const auto created = scaffold_skill(registry, {"a.b", std::string("   ")});
  REQUIRE(created);
  const Json entry = parse_json(read_text(repo.root() / "skills/a.b/skill.json"));
  CHECK(entry["summary"] == "TODO: describe a.b");
}

TEST_CASE("new: ids that cannot be used", "[skills][scaffold]") {
  SkillsRepository repo;
  const Registry registry = repo.load(registry_of({}));
  for (const std::string& id :
       {std::string("a/b.c"), std::string("..x.y"), std::string("nodot"), std::string(".lead"),
        std::string("trail."), std::string("a\x02.b")}) {
    CAPTURE(id);
    const auto outcome = scaffold_skill(registry, {id, std::nullopt});
    REQUIRE_FALSE(outcome);
    expect_refusal(outcome.error(), "SKILL_ID_INVALID", 2);
    CHECK(outcome.error().details["registryPath"] == repo.registry_path().string());
  }
  CHECK(fs::is_empty(repo.root() / "skills") == false);  // the registry only
  CHECK(std::distance(fs::directory_iterator(repo.root() / "skills"), fs::directory_iterator()) ==
        1);
}

TEST_CASE("new: an id in the registry, or a folder that exists, is SKILL_ALREADY_EXISTS",
          "[skills][scaffold]") {
  SkillsRepository repo;
  const Registry registry = repo.load(registry_of({Json{{"id", "a.taken"}}}));
  const auto listed = scaffold_skill(registry, {"a.taken", std::nullopt});
  REQUIRE_FALSE(listed);
  expect_refusal(listed.error(), "SKILL_ALREADY_EXISTS", 2);
  CHECK(listed.error().message == "Skill already exists: a.taken");

  repo.write("skills/a.folder/keep.txt", "mine");
  const auto folder = scaffold_skill(registry, {"a.folder", std::nullopt});
  REQUIRE_FALSE(folder);
  expect_refusal(folder.error(), "SKILL_ALREADY_EXISTS", 2);
  CHECK(read_text(repo.root() / "skills/a.folder/keep.txt") == "mine");

  // A dangling symlink in its place is not followed.
  fs::create_symlink(repo.root() / "elsewhere", repo.root() / "skills/a.link");
  const auto link = scaffold_skill(registry, {"a.link", std::nullopt});
  REQUIRE_FALSE(link);
  expect_refusal(link.error(), "SKILL_ALREADY_EXISTS", 2);
  CHECK_FALSE(fs::exists(repo.root() / "elsewhere"));
  // Nor one that leads outside the repository.
  const fs::path outside = repo.root().parent_path() / (repo.root().filename().string() + "-out");
  fs::create_symlink(outside, repo.root() / "skills/a.out");
  const auto out = scaffold_skill(registry, {"a.out", std::nullopt});
  REQUIRE_FALSE(out);
  CHECK_FALSE(fs::exists(outside));
}

TEST_CASE("new: a summary with a NUL byte fails before anything is created", "[skills][scaffold]") {
  SkillsRepository repo;
  const Registry registry = repo.load(registry_of({}));
  const auto outcome = scaffold_skill(registry, {"a.b", std::string("bad\0summary", 11)});
  REQUIRE_FALSE(outcome);
  expect_refusal(outcome.error(), "SKILLS_SCAFFOLD_FAILED", 3);
  CHECK(outcome.error().details["cause"].is_null());
  CHECK(outcome.error().details["path"] == (repo.root() / "skills/a.b/SKILL.md").string());
  CHECK_FALSE(fs::exists(repo.root() / "skills/a.b"));
}

TEST_CASE("new: a registry that cannot be rewritten fails and leaves nothing behind",
          "[skills][scaffold]") {
  if (::geteuid() == 0) {
    // root writes through permission bits; make the registry a directory-backed failure instead.
    SkillsRepository repo;
    const Registry registry = repo.load(registry_of({}));
    Registry moved = registry;
    moved.location.path = repo.root() / "missing-dir" / "skills-registry.json";
    const auto outcome = scaffold_skill(moved, {"a.b", std::nullopt});
    REQUIRE_FALSE(outcome);
    expect_refusal(outcome.error(), "SKILLS_SCAFFOLD_FAILED", 3);
    CHECK(outcome.error().details["cause"] == "ENOENT");
    CHECK(outcome.error().details["path"].get<std::string>().find("missing-dir") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(repo.root() / "skills/a.b"));
    return;
  }
  SkillsRepository repo;
  const Registry registry = repo.load(registry_of({}));
  fs::permissions(repo.root() / "skills", fs::perms::owner_write, fs::perm_options::remove);
  const auto outcome = scaffold_skill(registry, {"a.b", std::nullopt});
  REQUIRE_FALSE(outcome);
  expect_refusal(outcome.error(), "SKILLS_SCAFFOLD_FAILED", 3);
  CHECK(outcome.error().details["cause"] == "EACCES");
}
