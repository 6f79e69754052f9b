// `skills install|update|sync` through the real binary and Debian's git, against a bare
// repository made here: real commits, a tag, a fast-forward, git's own failures.
#include <filesystem>
#include <fstream>

#include "farm_fixture.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::read_file;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

class GitFixture {
 public:
  GitFixture() {
    git({"init", "--quiet", "--bare", "-b", "main", origin()});
    git({"init", "--quiet", "-b", "main", work()});
    commit_registry({"com.test.one"}, "first");
    git({"-C", work(), "push", "--quiet", "origin", "main"});
  }
  GitFixture(const GitFixture&) = delete;
  GitFixture& operator=(const GitFixture&) = delete;

  std::string origin() const { return (root_ / "origin.git").string(); }
  std::string work() const { return (root_ / "work").string(); }
  std::string home() const { return (root_ / "home").string(); }
  std::string installed() const { return home() + "/.clawperator/skills"; }

  void git(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {"-c", "user.name=Test", "-c", "user.email=test@example.com"};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult result = run_binary("/usr/bin/git", argv);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
  }
  void commit_registry(const std::vector<std::string>& ids, const std::string& message) const {
    json skills = json::array();
    for (const std::string& id : ids) skills.push_back({{"id", id}, {"scripts", json::array()}});
    fs::create_directories(work() + "/skills");
    std::ofstream(work() + "/skills/skills-registry.json") << json{{"skills", skills}}.dump();
    git({"-C", work(), "add", "-A"});
    git({"-C", work(), "commit", "--quiet", "-m", message});
    if (message == "first") git({"-C", work(), "remote", "add", "origin", origin()});
  }
  RunResult clawperator(const std::vector<std::string>& args,
                        std::map<std::string, std::string> env = {}) const {
    RunOptions options;
    options.extra_env = {{"HOME", home()}, {"CLAWPERATOR_LOG_DIR", home() + "/logs"}};
    for (auto& [name, value] : env) options.extra_env[name] = value;
    options.unset_env = {"CLAWPERATOR_SKILLS_DIR", "CLAWPERATOR_SKILLS_REPO"};
    return run_binary(kBinary, args, options);
  }

 private:
  clawperator::testing::TemporaryDirectory directory_{"sync-it"};
  const fs::path& root_ = directory_.path();
};

}  // namespace

TEST_CASE("skills install, update and sync against a local repository", "[integration][skills]") {
  GitFixture fixture;
  const json installed =
      single_document(fixture.clawperator({"skills", "install", "--repo", fixture.origin()}));
  INFO(installed.dump());
  CHECK(installed["ok"] == true);
  CHECK(installed["synced"] == true);
  const std::string registry = fixture.installed() + "/skills/skills-registry.json";
  CHECK(installed["registryPath"] == registry);
  CHECK(installed["message"] == "Skills synced to " + fixture.installed() + " (ref: main)");
  CHECK(installed["envInstruction"] == "export CLAWPERATOR_SKILLS_REGISTRY=\"" + registry + "\"");
  CHECK(installed["skillCount"] == 1);

  // A second commit upstream, and a tag on the first: update fast-forwards, sync checks out.
  fixture.git({"-C", fixture.work(), "tag", "v1"});
  fixture.commit_registry({"com.test.one", "com.test.two"}, "second");
  fixture.git({"-C", fixture.work(), "push", "--quiet", "origin", "main", "v1"});
  const json updated = single_document(fixture.clawperator({"skills", "update"}));
  CHECK(updated["skillCount"] == 2);
  CHECK_FALSE(updated.contains("envInstruction"));
  // The installed registry is the one a later command finds.
  const json listed = single_document(fixture.clawperator({"skills", "list"}));
  CHECK(listed["count"] == 2);
  CHECK(listed["registrySource"] == "installed");

  const json tagged = single_document(fixture.clawperator({"skills", "sync", "--ref", "v1"}));
  CHECK(tagged["skillCount"] == 1);
  CHECK(tagged["message"] == "Skills synced to " + fixture.installed() + " (ref: v1)");

  const RunResult bad = fixture.clawperator({"skills", "sync", "--ref", "no-such-ref"});
  const json failed = expect_error(bad, "SKILLS_SYNC_FAILED", 3);
  CHECK(failed["details"]["argv"] ==
        json::array({"git", "-C", fixture.installed(), "checkout", "no-such-ref", "--"}));
  CHECK(failed["details"]["stderr"].get<std::string>().find("no-such-ref") != std::string::npos);
  CHECK(failed["details"]["exitCode"] != 0);

  const json option = expect_error(
      fixture.clawperator({"skills", "sync", "--ref", "--upload-pack=touch"}), "USAGE", 2);
  CHECK(option["details"]["flag"] == "--ref");
  expect_error(fixture.clawperator({"skills", "sync"}), "USAGE", 2);
  // A repository git would read as an option never reaches git: nothing runs the command.
  const fs::path witness = fs::path(fixture.home()) / "upload-pack-ran";
  const json repository = expect_error(
      fixture.clawperator({"skills", "install", "--repo=--upload-pack=touch " + witness.string()}),
      "USAGE", 2);
  CHECK(repository["details"]["flag"] == "--repo");
  CHECK_FALSE(fs::exists(witness));
}

TEST_CASE("skills install: no git on PATH, a clone that fails, a registry missing",
          "[integration][skills]") {
  GitFixture fixture;
  const json no_git =
      expect_error(fixture.clawperator({"skills", "install", "--repo", fixture.origin()},
                                       {{"PATH", "/nonexistent"}}),
                   "SKILLS_GIT_NOT_FOUND", 3);
  CHECK_FALSE(fs::exists(fixture.installed()));

  const json no_repo = expect_error(
      fixture.clawperator({"skills", "install", "--repo", fixture.origin() + "-missing"}),
      "SKILLS_SYNC_FAILED", 3);
  CHECK(no_repo["details"]["argv"][1] == "clone");
  CHECK_FALSE(no_repo["details"]["stderr"].get<std::string>().empty());
  // git's own reason, not the progress line it writes first ("Cloning into '…'...").
  const std::string no_repo_message = no_repo["message"];
  CHECK(no_repo_message.find("Cloning into") == std::string::npos);
  CHECK(no_repo_message.find(": fatal: ") != std::string::npos);

  // CLAWPERATOR_SKILLS_REPO when there is no --repo; a repository without a registry.
  fixture.git({"-C", fixture.work(), "rm", "--quiet", "-r", "skills"});
  fixture.git({"-C", fixture.work(), "commit", "--quiet", "-m", "no registry"});
  fixture.git({"-C", fixture.work(), "push", "--quiet", "origin", "main"});
  const json empty = expect_error(
      fixture.clawperator({"skills", "install"}, {{"CLAWPERATOR_SKILLS_REPO", fixture.origin()}}),
      "SKILLS_SYNC_FAILED", 3);
  CHECK(empty["details"]["registryPath"] == fixture.installed() + "/skills/skills-registry.json");
}
