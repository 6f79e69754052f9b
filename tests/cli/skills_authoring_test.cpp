// skills compile-artifact, new, validate and exec --skill through the built binary, on skills
// repositories in temporary directories, and `skills validate --all --dry-run` on the shipped
// skills/ folder (docs/skills.md).
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"
#include "test_files.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::read_whole_file;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::TemporaryDirectory;
using clawperator::testing::write_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* const kRecipe = R"({
  "commandId": "{{COMMAND_ID}}", "taskId": "{{TASK_ID}}", "source": "cli-test",
  "expectedFormat": "android-ui-automator", "timeoutMs": 30000,
  "actions": [{"id": "open", "type": "open_app", "params": {"applicationId": "{{APP}}"}},
              {"id": "snap", "type": "snapshot"}]
})";

// <tmp>/skills/skills-registry.json with one artifact skill, a.recipe.
class TempSkills {
 public:
  TempSkills() {
    root_ = fs::canonical(directory_.path());
    const std::string folder = "skills/a.recipe";
    json entry = {{"id", "a.recipe"},
                  {"applicationId", "a"},
                  {"intent", "recipe"},
                  {"summary", "test"},
                  {"path", folder},
                  {"skillFile", folder + "/SKILL.md"},
                  {"scripts", {folder + "/scripts/run.sh"}},
                  {"artifacts", {folder + "/artifacts/open.recipe.json"}}};
    fs::create_directories(root_ / folder / "scripts");
    fs::create_directories(root_ / folder / "artifacts");
    write_file(root_ / folder / "SKILL.md", "---\nname: a.recipe\n---\n");
    write_file(root_ / folder / "scripts/run.sh", "#!/bin/sh\n");
    write_file(root_ / folder / "artifacts/open.recipe.json", kRecipe);
    write_file(root_ / folder / "skill.json", entry.dump(2));
    write_file(registry(), json{{"skills", {entry}}}.dump(2));
  }
  fs::path registry() const { return root_ / "skills" / "skills-registry.json"; }
  const fs::path& root() const { return root_; }
  // Run with the registry named by the environment.
  RunOptions options() const {
    RunOptions run;
    run.extra_env["CLAWPERATOR_SKILLS_REGISTRY"] = registry().string();
    return run;
  }

 private:
  TemporaryDirectory directory_{"skills"};
  fs::path root_;
};

}  // namespace

TEST_CASE("skills compile-artifact prints the same compiled execution whatever the vars' order",
          "[cli][skills]") {
  TempSkills skills;
  const RunResult one = run_binary(kBinary,
                                   {"skills", "compile-artifact", "a.recipe", "--artifact", "open",
                                    "--vars", R"({"APP":"com.android.settings","X":"1"})"},
                                   skills.options());
  const RunResult two =
      run_binary(kBinary,
                 {"skills", "compile-artifact", "--skill-id", "a.recipe", "--artifact",
                  "open.recipe.json", "--vars", R"({"X":"1","APP":"com.android.settings"})"},
                 skills.options());
  const json document = single_document(one);
  CHECK(one.exit_code == 0);
  CHECK(one.out == two.out);
  CHECK(document["ok"] == true);
  CHECK(document["execution"]["mode"] == "artifact_compiled");
  CHECK(document["execution"]["commandId"].get<std::string>().rfind("cmd-", 0) == 0);
  CHECK(document["registrySource"] == "environment");
  CHECK(document["registryPath"] == skills.registry().string());
}

TEST_CASE("skills compile-artifact: usage and compile errors", "[cli][skills]") {
  TempSkills skills;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"skills", "compile-artifact", "a.recipe"},
           {"skills", "compile-artifact", "--artifact", "open"}}) {
    const json document = expect_error(run_binary(kBinary, args, skills.options()), "USAGE", 2);
    CHECK_THAT(document["message"].get<std::string>(), Catch::Contains("--skill-id"));
    CHECK_THAT(document["message"].get<std::string>(), Catch::Contains("--artifact"));
    CHECK(document.contains("example"));
  }
  const json missing = expect_error(
      run_binary(kBinary, {"skills", "compile-artifact", "a.recipe", "--artifact", "open"},
                 skills.options()),
      "COMPILE_VAR_MISSING", 2);
  CHECK(missing["details"]["placeholder"] == "APP");
  CHECK(missing["details"]["registryPath"] == skills.registry().string());
  expect_error(run_binary(kBinary,
                          {"skills", "compile-artifact", "a.recipe", "--artifact", "open", "--vars",
                           "{nope"},
                          skills.options()),
               "COMPILE_VARS_PARSE_FAILED", 2);
  expect_error(run_binary(kBinary, {"skills", "compile-artifact", "a.recipe", "--artifact", "nope"},
                          skills.options()),
               "ARTIFACT_NOT_FOUND", 2);
  expect_error(run_binary(kBinary, {"skills", "compile-artifact", "zz.top", "--artifact", "open"},
                          skills.options()),
               "SKILL_NOT_FOUND", 2);
  // A value that leaves the payload invalid (a blank applicationId): the validator's issues.
  const json invalid = expect_error(run_binary(kBinary,
                                               {"skills", "compile-artifact", "a.recipe",
                                                "--artifact", "open", "--vars", R"({"APP":" "})"},
                                               skills.options()),
                                    "COMPILE_VALIDATION_FAILED", 2);
  CHECK(invalid["details"]["path"] == "actions.0.params.applicationId");
  CHECK(invalid["details"]["issues"].is_array());
}

TEST_CASE("exec --skill compiles the artifact and takes the exec path", "[cli][skills]") {
  TempSkills skills;
  const RunResult result =
      run_binary(kBinary,
                 {"exec", "--skill", "a.recipe", "--artifact", "open", "--vars",
                  R"({"APP":"com.android.settings"})", "--validate-only"},
                 skills.options());
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["validated"] == true);
  CHECK(document["execution"]["mode"] == "artifact_compiled");
  CHECK(document["execution"]["actions"][0]["params"]["applicationId"] == "com.android.settings");

  // The same execution as compile-artifact prints.
  const json compiled =
      single_document(run_binary(kBinary,
                                 {"skills", "compile-artifact", "a.recipe", "--artifact", "open",
                                  "--vars", R"({"APP":"com.android.settings"})"},
                                 skills.options()));
  CHECK(compiled["execution"] == document["execution"]);

  const json plan = single_document(run_binary(kBinary,
                                               {"exec", "--skill", "a.recipe", "--artifact", "open",
                                                "--vars", R"({"APP":"x.y"})", "--dry-run"},
                                               skills.options()));
  CHECK(plan["plan"]["actionCount"] == 2);

  expect_error(run_binary(kBinary, {"exec", "{}", "--skill", "a.recipe", "--artifact", "open"},
                          skills.options()),
               "USAGE", 2);
  expect_error(run_binary(kBinary, {"exec", "--skill", "a.recipe"}, skills.options()), "USAGE", 2);
  expect_error(
      run_binary(kBinary, {"exec", "--skill", "a.recipe", "--artifact", "open", "--validate-only"},
                 skills.options()),
      "COMPILE_VAR_MISSING", 2);
}

TEST_CASE("skills new then skills validate", "[cli][skills]") {
  TempSkills skills;
  const RunResult created =
      run_binary(kBinary, {"skills", "new", "com.example.app.check", "--summary", "Checks it"},
                 skills.options());
  const json document = single_document(created);
  CHECK(created.exit_code == 0);
  CHECK(document["created"] == true);
  CHECK(document["files"].size() == 3);
  CHECK(fs::exists(skills.root() / "skills/com.example.app.check/scripts/run.sh"));

  const RunResult validated = run_binary(
      kBinary, {"skills", "validate", "com.example.app.check", "--dry-run"}, skills.options());
  const json report = single_document(validated);
  CHECK(validated.exit_code == 0);
  CHECK(report["valid"] == true);
  CHECK(report["dryRun"]["payloadValidation"] == "skipped");

  CHECK(validated.err.find("Payload validation skipped") == std::string::npos);
  // For a person, the note on stderr; the artifact skill gets none.
  const RunResult pretty =
      run_binary(kBinary, {"skills", "validate", "--all", "--dry-run", "--output", "pretty"},
                 skills.options());
  CHECK(pretty.exit_code == 0);
  // The scaffold's checklist is still in SKILL.md (its summary was given): one warning.
  CHECK(pretty.err ==
        "  [WARN] com.example.app.check: SKILL.md still holds the scaffold's \"TODO before "
        "sharing this skill\" checklist\n"
        "  [INFO] Payload validation skipped: no pre-compiled artifacts\n");

  const json all = single_document(
      run_binary(kBinary, {"skills", "validate", "--all", "--dry-run"}, skills.options()));
  CHECK(all["totalSkills"] == 2);

  expect_error(run_binary(kBinary, {"skills", "new", "com.example.app.check"}, skills.options()),
               "SKILL_ALREADY_EXISTS", 2);
  expect_error(run_binary(kBinary, {"skills", "new", "nodot"}, skills.options()),
               "SKILL_ID_INVALID", 2);
  expect_error(run_binary(kBinary, {"skills", "new"}, skills.options()), "USAGE", 2);
  expect_error(run_binary(kBinary, {"skills", "validate"}, skills.options()), "USAGE", 2);
  expect_error(run_binary(kBinary, {"skills", "validate", "a.recipe", "--all"}, skills.options()),
               "USAGE", 2);
  expect_error(run_binary(kBinary, {"skills", "validate", "zz.top"}, skills.options()),
               "SKILL_NOT_FOUND", 2);
}

namespace {

// An empty working directory and an empty HOME, no registry named: a new user's first hour.
struct EmptyStart {
  TemporaryDirectory directory{"skills-empty"};
  fs::path root = fs::canonical(directory.path());
  RunOptions options;
  EmptyStart() {
    fs::create_directories(root / "home");
    fs::create_directories(root / "work");
    options.working_directory = (root / "work").string();
    options.extra_env["HOME"] = (root / "home").string();
    options.unset_env = {"CLAWPERATOR_SKILLS_REGISTRY"};
  }
  RunResult run(std::vector<std::string> argv) const { return run_binary(kBinary, argv, options); }
  fs::path work() const { return root / "work"; }
};

}  // namespace

TEST_CASE("skills init makes an empty registry the reader accepts and never replaces one",
          "[cli][skills]") {
  EmptyStart start;
  const RunResult made = start.run({"skills", "init"});
  const json created = single_document(made);
  CHECK(made.exit_code == 0);
  CHECK(created["created"] == true);
  const fs::path registry = start.work() / "skills/skills-registry.json";
  CHECK(created["registryPath"] == registry.string());
  CHECK(read_whole_file(registry) == "{\"schemaVersion\":\"1\",\"skills\":[]}\n");
  // The reader takes it: an empty list, found in ./skills.
  const json listed = single_document(start.run({"skills", "list"}));
  CHECK(listed["count"] == 0);
  CHECK(listed["registrySource"] == "cwd");

  // Never replaced: the file, with something in it, stays as it is.
  write_file(registry, R"({"skills":[],"mine":true})");
  const json again = expect_error(start.run({"skills", "init"}), "REGISTRY_ALREADY_EXISTS", 2);
  CHECK(again["details"]["registryPath"] == registry.string());
  CHECK(read_whole_file(registry) == R"({"skills":[],"mine":true})");

  // DIR: DIR/skills/skills-registry.json, the folders made; a dangling link there counts.
  const json in_dir = single_document(start.run({"skills", "init", "repo/a"}));
  CHECK(in_dir["registryPath"] == (start.work() / "repo/a/skills/skills-registry.json").string());
  CHECK(in_dir["registrySource"] == "flag");
  fs::create_directories(start.work() / "linked/skills");
  fs::create_symlink(start.root / "nowhere.json",
                     start.work() / "linked/skills/skills-registry.json");
  expect_error(start.run({"skills", "init", "linked"}), "REGISTRY_ALREADY_EXISTS", 2);
  CHECK_FALSE(fs::exists(start.root / "nowhere.json"));

  // --registry FILE: that file.
  const json named = single_document(start.run({"skills", "init", "--registry", "reg/x.json"}));
  CHECK(named["registryPath"] == (start.work() / "reg/x.json").string());
  CHECK(named["next"].get<std::string>().find(
            "--registry " + (start.work() / "reg/x.json").string()) != std::string::npos);

  // A folder on the way that is a file: SKILLS_SCAFFOLD_FAILED, exit 3, with the path.
  write_file(start.work() / "plain", "x");
  const json blocked =
      expect_error(start.run({"skills", "init", "plain"}), "SKILLS_SCAFFOLD_FAILED", 3);
  CHECK(blocked["details"]["path"] == (start.work() / "plain/skills").string());
  expect_error(start.run({"skills", "init", "repo/b", "--registry", "y.json"}), "USAGE", 2);
}

TEST_CASE("skills new in an empty directory: the error's hint names skills init, --init creates it",
          "[cli][skills]") {
  EmptyStart start;
  const json missing = expect_error(start.run({"skills", "new", "com.example.app.check"}),
                                    "REGISTRY_READ_FAILED", 3);
  CHECK(missing["hint"].get<std::string>().find("'clawperator skills init'") != std::string::npos);
  CHECK(missing["hint"].get<std::string>().find("--init") != std::string::npos);
  const json named = expect_error(start.run({"skills", "new", "com.example.app.check", "--registry",
                                             "skills/skills-registry.json"}),
                                  "REGISTRY_READ_FAILED", 3);
  const std::string absolute = (start.work() / "skills/skills-registry.json").string();
  CHECK(named["hint"].get<std::string>().find("'clawperator skills init --registry " + absolute +
                                              "'") != std::string::npos);
  CHECK_FALSE(fs::exists(start.work() / "skills"));
  // A registry that is there but broken keeps the catalog's recovery: init would not help.
  write_file(start.root / "broken.json", "{");
  const json broken = expect_error(
      start.run({"skills", "list", "--registry", (start.root / "broken.json").string()}),
      "REGISTRY_READ_FAILED", 3);
  CHECK(broken["hint"].get<std::string>().find("skills init") == std::string::npos);

  const RunResult made = start.run({"skills", "new", "com.example.app.check", "--init"});
  const json created = single_document(made);
  CHECK(made.exit_code == 0);
  CHECK(created["created"] == true);
  CHECK(created["registryPath"] == absolute);
  CHECK(created["registrySource"] == "cwd");
  // An existing registry is used as it is: a second skill joins the first.
  const json second =
      single_document(start.run({"skills", "new", "com.example.app.other", "--init"}));
  CHECK(second["created"] == true);
  CHECK(single_document(start.run({"skills", "list"}))["count"] == 2);
  // The hint the error gave works as it is written.
  EmptyStart other;
  CHECK(other.run({"skills", "init"}).exit_code == 0);
  CHECK(other.run({"skills", "new", "com.example.app.check"}).exit_code == 0);
}

TEST_CASE("skills validate warns on the scaffold's placeholder text, --strict fails on it",
          "[cli][skills]") {
  EmptyStart start;
  REQUIRE(start.run({"skills", "new", "com.example.app.check", "--init"}).exit_code == 0);
  const RunResult checked = start.run({"skills", "validate", "com.example.app.check"});
  const json report = single_document(checked);
  CHECK(checked.exit_code == 0);
  CHECK(report["valid"] == true);
  REQUIRE(report["warnings"].size() == 2);
  CHECK(report["warnings"][0]["field"] == "summary");
  CHECK(report["warnings"][1]["file"] ==
        (start.work() / "skills/com.example.app.check/SKILL.md").string());
  const RunResult pretty =
      start.run({"skills", "validate", "com.example.app.check", "--output", "pretty"});
  CHECK(pretty.exit_code == 0);
  CHECK(pretty.err.find("  [WARN] com.example.app.check: the summary is placeholder text") !=
        std::string::npos);

  const json strict =
      expect_error(start.run({"skills", "validate", "com.example.app.check", "--strict"}),
                   "SKILL_VALIDATION_FAILED", 2);
  CHECK(strict["details"]["warnings"].size() == 2);
  CHECK(strict["details"]["skillId"] == "com.example.app.check");
  const json all = expect_error(start.run({"skills", "validate", "--all", "--strict"}),
                                "SKILL_VALIDATION_FAILED", 2);
  CHECK(all["details"]["failures"][0]["details"]["warnings"].size() == 2);
  CHECK(single_document(start.run({"skills", "validate", "--all"}))["warningCount"] == 2);

  // Written by its author: no warning, and --strict passes.
  REQUIRE(start.run({"skills", "new", "com.example.app.done", "--summary", "Reads the status"})
              .exit_code == 0);
  write_file(start.work() / "skills/com.example.app.done/SKILL.md", "---\nname: x\n---\nDone.\n");
  const RunResult done = start.run({"skills", "validate", "com.example.app.done", "--strict"});
  CHECK(done.exit_code == 0);
  CHECK(single_document(done)["warnings"] == json::array());
}

TEST_CASE("skills search takes a bare keyword, and says so when given nothing", "[cli][skills]") {
  TempSkills skills;
  const json found =
      single_document(run_binary(kBinary, {"skills", "search", "RECIPE"}, skills.options()));
  CHECK(found["count"] == 1);
  CHECK(found["skills"][0]["id"] == "a.recipe");
  CHECK(single_document(run_binary(kBinary, {"skills", "search", "nothing-like-it"},
                                   skills.options()))["count"] == 0);
  const json usage =
      expect_error(run_binary(kBinary, {"skills", "search"}, skills.options()), "USAGE", 2);
  CHECK(usage["message"].get<std::string>().find("skills search <keyword>") != std::string::npos);
  CHECK(usage["example"] == "clawperator skills search settings");
}

TEST_CASE("skills validate --all reports every failing skill", "[cli][skills]") {
  TempSkills skills;
  fs::remove(skills.root() / "skills/a.recipe/SKILL.md");
  // Named with --registry this time, from another working directory.
  RunOptions elsewhere;
  elsewhere.working_directory = "/";
  elsewhere.unset_env = {"CLAWPERATOR_SKILLS_REGISTRY"};
  const json document = expect_error(
      run_binary(kBinary, {"skills", "validate", "--all", "--registry", skills.registry().string()},
                 elsewhere),
      "SKILL_VALIDATION_FAILED", 2);
  CHECK(document["details"]["registrySource"] == "flag");
  CHECK(document["message"] == "1 of 1 registered skills failed validation");
  CHECK(document["details"]["failures"][0]["skillId"] == "a.recipe");
  CHECK(document["details"]["registryPath"] == skills.registry().string());
}

TEST_CASE(
    "the shipped skills/ pass skills validate --all --dry-run and their scripts build "
    "valid payloads",
    "[cli][skills]") {
  RunOptions options;
  options.working_directory = CLAWPERATOR_SOURCE_DIR;
  options.unset_env = {"CLAWPERATOR_SKILLS_REGISTRY"};
  const RunResult result =
      run_binary(kBinary, {"skills", "validate", "--all", "--dry-run"}, options);
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["valid"] == true);
  CHECK(document["totalSkills"] == 2);
  CHECK(document["registrySource"] == "cwd");

  // Each script with CLAWPERATOR_BIN standing for clawperator ... --validate-only: what it
  // would send, checked without a device.
  const TemporaryDirectory bin("bin");
  const fs::path wrapper = bin.path() / "clawperator";
  write_file(wrapper, "#!/bin/sh\nexec '" + kBinary + "' \"$@\" --validate-only\n");
  fs::permissions(wrapper, fs::perms::owner_all);
  for (const auto& skill : document["validSkills"]) {
    const std::string script = skill["checks"]["scriptPaths"][0];
    CAPTURE(script);
    RunOptions run;
    run.extra_env["CLAWPERATOR_BIN"] = wrapper.string();
    run.extra_env["CLAWPERATOR_DEVICE_ID"] = "emulator-5554";
    run.extra_env["CLAWPERATOR_OPERATOR_PACKAGE"] = "com.clawperator.operator";
    run.unset_env = {"CLAWPERATOR_SKILLS_REGISTRY"};
    const RunResult ran = run_binary("/bin/sh", {script}, run);
    const json out = single_document(ran);
    CHECK(ran.exit_code == 0);
    CHECK(out["validated"] == true);
    CHECK(out["execution"]["timeoutMs"] == 30000);
  }
}

TEST_CASE("without --registry, the environment or ./skills, the installed registry is used",
          "[cli][skills]") {
  TempSkills home;  // its skills/ folder moved to where `skills install` puts it
  const fs::path installed = home.root() / ".clawperator" / "skills";
  fs::create_directories(installed);
  fs::rename(home.root() / "skills", installed / "skills");
  RunOptions options;
  options.extra_env["HOME"] = home.root().string();
  options.unset_env = {"CLAWPERATOR_SKILLS_REGISTRY"};
  options.working_directory = home.root().string();  // no ./skills here now
  const RunResult result = run_binary(kBinary, {"skills", "validate", "a.recipe"}, options);
  const json document = single_document(result);
  CHECK(result.exit_code == 0);
  CHECK(document["registrySource"] == "installed");
  CHECK(document["registryPath"] == (installed / "skills/skills-registry.json").string());

  // Named but absent: REGISTRY_READ_FAILED, exit 3, with the path it tried.
  options.extra_env["CLAWPERATOR_SKILLS_REGISTRY"] = (home.root() / "none.json").string();
  options.unset_env.clear();
  const json missing = expect_error(
      run_binary(kBinary, {"skills", "compile-artifact", "a.recipe", "--artifact", "open"},
                 options),
      "REGISTRY_READ_FAILED", 3);
  CHECK(missing["details"]["registryPath"] == (home.root() / "none.json").string());
  CHECK(missing["details"]["registrySource"] == "environment");
}

TEST_CASE("clawperator errors has every skill code with its exit code and disposition",
          "[cli][skills]") {
  struct Row {
    const char* code;
    int exit_code;
    const char* delivery;
    const char* retry;
  };
  for (const Row& row : {
           Row{"SKILL_NOT_FOUND", 2, "not_delivered", "safe"},
           Row{"ARTIFACT_NOT_FOUND", 2, "not_delivered", "safe"},
           Row{"COMPILE_VARS_REQUIRED", 2, "not_delivered", "safe"},
           Row{"COMPILE_VAR_MISSING", 2, "not_delivered", "safe"},
           Row{"COMPILE_VARS_PARSE_FAILED", 2, "not_delivered", "safe"},
           Row{"COMPILE_VALIDATION_FAILED", 2, "not_delivered", "safe"},
           Row{"REGISTRY_READ_FAILED", 3, "not_delivered", "safe"},
           Row{"SKILLS_SYNC_FAILED", 3, "not_delivered", "safe"},
           Row{"SKILLS_GIT_NOT_FOUND", 3, "not_delivered", "safe"},
           Row{"SKILL_SCRIPT_NOT_FOUND", 2, "not_delivered", "safe"},
           Row{"SKILL_EXECUTION_FAILED", 1, "delivered_verified", "unsafe"},
           Row{"SKILL_EXECUTION_TIMEOUT", 4, "delivered_unverified", "unsafe"},
           Row{"SKILL_OUTPUT_ASSERTION_FAILED", 1, "delivered_verified", "unsafe"},
           Row{"SKILL_ALREADY_EXISTS", 2, "not_delivered", "safe"},
           Row{"REGISTRY_ALREADY_EXISTS", 2, "not_delivered", "safe"},
           Row{"SKILL_ID_INVALID", 2, "not_delivered", "safe"},
           Row{"SKILLS_SCAFFOLD_FAILED", 3, "not_delivered", "safe"},
           Row{"SKILL_VALIDATION_FAILED", 2, "not_delivered", "safe"},
           Row{"SKILL_RESULT_PARSE_FAILED", 4, "delivered_unverified", "unsafe"},
       }) {
    CAPTURE(row.code);
    const RunResult result = run_binary(kBinary, {"errors", row.code});
    REQUIRE(result.exit_code == 0);
    const json entry = json::parse(result.out)["error"];
    CHECK(entry["family"] == "Skills");
    CHECK(entry["exitCode"] == row.exit_code);
    CHECK(entry["disposition"]["delivery"] == row.delivery);
    CHECK(entry["disposition"]["retry"] == row.retry);
  }
}
