// --report junit=FILE | tap=FILE through the real binary, the real adb and a virtual device, the
// files read back by readers nobody here wrote: Debian's python3-junitparser
// (tests/report/junit_summary.py) and Perl's TAP::Parser (tests/report/tap_summary.pl).
#include <regex>
#include <thread>

#include "farm_fixture.hpp"
#include "skills_repo.hpp"
#include "skip.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::Farm;
using clawperator::testing::kSnapshot;
using clawperator::testing::read_file;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::SkillsRepo;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kScripts = CLAWPERATOR_REPORT_SCRIPTS_DIR;

// The readers, and why a case that uses one skips when it is missing (SKIP_TEST returns from
// the case, so this is a macro).
const std::string kJunitReader = CLAWPERATOR_JUNIT_PYTHON;
const std::string kTapReader = CLAWPERATOR_TAP_PERL;
#define SKIP_WITHOUT(reader, package) \
  if ((reader).empty()) SKIP_TEST(std::string("no reader of the report: ") + (package))
#define SKIP_WITHOUT_JUNIT_READER() \
  SKIP_WITHOUT(kJunitReader, "python3-junitparser (scripts/install-deps.sh)")
#define SKIP_WITHOUT_TAP_READER() SKIP_WITHOUT(kTapReader, "Perl's TAP::Parser and JSON::PP")

// What `reader` running `script` found in the report `path`.
json read_report(const std::string& reader, const std::string& script, const fs::path& path) {
  const RunResult read = run_binary(reader, {kScripts + "/" + script, path.string()});
  INFO(read.err << "\n" << read_file(path.string()));
  REQUIRE(read.exit_code == 0);
  const json summary = json::parse(read.out, nullptr, false);
  REQUIRE(summary.is_object());
  return summary;
}

json junit_summary(const fs::path& path) {
  return read_report(kJunitReader, "junit_summary.py", path);
}

json tap_summary(const fs::path& path) {
  return read_report(kTapReader, "tap_summary.pl", path);
}

// The payload of an exec the cases send (farm.exec's shape, with a commandId of their own).
std::string write_payload(const fs::path& dir, const std::string& command_id, const json& actions) {
  const fs::path path = dir / (command_id + ".json");
  std::ofstream(path) << json{{"commandId", command_id}, {"taskId", "report-it"},
                              {"source", "integration"}, {"expectedFormat", "android-ui-automator"},
                              {"timeoutMs", 30000},      {"actions", actions}}
                             .dump();
  return path.string();
}

const json kSecondSnapshot = {{"id", "snap2"}, {"type", "snapshot"}};
// A click on text the default scenario's screen does not have: NODE_NOT_FOUND.
const json kMissingClick = {
    {"id", "tap"}, {"type", "click"}, {"params", {{"matcher", {{"textEquals", "No such text"}}}}}};

json properties_of(const json& suite) {
  json properties = json::object();
  for (const json& pair : suite["properties"]) properties[pair[0].get<std::string>()] = pair[1];
  return properties;
}

void check_time(const json& value) {
  REQUIRE(value.is_number());
  CHECK(value.get<double>() >= 0);
}

void check_timestamp(const json& suite) {
  CHECK(std::regex_match(suite["timestamp"].get<std::string>(),
                         std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)")));
}

}  // namespace

TEST_CASE("junit report: an exec that passes is a suite of passed steps",
          "[integration][report][may-skip]") {
  SKIP_WITHOUT_JUNIT_READER();
  Farm farm({"default"});
  const TemporaryDirectory dir{"report-pass"};
  const fs::path report = dir.path() / "report.xml";
  const RunResult result = farm.exec(json::array({kSnapshot, kSecondSnapshot}),
                                     {"--report", "junit=" + report.string()});
  const json document = single_document(result);
  REQUIRE(result.exit_code == 0);
  // Stdout is the usual document: nothing about the report when it was written.
  CHECK_FALSE(document.contains("report"));
  CHECK(result.err.empty());

  const json summary = junit_summary(report);
  CHECK(summary["root"] == "testsuites");
  CHECK(summary["tests"] == 2);
  REQUIRE(summary["suites"].size() == 1);
  const json& suite = summary["suites"][0];
  const std::string command_id = document["envelope"]["commandId"];
  CHECK(suite["name"] == command_id);
  CHECK(suite["tests"] == 2);
  CHECK(suite["failures"] == 0);
  CHECK(suite["errors"] == 0);
  CHECK(suite["skipped"] == 0);
  check_time(suite["time"]);
  check_timestamp(suite);
  CHECK(properties_of(suite) == json{{"command", "exec"},
                                     {"commandId", command_id},
                                     {"taskId", "it"},
                                     {"deviceId", farm.serials().front()},
                                     {"disposition.delivery", document["disposition"]["delivery"]},
                                     {"disposition.retry", document["disposition"]["retry"]},
                                     {"exitCode", "0"}});
  REQUIRE(suite["cases"].size() == 2);
  CHECK(suite["cases"][0]["name"] == "snap (snapshot)");
  CHECK(suite["cases"][1]["name"] == "snap2 (snapshot)");
  for (const json& test : suite["cases"]) {
    CHECK(test["classname"] == "clawperator.exec");
    CHECK(test["results"].empty());
    // The envelope has no time per step: only the suite has one.
    CHECK(test["time"].is_null());
  }
}

TEST_CASE("junit report: a click that fails at step 2 of 3, the third step skipped",
          "[integration][report][may-skip]") {
  SKIP_WITHOUT_JUNIT_READER();
  Farm farm({"default"});
  const TemporaryDirectory dir{"report-fail"};
  const fs::path report = dir.path() / "report.xml";
  const RunResult result = farm.exec(json::array({kSnapshot, kMissingClick, kSecondSnapshot}),
                                     {"--report", "junit=" + report.string()});
  const json document = single_document(result);
  REQUIRE(result.exit_code == 1);
  REQUIRE(document["code"] == "NODE_NOT_FOUND");
  const json& failed_step = document["envelope"]["stepResults"][1];

  const json summary = junit_summary(report);
  const json& suite = summary["suites"][0];
  CHECK(suite["tests"] == 3);
  CHECK(suite["failures"] == 1);
  CHECK(suite["errors"] == 0);
  CHECK(suite["skipped"] == 1);
  const json properties = properties_of(suite);
  CHECK(properties["code"] == "NODE_NOT_FOUND");
  CHECK(properties["exitCode"] == "1");
  CHECK(properties["disposition.delivery"] == document["disposition"]["delivery"]);
  CHECK(properties["disposition.retry"] == document["disposition"]["retry"]);
  const json& cases = suite["cases"];
  REQUIRE(cases.size() == 3);
  CHECK(cases[0]["name"] == "snap (snapshot)");
  CHECK(cases[0]["results"].empty());
  CHECK(cases[1]["name"] == "tap (click)");
  REQUIRE(cases[1]["results"].size() == 1);
  const json& failure = cases[1]["results"][0];
  CHECK(failure["kind"] == "failure");
  CHECK(failure["type"] == "NODE_NOT_FOUND");
  CHECK(failure["message"] == failed_step["data"]["message"]);
  CHECK(failure["text"].get<std::string>().find("\"error\":\"NODE_NOT_FOUND\"") !=
        std::string::npos);
  CHECK(cases[2]["name"] == "snap2 (snapshot)");
  REQUIRE(cases[2]["results"].size() == 1);
  CHECK(cases[2]["results"][0]["kind"] == "skipped");
  CHECK(cases[2]["results"][0]["message"] == "not run: step tap (click) failed before it");
}

TEST_CASE("junit report: a host error before any envelope is one case in error",
          "[integration][report][may-skip]") {
  SKIP_WITHOUT_JUNIT_READER();
  Farm farm({"default"});
  const TemporaryDirectory dir{"report-host"};
  const fs::path report = dir.path() / "report.xml";
  const std::string payload = write_payload(dir.path(), "host-error", json::array({kSnapshot}));
  const RunResult result = farm.clawperator(
      {"exec", payload, "--device", "nope", "--report", "junit=" + report.string()});
  const json document = expect_error(result, "DEVICE_NOT_FOUND", 3);

  const json summary = junit_summary(report);
  const json& suite = summary["suites"][0];
  CHECK(suite["name"] == "host-error");
  CHECK(suite["tests"] == 1);
  CHECK(suite["errors"] == 1);
  CHECK(suite["failures"] == 0);
  check_time(suite["time"]);
  CHECK(properties_of(suite) == json{{"command", "exec"},
                                     {"commandId", "host-error"},
                                     {"taskId", "report-it"},
                                     {"deviceId", "nope"},
                                     {"disposition.delivery", "not_delivered"},
                                     {"disposition.retry", "safe"},
                                     {"code", "DEVICE_NOT_FOUND"},
                                     {"exitCode", "3"}});
  REQUIRE(suite["cases"].size() == 1);
  const json& test = suite["cases"][0];
  CHECK(test["name"] == "host-error");
  // One case: it has the suite's time.
  CHECK(test["time"] == suite["time"]);
  REQUIRE(test["results"].size() == 1);
  CHECK(test["results"][0]["kind"] == "error");
  CHECK(test["results"][0]["type"] == "DEVICE_NOT_FOUND");
  CHECK(test["results"][0]["message"] == document["message"]);
}

TEST_CASE("junit report: skills run, a case per checkpoint, else one for the run",
          "[integration][report][skills][may-skip]") {
  SKIP_WITHOUT_JUNIT_READER();
  Farm farm({"default"});
  SkillsRepo repo;
  repo.add("com.test.checked",
           "echo 'looking for Wi-Fi'\n"
           "echo '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\",\"skillId\":"
           "\"com.test.checked\",\"status\":\"failed\",\"checkpoints\":["
           "{\"id\":\"opened\",\"status\":\"ok\"},"
           "{\"id\":\"found\",\"status\":\"failed\",\"note\":\"no row named Wi-Fi\"},"
           "{\"id\":\"toggled\",\"status\":\"skipped\",\"note\":\"nothing to toggle\"}]}'\n");
  repo.add("com.test.plain",
           "echo '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\",\"skillId\":"
           "\"com.test.plain\",\"status\":\"success\",\"checkpoints\":[]}'\n");
  repo.add("com.test.broken", "echo 'about to fail' >&2\nexit 3\n");
  const TemporaryDirectory dir{"report-skills"};
  const auto run = [&](const std::string& id, const fs::path& report) {
    return farm.clawperator({"skills", "--registry", repo.registry(), "run", id, "--report",
                             "junit=" + report.string()});
  };

  const fs::path checked_report = dir.path() / "checked.xml";
  const RunResult checked = run("com.test.checked", checked_report);
  const json checked_document = single_document(checked);
  REQUIRE(checked.exit_code == 0);
  const json checked_suite = junit_summary(checked_report)["suites"][0];
  CHECK(checked_suite["name"] == "com.test.checked");
  CHECK(checked_suite["tests"] == 3);
  CHECK(checked_suite["failures"] == 1);
  CHECK(checked_suite["skipped"] == 1);
  CHECK(checked_suite["systemOut"].get<std::string>().find("looking for Wi-Fi") !=
        std::string::npos);
  const json properties = properties_of(checked_suite);
  CHECK(properties["skillId"] == "com.test.checked");
  CHECK(properties["deviceId"] == farm.serials().front());
  CHECK(properties["skillResult.status"] == "failed");
  CHECK(properties["exitCode"] == "0");
  const json& cases = checked_suite["cases"];
  REQUIRE(cases.size() == 3);
  CHECK(cases[0]["name"] == "opened");
  CHECK(cases[0]["classname"] == "clawperator.skills.run");
  CHECK(cases[0]["results"].empty());
  CHECK(cases[1]["name"] == "found");
  CHECK(cases[1]["results"][0]["kind"] == "failure");
  CHECK(cases[1]["results"][0]["type"] == "failed");
  CHECK(cases[1]["results"][0]["message"] == "no row named Wi-Fi");
  CHECK(cases[2]["name"] == "toggled");
  CHECK(cases[2]["results"][0]["kind"] == "skipped");
  CHECK(cases[2]["results"][0]["message"] == "nothing to toggle");
  CHECK(checked_document["skillResult"]["checkpoints"].size() == 3);

  const fs::path plain_report = dir.path() / "plain.xml";
  REQUIRE(run("com.test.plain", plain_report).exit_code == 0);
  const json plain_suite = junit_summary(plain_report)["suites"][0];
  REQUIRE(plain_suite["cases"].size() == 1);
  CHECK(plain_suite["cases"][0]["name"] == "com.test.plain");
  CHECK(plain_suite["cases"][0]["results"].empty());
  check_time(plain_suite["cases"][0]["time"]);

  const fs::path broken_report = dir.path() / "broken.xml";
  const RunResult broken = run("com.test.broken", broken_report);
  REQUIRE(single_document(broken)["code"] == "SKILL_EXECUTION_FAILED");
  CHECK(broken.exit_code == 1);
  const json broken_suite = junit_summary(broken_report)["suites"][0];
  REQUIRE(broken_suite["cases"].size() == 1);
  const json& failure = broken_suite["cases"][0]["results"][0];
  CHECK(failure["kind"] == "failure");
  CHECK(failure["type"] == "SKILL_EXECUTION_FAILED");
  CHECK(failure["message"] == "Skill com.test.broken exited with code 3");
  CHECK(broken_suite["systemErr"] == "about to fail\n");
  CHECK(properties_of(broken_suite)["exitCode"] == "1");
}

TEST_CASE("junit report: runs appended into one valid document, replaced without --report-append",
          "[integration][report][may-skip]") {
  SKIP_WITHOUT_JUNIT_READER();
  Farm farm({"default"});
  const TemporaryDirectory dir{"report-append"};
  const fs::path report = dir.path() / "runs.xml";
  const std::vector<std::string> append = {"--report", "junit=" + report.string(),
                                           "--report-append"};
  REQUIRE(farm.exec(json::array({kSnapshot}), append).exit_code == 0);
  REQUIRE(farm.exec(json::array({kSnapshot, kMissingClick, kSecondSnapshot}), append).exit_code ==
          1);
  const json both = junit_summary(report);
  CHECK(both["root"] == "testsuites");
  REQUIRE(both["suites"].size() == 2);
  CHECK(both["tests"] == 4);
  CHECK(both["failures"] == 1);
  CHECK(both["skipped"] == 1);
  CHECK(both["suites"][0]["tests"] == 1);
  CHECK(both["suites"][1]["tests"] == 3);
  CHECK(both["suites"][0]["name"] != both["suites"][1]["name"]);

  // Runs that append at the same moment: every one lands (the lock of "<file>.lock").
  const std::string payload = write_payload(dir.path(), "busy", json::array({kSnapshot}));
  std::vector<std::thread> runs;
  std::vector<RunResult> results(6);
  for (RunResult& result : results) {
    runs.emplace_back([&] {
      result = farm.clawperator({"exec", payload, "--device", "nope", "--report",
                                 "junit=" + report.string(), "--report-append"});
    });
  }
  for (std::thread& run : runs) run.join();
  for (const RunResult& result : results) CHECK(result.exit_code == 3);
  const json all = junit_summary(report);
  CHECK(all["suites"].size() == 8);
  CHECK(all["errors"] == 6);

  // Without --report-append: the file holds this run only.
  REQUIRE(farm.exec(json::array({kSnapshot}), {"--report", "junit=" + report.string()}).exit_code ==
          0);
  CHECK(junit_summary(report)["suites"].size() == 1);
}

TEST_CASE("tap report: TAP 13 that TAP::Parser reads, appended runs numbered on",
          "[integration][report][may-skip]") {
  SKIP_WITHOUT_TAP_READER();
  Farm farm({"default"});
  const TemporaryDirectory dir{"report-tap"};
  const fs::path report = dir.path() / "runs.tap";
  const std::vector<std::string> flags = {"--report", "tap=" + report.string(), "--report-append"};
  REQUIRE(farm.exec(json::array({kSnapshot, kMissingClick, kSecondSnapshot}), flags).exit_code ==
          1);
  REQUIRE(farm.exec(json::array({kSnapshot}), flags).exit_code == 0);
  const json summary = tap_summary(report);
  INFO(summary.dump(2));
  CHECK(summary["version"] == 13);
  CHECK(summary["parseErrors"].empty());
  CHECK(summary["plan"] == "1..4");
  CHECK(summary["failed"] == 1);
  CHECK(summary["skipped"] == 1);
  const json& tests = summary["tests"];
  REQUIRE(tests.size() == 4);
  CHECK(tests[0]["ok"] == true);
  CHECK(tests[1]["ok"] == false);
  CHECK(tests[1]["description"] == "- tap (click)");
  CHECK(tests[2]["directive"] == "SKIP");
  CHECK(tests[2]["explanation"] == "not run: step tap (click) failed before it");
  CHECK(tests[3]["number"] == 4);
  CHECK(tests[3]["ok"] == true);
}

TEST_CASE("report refusals: a bad value, a command without a run, a file that cannot take it",
          "[integration][report]") {
  Farm farm({"default"});
  const TemporaryDirectory dir{"report-refused"};
  const std::string payload = write_payload(dir.path(), "refused", json::array({kSnapshot}));
  const auto exec = [&](const std::vector<std::string>& flags) {
    std::vector<std::string> argv = {"exec", payload, "--device", farm.serials().front()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return farm.clawperator(argv);
  };
  for (const std::vector<std::string>& flags : {std::vector<std::string>{"--report", "junit="},
                                                {"--report", "xml=r.xml"},
                                                {"--report", "junit"},
                                                {"--report", ""},
                                                {"--report-append"}}) {
    CAPTURE(flags);
    const json document = expect_error(exec(flags), "USAGE", 2);
    CHECK(document["details"]["flag"] == flags.front());
  }
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"devices"}, {"skills", "list"}, {"errors"}}) {
    CAPTURE(command);
    std::vector<std::string> argv = command;
    argv.insert(argv.end(), {"--report", "junit=" + (dir.path() / "r.xml").string()});
    const json document = expect_error(farm.clawperator(argv), "USAGE", 2);
    CHECK(document["details"]["flag"] == "--report");
  }

  const fs::path file = dir.path() / "file.txt";
  std::ofstream(file) << "mine\n";
  fs::create_symlink(file, dir.path() / "link.xml");
  fs::create_directory(dir.path() / "folder");
  struct Refusal {
    fs::path path;
    std::string reason;
  };
  for (const Refusal& refusal :
       {Refusal{dir.path() / "missing" / "r.xml",
                "its directory " + (dir.path() / "missing").string() +
                    " does not exist (No such file or directory)"},
        Refusal{file / "r.xml",
                "its directory " + file.string() + " is not a directory (Not a directory)"},
        Refusal{dir.path() / "link.xml",
                "it is a symbolic link: a report is never written through one"},
        Refusal{dir.path() / "folder", "it is a directory (Is a directory)"}}) {
    CAPTURE(refusal.path);
    const RunResult result = exec({"--report", "junit=" + refusal.path.string()});
    const json document = expect_error(result, "REPORT_WRITE_FAILED", 2);
    CHECK(document["details"]["phase"] == "usage");
    CHECK(document["details"]["flag"] == "--report");
    CHECK(document["details"]["format"] == "junit");
    CHECK(document["details"]["path"] == refusal.path.string());
    CHECK(document["details"]["reason"] == refusal.reason);
    CHECK(result.err.find("clawperator: REPORT_WRITE_FAILED: ") == 0);
  }
  CHECK(read_file(file.string()) == "mine\n");
  // Refused before the run: nothing reached the device.
  CHECK(farm.logged_events("exec.start").empty());
}

TEST_CASE("report refusal: a directory the user may not write in, before the run",
          "[integration][report]") {
  // 0755 and ours: the user `nobody` (as which root runs the binary here) may not write in it;
  // a user that is not root cannot either once it is 0555.
  const TemporaryDirectory dir{"report-readonly", 0755};
  RunOptions options;
  if (::geteuid() == 0) {
    options.drop_privileges = true;
  } else {
    REQUIRE(::chmod(dir.path().c_str(), 0555) == 0);
  }
  const RunResult result =
      run_binary(clawperator::testing::kBinary,
                 {"exec", "--dry-run", "--report", "junit=" + (dir.path() / "r.xml").string(),
                  "{\"commandId\":\"c\",\"taskId\":\"t\",\"source\":\"s\",\"expectedFormat\":"
                  "\"android-ui-automator\",\"timeoutMs\":5000,\"actions\":[{\"id\":\"s\","
                  "\"type\":\"snapshot\"}]}"},
                 options);
  const json document = expect_error(result, "REPORT_WRITE_FAILED", 2);
  CHECK(document["details"]["errno"] == EACCES);
  CHECK_FALSE(fs::exists(dir.path() / "r.xml"));
}

TEST_CASE("a report not written after the run: the run's outcome and exit code stand",
          "[integration][report][skills]") {
  Farm farm({"default"});
  SkillsRepo repo;
  const TemporaryDirectory dir{"report-after"};
  const fs::path report = dir.path() / "report.xml";
  // The script takes the report's place with a directory while it runs.
  repo.add("com.test.squatter", "mkdir '" + report.string() + "'\n");
  const RunResult squatted =
      farm.clawperator({"skills", "--registry", repo.registry(), "run", "com.test.squatter",
                        "--report", "junit=" + report.string()});
  const json document = single_document(squatted);
  CHECK(squatted.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["report"] == json{{"format", "junit"},
                                   {"path", report.string()},
                                   {"written", false},
                                   {"code", "REPORT_WRITE_FAILED"},
                                   {"reason", "it is a directory (Is a directory)"},
                                   {"errno", EISDIR}});
  CHECK(squatted.err.find("clawperator: warning: REPORT_WRITE_FAILED: the report was not "
                          "written to " +
                          report.string()) != std::string::npos);

  // Appending to a file that holds no report: the file is left alone, the exec's outcome stands.
  const fs::path notes = dir.path() / "notes.xml";
  std::ofstream(notes) << "<notes/>\n";
  const RunResult appended = farm.exec(json::array({kMissingClick}),
                                       {"--report", "junit=" + notes.string(), "--report-append"});
  const json failed = single_document(appended);
  CHECK(appended.exit_code == 1);
  CHECK(failed["code"] == "NODE_NOT_FOUND");
  CHECK(failed["report"]["written"] == false);
  CHECK(failed["report"]["code"] == "REPORT_WRITE_FAILED");
  CHECK(failed["report"]["reason"] ==
        "the file is not a JUnit report: its root is <notes>, not <testsuites>; it was left as it "
        "was");
  CHECK(read_file(notes.string()) == "<notes/>\n");
}

TEST_CASE("junit report of a dry run: every planned step is a skipped case",
          "[integration][report][may-skip]") {
  SKIP_WITHOUT_JUNIT_READER();
  const TemporaryDirectory dir{"report-dry"};
  const fs::path report = dir.path() / "dry.xml";
  const RunResult result = run_binary(clawperator::testing::kBinary,
                                      {"exec", "--dry-run", "--report", "junit=" + report.string(),
                                       json{{"commandId", "dry"},
                                            {"taskId", "t"},
                                            {"source", "s"},
                                            {"expectedFormat", "android-ui-automator"},
                                            {"timeoutMs", 5000},
                                            {"actions", json::array({kSnapshot, kMissingClick})}}
                                           .dump()});
  REQUIRE(result.exit_code == 0);
  const json suite = junit_summary(report)["suites"][0];
  CHECK(suite["name"] == "dry");
  CHECK(suite["skipped"] == 2);
  REQUIRE(suite["cases"].size() == 2);
  CHECK(suite["cases"][1]["name"] == "tap (click)");
  CHECK(suite["cases"][1]["results"][0]["message"] == "not run: --dry-run");
}
