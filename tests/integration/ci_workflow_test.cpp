// The CI recipe runs as written: the `ui` job of examples/ci/github-actions.yml, read by a YAML
// parser nobody here wrote (tests/ci/workflow_json.py), its `run:` steps executed in order by
// bash as a GitHub runner executes them (`bash --noprofile --norc -eo pipefail`, GITHUB_ENV,
// GITHUB_PATH, GITHUB_OUTPUT, `${{ }}` expressions and `if:` conditions), against the test SDK
// (tests/emulator_sdk/, in ANDROID_HOME as the runner image presets it), the real adb, a virtual
// emulator and a local Operator release. docs/ci.md, "How the recipe is tested".
//
// What the runner would do that a test may not, and what stands in for it:
// - `sudo` is a stub that records its command (and, for `tee`, what it was given) and changes
//   nothing: a test must not rewrite the host's udev rules.
// - The `uses:` actions are emulated: checkout copies examples/ci/project/ (the repository the
//   recipe lives in), download-artifact runs the clawperator job's packaging line as written
//   against this build (the job's build is CI's own, scripts/test.sh), upload-artifact copies
//   what it names, and the JUnit reporter's files are read by python3-junitparser. An action the
//   harness does not know fails the test, so the recipe cannot grow a step that runs nowhere.
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "clawperator/transport/sha256.hpp"
#include "emulator_process.hpp"
#include "farm_fixture.hpp"
#include "release_server.hpp"
#include "skip.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"
#include "vdevice/android/formats/virtual_apk.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using clawperator::testing::eventually;
using clawperator::testing::Farm;
using clawperator::testing::free_console_port;
using clawperator::testing::process_running_with;
using clawperator::testing::processes_with;
using clawperator::testing::read_file;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::TemporaryDirectory;
using clawperator::testing::write_file;
using nlohmann::json;

const std::string kWorkflowPython = CLAWPERATOR_WORKFLOW_PYTHON;
const std::string kJunitReader = CLAWPERATOR_JUNIT_PYTHON;
const std::string kSourceDir = CLAWPERATOR_SOURCE_DIR;

json parse_json(const std::string& text, const std::string& what) {
  const json parsed = json::parse(text, nullptr, false);
  INFO(what << ": " << text);
  REQUIRE_FALSE(parsed.is_discarded());
  return parsed;
}

json read_workflow() {
  const RunResult read = run_binary(
      kWorkflowPython,
      {kSourceDir + "/tests/ci/workflow_json.py", kSourceDir + "/examples/ci/github-actions.yml"});
  INFO(read.err);
  REQUIRE(read.exit_code == 0);
  return parse_json(read.out, "the workflow");
}

// What python3-junitparser finds in a JUnit file (tests/report/junit_summary.py).
json junit_summary(const fs::path& path) {
  const RunResult read =
      run_binary(kJunitReader, {kSourceDir + "/tests/report/junit_summary.py", path.string()});
  INFO(read.err << "\n" << read_file(path.string()));
  REQUIRE(read.exit_code == 0);
  return parse_json(read.out, "the JUnit summary");
}

std::string trim(std::string text) {
  const auto first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\n");
  return text.substr(first, last - first + 1);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!trim(line).empty()) lines.push_back(trim(line));
  }
  return lines;
}

// The `env:` of a workflow, a job or a step (none: empty). A reference into `holder`, so that a
// range-for over its items() does not outlive a temporary.
const json& env_block(const json& holder) {
  static const json none = json::object();
  const auto found = holder.find("env");
  return found == holder.end() ? none : *found;
}

// One run of the ui job on a runner of its own: a workspace, HOME, RUNNER_TEMP, a copy of the
// test SDK as ANDROID_HOME, a private adb server, the sudo stub, and what each step left.
class Runner {
 public:
  struct StepRecord {
    std::string name;
    std::string outcome;  // success, failure or skipped
    RunResult result;
  };

  Runner(const json& workflow, const std::string& metadata_url, const std::string& scenario)
      : workflow_(workflow), port_(free_console_port()) {
    for (const fs::path& dir : {workspace(), home(), temp(), stub_bin(), artifacts()}) {
      fs::create_directories(dir);
    }
    fs::copy(CLAWPERATOR_EMULATOR_SDK_DIR, sdk(), fs::copy_options::recursive);
    write_sudo_stub();
    // The runner image's environment: the SDK preinstalled and named by both variables, tools
    // in the usual places, clawperator nowhere until a step installs it.
    env_ = {{"HOME", home().string()},
            {"PATH", stub_bin().string() + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"
                                           ":/sbin:/bin"},
            {"LANG", "C.UTF-8"},
            {"CI", "true"},
            {"GITHUB_ACTIONS", "true"},
            {"GITHUB_JOB", "ui"},
            {"GITHUB_RUN_ID", "4242"},
            {"GITHUB_WORKSPACE", workspace().string()},
            {"RUNNER_OS", "Linux"},
            {"RUNNER_TEMP", temp().string()},
            {"ANDROID_HOME", sdk().string()},
            {"ANDROID_SDK_ROOT", sdk().string()},
            // This test's own: its adb server, the test SDK's emulator, the Operator's release.
            {"ANDROID_ADB_SERVER_PORT", std::to_string(farm_.adb_server_port())},
            {"CLAWPERATOR_VDEVICE", CLAWPERATOR_VDEVICE_BINARY},
            {"CLAWPERATOR_TEST_EMULATOR_PORT", std::to_string(port_)},
            {"CLAWPERATOR_TEST_EMULATOR_BOOT_DELAY_MS", "300"},
            {"CLAWPERATOR_TEST_EMULATOR_SCENARIO", scenario},
            {"CLAWPERATOR_OPERATOR_METADATA_URL", metadata_url}};
    for (const auto& [name, value] : env_block(workflow_).items()) {
      env_[name] = value.get<std::string>();
    }
  }
  // An emulator a failed step left up is ended, so the farm's leftover check is about us.
  ~Runner() {
    for (const pid_t pid : processes_with(console_needle())) ::kill(pid, SIGTERM);
    eventually([this] { return !process_running_with(console_needle()); }, 5s);
  }

  void run_job(const std::string& job_name) {
    const json& job = workflow_["jobs"][job_name];
    for (const auto& [name, value] : env_block(job).items()) {
      env_[name] = substitute(value.get<std::string>());
    }
    for (const json& step : job["steps"]) run_step(step);
  }

  fs::path workspace() const { return root_.path() / "workspace"; }
  fs::path home() const { return root_.path() / "home"; }
  fs::path temp() const { return root_.path() / "runner-temp"; }
  fs::path sdk() const { return root_.path() / "sdk"; }
  fs::path artifacts() const { return root_.path() / "artifacts"; }
  fs::path sudo_log() const { return root_.path() / "sudo.log"; }
  std::string serial() const { return "emulator-" + std::to_string(port_); }
  std::string console_needle() const { return "--console-port " + std::to_string(port_); }
  bool job_failed() const { return failed_; }
  const std::vector<StepRecord>& steps() const { return steps_; }
  std::string outcome(const std::string& name) const {
    for (const StepRecord& step : steps_) {
      if (step.name == name) return step.outcome;
    }
    FAIL("no step named " << name);
    return "";
  }
  const std::map<std::string, std::string>& outputs(const std::string& id) { return outputs_[id]; }
  const std::vector<fs::path>& junit_reports() const { return junit_reports_; }
  Farm& farm() { return farm_; }

 private:
  fs::path stub_bin() const { return root_.path() / "stub-bin"; }

  // sudo as a record: one line per call; `tee FILE` keeps its input as sudo-tee/<FILE's name>
  // and passes it on, as tee does.
  void write_sudo_stub() const {
    const fs::path kept = root_.path() / "sudo-tee";
    fs::create_directories(kept);
    const fs::path stub = stub_bin() / "sudo";
    write_file(stub,
               "#!/bin/sh\n"
               "printf '%s\\n' \"$*\" >> '" +
                   sudo_log().string() +
                   "'\n"
                   "if [ \"$1\" = tee ]; then\n"
                   "  for last; do :; done\n"
                   "  tee '" +
                   kept.string() +
                   "'/\"$(basename \"$last\")\"\n"
                   "fi\n");
    fs::permissions(stub, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  }

  // A `${{ }}` reference: the contexts the recipe may use, and nothing else.
  std::string resolve(const std::string& reference) const {
    static const std::regex env_ref(R"(env\.([A-Za-z_][A-Za-z0-9_]*))");
    static const std::regex output_ref(R"(steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+))");
    std::smatch match;
    if (std::regex_match(reference, match, env_ref)) {
      const auto found = env_.find(match[1]);
      return found == env_.end() ? "" : found->second;
    }
    if (std::regex_match(reference, match, output_ref)) {
      const auto step = outputs_.find(match[1]);
      if (step == outputs_.end()) return "";
      const auto value = step->second.find(match[2]);
      return value == step->second.end() ? "" : value->second;
    }
    if (reference == "runner.temp") return temp().string();
    if (reference == "runner.os") return "Linux";
    if (reference == "github.workspace") return workspace().string();
    FAIL("the harness does not know the expression " << reference);
    return "";
  }

  std::string substitute(const std::string& text) const {
    static const std::regex expression(R"(\$\{\{\s*([^}]*?)\s*\}\})");
    std::string out;
    std::sregex_iterator it(text.begin(), text.end(), expression);
    std::size_t last = 0;
    for (; it != std::sregex_iterator(); ++it) {
      out += text.substr(last, static_cast<std::size_t>(it->position()) - last);
      out += resolve((*it)[1]);
      last = static_cast<std::size_t>(it->position() + it->length());
    }
    return out + text.substr(last);
  }

  // An `if:`: terms joined by &&, each a status function or a comparison with a quoted
  // literal; without a status function GitHub adds success().
  bool condition_holds(const json& step) const {
    if (!step.contains("if")) return !failed_;
    std::string condition = step["if"].get<std::string>();
    static const std::regex wrapped(R"(^\s*\$\{\{\s*(.*?)\s*\}\}\s*$)");
    std::smatch match;
    if (std::regex_match(condition, match, wrapped)) condition = match[1];
    REQUIRE(condition.find("||") == std::string::npos);
    bool status_named = false;
    bool holds = true;
    static const std::regex comparison(R"(^(\S+)\s*(==|!=)\s*'([^']*)'$)");
    std::size_t start = 0;
    while (start <= condition.size()) {
      const std::size_t end = std::min(condition.find("&&", start), condition.size());
      const std::string term = trim(condition.substr(start, end - start));
      start = end + 2;
      if (term == "always()") {
        status_named = true;
      } else if (term == "success()") {
        status_named = true;
        holds = holds && !failed_;
      } else if (term == "failure()") {
        status_named = true;
        holds = holds && failed_;
      } else if (std::regex_match(term, match, comparison)) {
        const bool equal = resolve(match[1]) == match[3].str();
        holds = holds && (match[2] == "==" ? equal : !equal);
      } else {
        FAIL("the harness does not know the condition " << term);
      }
    }
    return status_named ? holds : holds && !failed_;
  }

  void run_step(const json& step) {
    const std::string name = step.value("name", step.value("uses", step.value("id", "")));
    if (!condition_holds(step)) {
      steps_.push_back({name, "skipped", {}});
      return;
    }
    std::map<std::string, std::string> env = env_;
    for (const auto& [key, value] : env_block(step).items()) {
      env[key] = substitute(value.get<std::string>());
    }
    StepRecord record{name, "success", {}};
    if (step.contains("run")) {
      record.result = run_shell(substitute(step["run"].get<std::string>()), env, step);
    } else {
      record.result = emulate_action(step);
    }
    if (record.result.exit_code != 0) {
      record.outcome = "failure";
      failed_ = true;
    }
    steps_.push_back(std::move(record));
  }

  RunResult run_shell(const std::string& script, std::map<std::string, std::string> env,
                      const json& step) {
    const std::string index = std::to_string(steps_.size());
    const fs::path script_file = temp() / ("step-" + index + ".sh");
    const fs::path env_file = temp() / ("env-" + index);
    const fs::path path_file = temp() / ("path-" + index);
    const fs::path output_file = temp() / ("output-" + index);
    write_file(script_file, script);
    for (const fs::path& file : {env_file, path_file, output_file}) write_file(file, "");
    env["GITHUB_ENV"] = env_file.string();
    env["GITHUB_PATH"] = path_file.string();
    env["GITHUB_OUTPUT"] = output_file.string();
    // The runner's shell for `run:` on Linux, in a clean environment.
    std::vector<std::string> args = {"-i"};
    for (const auto& [key, value] : env) args.push_back(key + "=" + value);
    for (const char* word :
         {"timeout", "--kill-after=5", "600", "bash", "--noprofile", "--norc", "-eo", "pipefail"}) {
      args.emplace_back(word);
    }
    args.push_back(script_file.string());
    RunOptions options;
    options.working_directory = workspace().string();
    RunResult result = run_binary("/usr/bin/env", args, options);
    UNSCOPED_INFO("step " << step.value("name", index) << " exited " << result.exit_code
                          << "\nstdout: " << result.out << "\nstderr: " << result.err);
    read_github_files(env_file, path_file, output_file, step.value("id", ""));
    return result;
  }

  // What the step wrote for the steps after it: NAME=VALUE or NAME<<DELIMITER lines.
  static std::map<std::string, std::string> read_assignments(const fs::path& file) {
    std::map<std::string, std::string> values;
    std::istringstream in(read_file(file.string()));
    for (std::string line; std::getline(in, line);) {
      const auto heredoc = line.find("<<");
      const auto equals = line.find('=');
      if (heredoc != std::string::npos && (equals == std::string::npos || heredoc < equals)) {
        const std::string delimiter = line.substr(heredoc + 2);
        std::string value;
        for (std::string body; std::getline(in, body) && body != delimiter;) {
          value += value.empty() ? body : "\n" + body;
        }
        values[line.substr(0, heredoc)] = value;
      } else if (equals != std::string::npos) {
        values[line.substr(0, equals)] = line.substr(equals + 1);
      }
    }
    return values;
  }

  void read_github_files(const fs::path& env_file, const fs::path& path_file,
                         const fs::path& output_file, const std::string& id) {
    for (const auto& [name, value] : read_assignments(env_file)) env_[name] = value;
    for (const std::string& dir : lines_of(read_file(path_file.string()))) {
      env_["PATH"] = dir + ":" + env_["PATH"];
    }
    if (!id.empty()) {
      for (const auto& [name, value] : read_assignments(output_file)) outputs_[id][name] = value;
    }
  }

  // The actions the recipe uses, done as they would be done here.
  RunResult emulate_action(const json& step) {
    const std::string uses = step["uses"].get<std::string>();
    const json with = step.value("with", json::object());
    RunResult done{0, 0, "", ""};
    if (uses == "actions/checkout@v4") {
      REQUIRE_FALSE(with.contains("repository"));
      fs::copy(kSourceDir + "/examples/ci/project", workspace(),
               fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    } else if (uses == "actions/download-artifact@v4") {
      REQUIRE(with["name"] == "clawperator");
      const fs::path destination = substitute(with["path"].get<std::string>());
      fs::create_directories(destination);
      fs::copy_file(package_clawperator(), destination / "clawperator.tar.gz",
                    fs::copy_options::overwrite_existing);
    } else if (uses == "actions/upload-artifact@v4") {
      const fs::path into = artifacts() / with["name"].get<std::string>();
      fs::create_directories(into);
      for (const std::string& entry : lines_of(with["path"].get<std::string>())) {
        const fs::path from = workspace() / entry;
        if (!fs::exists(from)) continue;  // GitHub warns and uploads the rest
        fs::create_directories((into / entry).parent_path());
        fs::copy(from, into / entry, fs::copy_options::recursive);
      }
    } else if (uses == "mikepenz/action-junit-report@v5") {
      // The reporter globs report_paths and reads each file: here the one JUnit reader.
      const std::string pattern = with["report_paths"].get<std::string>();
      const fs::path dir = workspace() / fs::path(pattern).parent_path();
      const std::string extension = fs::path(pattern).extension().string();
      REQUIRE(fs::path(pattern).stem() == "*");
      if (fs::is_directory(dir)) {
        for (const auto& entry : fs::directory_iterator(dir)) {
          if (entry.path().extension() == extension) junit_reports_.push_back(entry.path());
        }
      }
      if (junit_reports_.empty()) done.exit_code = 1;  // the reporter fails on no report
    } else {
      FAIL("the harness does not know the action " << uses);
    }
    return done;
  }

  // The clawperator job's artifact: its packaging line, as written, run where `build` is this
  // test's build tree.
  fs::path package_clawperator() {
    std::string packaging;
    for (const json& step : workflow_["jobs"]["clawperator"]["steps"]) {
      if (!step.contains("run")) continue;
      for (const std::string& line : lines_of(step["run"].get<std::string>())) {
        if (line.rfind("cpack ", 0) == 0) packaging = line;
      }
    }
    REQUIRE_FALSE(packaging.empty());
    const fs::path dir = root_.path() / "clawperator-job";
    fs::create_directories(dir);
    fs::create_directory_symlink(CLAWPERATOR_BUILD_DIR, dir / "build");
    RunOptions options;
    options.working_directory = dir.string();
    // cpack says nothing while it compresses the tree: more than 30 s for the sanitizer build's
    // binaries on a loaded runner.
    options.silence_limit_ms = 300000;
    const RunResult packed = run_binary(
        "/bin/bash", {"--noprofile", "--norc", "-eo", "pipefail", "-c", packaging}, options);
    INFO(packaging << "\n" << packed.out << packed.err);
    REQUIRE(packed.exit_code == 0);
    return dir / "dist" / "clawperator.tar.gz";
  }

  TemporaryDirectory root_{"ci-workflow"};
  const json& workflow_;
  Farm farm_{Farm::Built{}};
  std::uint16_t port_;
  std::map<std::string, std::string> env_;
  std::map<std::string, std::map<std::string, std::string>> outputs_;
  std::vector<StepRecord> steps_;
  std::vector<fs::path> junit_reports_;
  bool failed_ = false;
};

// The Operator's release on a local server, as operator install reads it (docs/operator.md).
struct OperatorRelease {
  OperatorRelease() {
    const std::string apk = clawperator::vdevice::android::make_virtual_apk(
        {"com.clawperator.operator", "0.5.4", 504}, 16 * 1024);
    server.route(kApkPath, {200, apk, std::nullopt});
    server.route("/operator/latest.json", {200,
                                           json{{"version", "0.5.4"},
                                                {"apk_url", server.url(kApkPath)},
                                                {"sha256", clawperator::transport::sha256_hex(apk)}}
                                               .dump(),
                                           std::nullopt});
  }
  std::string metadata_url() const { return server.url("/operator/latest.json"); }
  static constexpr const char* kApkPath = "/operator/v0.5.4/operator-v0.5.4.apk";
  clawperator::testing::ReleaseServer server;
};

void require_readers() {
  if (kWorkflowPython.empty()) SKIP_TEST("no YAML parser: python3-yaml (scripts/install-deps.sh)");
  if (kJunitReader.empty()) SKIP_TEST("no JUnit reader: python3-junitparser");
}

}  // namespace

TEST_CASE("CI recipe: the ui job of examples/ci/github-actions.yml runs green as written",
          "[integration][emulator][ci]") {
  require_readers();
  const json workflow = read_workflow();
  OperatorRelease release;
  Runner runner(workflow, release.metadata_url(),
                clawperator::testing::kScenarios + "/fresh-phone.json");
  runner.run_job("ui");

  for (const Runner::StepRecord& step : runner.steps()) {
    INFO(step.name << ": " << step.outcome << "\n" << step.result.out << step.result.err);
    CHECK(step.outcome == "success");
  }
  CHECK_FALSE(runner.job_failed());

  // KVM: the rule written where udev reads it, then reloaded and applied.
  CHECK(read_file(runner.sudo_log().string()) ==
        "tee /etc/udev/rules.d/99-kvm4all.rules\n"
        "udevadm control --reload-rules\n"
        "udevadm trigger --name-match=kvm\n");
  CHECK(read_file((runner.sudo_log().parent_path() / "sudo-tee/99-kvm4all.rules").string()) ==
        "KERNEL==\"kvm\", GROUP=\"kvm\", MODE=\"0666\", OPTIONS+=\"static_node=kvm\"\n");

  // The SDK packages, through the SDK's own sdkmanager (not on PATH).
  CHECK(read_file((runner.sdk() / ".installed").string()) ==
        "platform-tools\nemulator\nsystem-images;android-35;google_apis;x86_64\n");

  // The emulator and the Operator: the serial read from provision's output, not assumed.
  const json provision =
      parse_json(read_file((runner.workspace() / "provision.json").string()), "provision");
  CHECK(provision["serial"] == runner.serial());
  CHECK(provision["action"] == "created");
  CHECK(provision["operator"]["installed"] == true);
  CHECK(provision["operator"]["operatorVersion"] == "0.5.4");
  CHECK(provision["ready"] == true);
  CHECK(runner.outputs("device").at("serial") == runner.serial());
  CHECK(runner.outputs("device").at("avd") == "clawperator-pixel");
  CHECK(release.server.count(OperatorRelease::kApkPath) == 1);

  // One JUnit file, read by the reporter: the payload's steps and the skill's checkpoints.
  REQUIRE(runner.junit_reports() ==
          std::vector<fs::path>{runner.workspace() / "reports" / "ui.xml"});
  const json junit = junit_summary(runner.junit_reports().front());
  REQUIRE(junit["suites"].size() == 2);
  CHECK(junit["suites"][0]["name"] == "ui-smoke");
  CHECK(junit["suites"][0]["tests"] == 4);
  CHECK(junit["suites"][0]["failures"] == 0);
  CHECK(junit["suites"][1]["name"] == "com.example.settings.about-phone");
  CHECK(junit["suites"][1]["tests"] == 2);
  CHECK(junit["suites"][1]["cases"][1]["name"] == "about_phone_shown");
  CHECK(junit["suites"][1]["failures"] == 0);

  // Uploaded: what the job produced, and no evidence (nothing failed).
  const fs::path uploaded = runner.artifacts() / "android-ui-results";
  CHECK(fs::is_regular_file(uploaded / "provision.json"));
  CHECK(fs::is_regular_file(uploaded / "reports" / "ui.xml"));
  CHECK(fs::is_regular_file(uploaded / "reports" / "smoke.json"));
  CHECK(fs::is_regular_file(uploaded / "reports" / "about-phone.json"));
  CHECK_FALSE(fs::exists(uploaded / "evidence"));

  // The last step stopped the emulator.
  CHECK(runner.farm().adb({"devices"}).out.find(runner.serial()) == std::string::npos);
  CHECK_FALSE(process_running_with(runner.console_needle()));
}

TEST_CASE("CI recipe: a failing UI test fails the job, with its JUnit failure and evidence",
          "[integration][emulator][ci]") {
  require_readers();
  const json workflow = read_workflow();
  OperatorRelease release;
  // An app update renamed "Airplane mode": the smoke payload's last wait fails, the skill passes.
  TemporaryDirectory scenarios("ci-scenario");
  const fs::path scenario = scenarios.path() / "renamed-airplane-mode.json";
  json renamed =
      parse_json(read_file(clawperator::testing::kScenarios + "/fresh-phone.json"), "fresh-phone");
  renamed["name"] = "renamed-airplane-mode";
  renamed["screens"] = json::array(
      {{{"id", "settings.network"},
        {"package", "com.android.settings"},
        {"root",
         {{"class", "android.widget.FrameLayout"},
          {"children",
           json::array({{{"class", "android.widget.TextView"}, {"text", "Network & internet"}},
                        {{"class", "android.widget.TextView"}, {"text", "Flight mode"}}})}}}}});
  write_file(scenario, renamed.dump());
  Runner runner(workflow, release.metadata_url(), scenario.string());
  runner.run_job("ui");

  CHECK(runner.job_failed());
  CHECK(runner.outcome("Emulator with the Operator") == "success");
  CHECK(runner.outcome("UI tests") == "failure");
  CHECK(runner.outcome("Test report") == "success");
  CHECK(runner.outcome("actions/upload-artifact@v4") == "success");
  CHECK(runner.outcome("Stop the emulator") == "success");

  // Both tests ran: the failure is the payload's, named with its code.
  REQUIRE(runner.junit_reports().size() == 1);
  const json junit = junit_summary(runner.junit_reports().front());
  REQUIRE(junit["suites"].size() == 2);
  CHECK(junit["suites"][0]["failures"] == 1);
  const json failed_case = junit["suites"][0]["cases"][3];
  CHECK(failed_case["name"] == "airplane-mode (wait_for_node)");
  REQUIRE(failed_case["results"].size() == 1);
  CHECK(failed_case["results"][0]["kind"] == "failure");
  CHECK_FALSE(failed_case["results"][0]["type"].get<std::string>().empty());
  CHECK(junit["suites"][1]["failures"] == 0);

  // The evidence: a bundle of the screen the failing test left (before the skill moved on),
  // uploaded, that verifies; none for the test that passed.
  const fs::path uploaded = runner.artifacts() / "android-ui-results";
  const fs::path evidence = uploaded / "evidence" / "smoke";
  REQUIRE(fs::is_regular_file(evidence / "manifest.json"));
  CHECK(fs::is_regular_file(evidence / "screenshot.png"));
  const std::string hierarchy = read_file((evidence / "hierarchy.xml").string());
  CHECK(hierarchy.find("Flight mode") != std::string::npos);
  const json captured = parse_json(
      read_file((uploaded / "reports" / "smoke.evidence.json").string()), "evidence capture");
  CHECK(captured["status"] == "complete");
  CHECK(captured["manifest"]["label"] == "smoke failed in run 4242");
  CHECK_FALSE(fs::exists(uploaded / "evidence" / "about-phone"));
  const RunResult verified =
      run_binary(CLAWPERATOR_BINARY, {"evidence", "verify", evidence.string()});
  INFO(verified.out << verified.err);
  CHECK(verified.exit_code == 0);
  CHECK_FALSE(process_running_with(runner.console_needle()));
}
