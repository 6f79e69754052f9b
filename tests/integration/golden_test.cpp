// The golden test of issue 14's redesign: for the examples, the invalid examples, every action
// command's builder and the virtual device's fault scenarios, the payload that reaches the
// device (`--validate-only` prints exactly the compact JSON the broadcast carries) and the JSON
// printed stay what they were before the redesign. tests/golden/outputs.json was recorded with
// the previous main's binary, by running this test with CLAWPERATOR_GOLDEN_RECORD set to the
// file to write and CLAWPERATOR_GOLDEN_BINARY to the old clawperator.
// Values that change from run to run (times, ports, generated ids) are masked, and the parts of
// paths that do (the temporary folders a run makes) become placeholders, before comparing;
// everything else must be equal, key order included: hints and paths too. An intended change
// of the output is recorded again, in the same commit, with the differences in its message.
#include <cctype>
#include <cstdlib>
#include <functional>
#include <regex>
#include <string>
#include <string_view>

#include "farm_fixture.hpp"
#include "test_locations.hpp"

namespace clawperator::testing {
namespace {

const std::string kGoldenFile = CLAWPERATOR_GOLDEN_FILE;
const std::string kExamples = CLAWPERATOR_EXAMPLES_DIR;

std::string binary() {
  const char* other = std::getenv("CLAWPERATOR_GOLDEN_BINARY");
  return other != nullptr && *other != '\0' ? std::string(other) : kBinary;
}

bool is_volatile_key(const std::string& key) {
  static const std::vector<std::string> kKeys = {
      "totalMs", "dispatchMs", "resultMs", "elapsedMs", "startedAt", "completedAt", "reader",
      "dispatchStartedAt", "probeCommandId", "elapsed_ms", "stderr", "ts",
      // What the command's budget left of the result wait: the budget less preflight's time.
      "budgetWaitMs"};
  return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
}

// Whether `text` holds a run of at least `length` lowercase hex digits (decimal digits are
// some): what a generated id needs.
bool has_hex_run(const std::string& text, std::size_t length) {
  std::size_t run = 0;
  for (const char c : text) {
    run =
        (std::isdigit(static_cast<unsigned char>(c)) != 0 || (c >= 'a' && c <= 'f')) ? run + 1 : 0;
    if (run >= length) return true;
  }
  return false;
}

// Whether `text` holds "d:dd:" somewhere, what a logcat time needs.
bool has_clock(const std::string& text) {
  for (std::size_t at = text.find(':'); at != std::string::npos; at = text.find(':', at + 1)) {
    if (at + 3 < text.size() && text[at + 3] == ':') return true;
  }
  return false;
}

std::string mask_text(std::string text) {
  // Each pattern runs only where its necessary text is present: std::regex scans a 5 MB
  // snapshot for minutes under the sanitizers, and finds nothing the check would not have
  // found (docs/performance.md, "CI time").
  auto replace = [&text](bool possible, const std::regex& pattern, const char* replacement) {
    if (possible) text = std::regex_replace(text, pattern, replacement);
  };
  auto holds = [&text](const char* needle) { return text.find(needle) != std::string::npos; };
  static const std::regex kPort(R"(127\.0\.0\.1:[0-9]+)");
  // Generated command ids: before issue 33 the time and 7 base-36 digits, now 128 random bits.
  static const std::regex kStamp(R"(\b([a-z_]+)[-_](1[0-9]{12}(-[0-9a-z]{7})?|[0-9a-f]{32})\b)");
  static const std::regex kProbe(R"(doctor-handshake-([0-9]+-[0-9]+|[0-9a-f]{32})(-[0-9]+)?)");
  static const std::regex kTemp(R"(/tmp/clawperator-it-[A-Za-z0-9]+)");
  static const std::regex kGoldenTemp(R"(/tmp/clawperator-golden-[A-Za-z0-9]+)");
  // The day's log file and a screenshot's default name (its command id and the time).
  static const std::regex kLogFile(R"(clawperator-[0-9]{4}-[0-9]{2}-[0-9]{2}\.log)");
  static const std::regex kScreenshot(
      R"((clawperator-screenshot-[A-Za-z0-9._-]+)-1[0-9]{12}\.png)");
  static const std::regex kLogcatTime(
      R"(\b[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\b)");
  replace(holds("127.0.0.1:"), kPort, "127.0.0.1:PORT");
  replace(holds("doctor-handshake-"), kProbe, "doctor-handshake-ID");
  replace(has_hex_run(text, 13), kStamp, "$1-STAMP");
  // The tests' temporary directories are under $TMPDIR when it is set: spelt /tmp here.
  for (const char* tag : {"clawperator-it-", "clawperator-golden-"}) {
    const std::string under_tmp = "/tmp/" + std::string(tag);
    const std::string actual = (std::filesystem::temp_directory_path() / tag).string();
    if (actual == under_tmp) continue;
    for (auto at = text.find(actual); at != std::string::npos; at = text.find(actual, at)) {
      text.replace(at, actual.size(), under_tmp);
      at += under_tmp.size();
    }
  }
  replace(holds("/tmp/clawperator-it-"), kTemp, "/tmp/clawperator-it-DIR");
  replace(holds("/tmp/clawperator-golden-"), kGoldenTemp, "/tmp/clawperator-golden-DIR");
  replace(holds("clawperator-"), kLogFile, "clawperator-DATE.log");
  replace(holds("clawperator-screenshot-"), kScreenshot, "$1-STAMP.png");
  replace(has_clock(text), kLogcatTime, "MM-DD hh:mm:ss.mmm");
  // The virtual Operator's log line for a received payload gained its digest (issue 20): a
  // device-side line, not host output.
  static const std::regex kReceived(R"(\(([0-9]+) bytes, sha256 [0-9a-f]{64}\))");
  replace(holds(" bytes, sha256 "), kReceived, "($1 bytes)");
  return text;
}

// Multi-megabyte snapshots are compared by a fingerprint, to keep the golden file small.
std::string fingerprint(std::string text) {
  constexpr std::size_t kLong = 4096;
  if (text.size() <= kLong) return text;
  std::uint64_t hash = 1469598103934665603ULL;  // FNV-1a: stable across runs and machines
  for (const char c : text) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  }
  return text.substr(0, 256) + "…<" + std::to_string(text.size()) + " bytes, fnv1a " +
         std::to_string(hash) + ">";
}

// nlohmann::json sorts keys; the comparison must see the order as printed, so outputs are
// kept as their masked text.
std::string masked_output(const std::string& stdout_text) {
  const nlohmann::ordered_json document =
      nlohmann::ordered_json::parse(stdout_text, nullptr, false);
  if (document.is_discarded()) return "<not JSON> " + mask_text(stdout_text);
  std::function<nlohmann::ordered_json(const nlohmann::ordered_json&)> walk =
      [&](const nlohmann::ordered_json& value) -> nlohmann::ordered_json {
    if (value.is_object()) {
      nlohmann::ordered_json out = nlohmann::ordered_json::object();
      for (const auto& [key, item] : value.items()) {
        out[key] = is_volatile_key(key) ? nlohmann::ordered_json("<masked>") : walk(item);
      }
      return out;
    }
    if (value.is_array()) {
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      for (const auto& item : value) out.push_back(walk(item));
      return out;
    }
    if (value.is_string()) return fingerprint(mask_text(value.get<std::string>()));
    return value;
  };
  return walk(document).dump();
}

struct Case {
  std::string name;
  std::vector<std::string> args;
  std::string scenario;  // "": no device needed
};

// Faults whose timing decides which chunk record the reader sees first (a record logged before
// the reader attached is missed): their outcome is compared, not every diagnostic.
bool timing_dependent(const std::string& scenario) {
  return scenario == "reorder-chunks" || scenario == "duplicate-chunk" || scenario == "drop-chunk";
}

std::string outcome_only(const std::string& masked) {
  const nlohmann::ordered_json document = nlohmann::ordered_json::parse(masked, nullptr, false);
  if (!document.is_object()) return masked;
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const char* key : {"ok", "code", "disposition"}) {
    if (document.contains(key)) out[key] = document[key];
  }
  if (document.contains("details")) {
    for (const char* key : {"phase", "dispatchState", "commandId", "taskId"}) {
      if (document["details"].contains(key)) out["details"][key] = document["details"][key];
    }
  }
  return out.dump();
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* example : {"snapshot", "login", "scroll", "demo-snapshot-click"}) {
    out.push_back({std::string("validate/") + example,
                   {"exec", kExamples + "/" + example + ".json", "--validate-only"},
                   ""});
    out.push_back({std::string("dry-run/") + example,
                   {"exec", kExamples + "/" + example + ".json", "--dry-run"},
                   ""});
  }
  for (const char* invalid :
       {"malformed", "missing-uri", "out-of-range", "unknown-action", "unknown-key"}) {
    out.push_back({std::string("invalid/") + invalid,
                   {"exec", kExamples + "/invalid/" + invalid + ".json", "--validate-only"},
                   ""});
  }
  const std::vector<std::pair<std::string, std::vector<std::string>>> builders = {
      {"snapshot", {"snapshot"}},
      {"screenshot", {"screenshot", "--path", "/tmp/golden.png"}},
      {"click-text", {"click", "--text", "OK"}},
      {"click-long", {"click", "--id", "android:id/title", "--long"}},
      {"click-coordinate", {"click", "--coordinate", "10", "20"}},
      {"type", {"type", "--id", "android:id/edit", "hello 'x' $y", "--submit", "--clear"}},
      {"read", {"read", "--text-contains", "Wi", "--container-id", "android:id/list"}},
      {"wait", {"wait", "--desc", "Loading", "--timeout", "4000"}},
      {"wait-for-nav", {"wait-for-nav", "--app", "com.android.settings", "--timeout", "3000"}},
      {"read-value", {"read-value", "--label", "Android version"}},
      {"open-app", {"open", "com.android.settings"}},
      {"open-uri", {"open", "https://example.com/a?b=c"}},
      {"press", {"press", "home"}},
      {"back", {"back"}},
      {"close", {"close", "com.android.chrome"}},
      {"sleep", {"sleep", "250"}},
      {"scroll", {"scroll", "down", "--container-id", "android:id/list"}},
      {"scroll-until", {"scroll-until", "--text", "About phone", "--direction", "down"}},
      {"scroll-and-click", {"scroll-and-click", "--text", "About phone"}},
      {"click-missing", {"click"}},
      {"scroll-sideways", {"scroll", "sideways"}},
  };
  for (const auto& [name, args] : builders) {
    std::vector<std::string> argv = args;
    argv.push_back("--validate-only");
    out.push_back({"builder/" + name, argv, ""});
  }
  for (const char* example : {"snapshot", "login", "scroll", "demo-snapshot-click"}) {
    out.push_back({std::string("device/default/") + example,
                   {"exec", kExamples + "/" + example + ".json"},
                   "default"});
  }
  for (const char* scenario : {"accessibility-off",
                               "answer-late",
                               "bad-checksum",
                               "broadcast-refused",
                               "close-stream-mid-envelope",
                               "drop-chunk",
                               "duplicate-chunk",
                               "large-snapshot",
                               "legacy-snapshot",
                               "locked",
                               "malformed-envelope",
                               "never-answer",
                               "noisy-logcat",
                               "operator-dev-variant",
                               "operator-missing",
                               "operator-outdated",
                               "reorder-chunks",
                               "screen-off",
                               "shop-app",
                               "stays-asleep",
                               "unauthorized",
                               "user-locked-after-boot"}) {
    // large-snapshot paces its 5260 chunks 1 ms apart (examples/scenarios/large-snapshot.json):
    // 5.3 s by design, so 1 s plus the 5 s result grace left a sanitizer build on a loaded
    // runner no margin. The output recorded does not name the timeout.
    const std::string timeout = std::string_view(scenario) == "large-snapshot" ? "60000" : "1000";
    out.push_back({std::string("device/") + scenario + "/snapshot",
                   {"exec", kExamples + "/snapshot.json", "--timeout", timeout},
                   scenario});
  }
  return out;
}

// Runs the cases `select` picks and compares them with the recording; with
// CLAWPERATOR_GOLDEN_RECORD=FILE, merges their outputs into FILE instead. The cases are split
// over several test cases so that `ctest -j` runs them side by side (docs/performance.md, "CI
// time"); together they cover every case (the last test case checks that).
void check_golden(const std::function<bool(const Case&)>& select) {
  const char* record = std::getenv("CLAWPERATOR_GOLDEN_RECORD");
  nlohmann::ordered_json recorded = nlohmann::ordered_json::object();
  nlohmann::ordered_json golden;
  if (record == nullptr) {
    golden = nlohmann::ordered_json::parse(read_file(kGoldenFile), nullptr, false);
    REQUIRE(golden.is_object());
  } else if (std::filesystem::exists(record)) {
    recorded = nlohmann::ordered_json::parse(read_file(record), nullptr, false);
    if (!recorded.is_object()) recorded = nlohmann::ordered_json::object();
  }
  const clawperator::testing::TemporaryDirectory logs("golden");
  const std::string log_dir = logs.path().string();
  std::map<std::string, std::unique_ptr<Farm>> farms;
  for (const Case& c : cases()) {
    if (!select(c)) continue;
    RunResult result;
    if (c.scenario.empty()) {
      RunOptions options;
      options.extra_env = {{"CLAWPERATOR_LOG_DIR", log_dir}, {"ANDROID_SERIAL", ""}};
      result = run_binary(binary(), c.args, options);
    } else {
      auto& farm = farms[c.scenario];
      if (!farm) farm = std::make_unique<Farm>(std::vector<std::string>{c.scenario});
      std::vector<std::string> args = c.args;
      args.insert(args.end(), {"--device", farm->serials().front()});
      result = run_binary(binary(), args, farm->environment());
    }
    nlohmann::ordered_json entry = nlohmann::ordered_json::object();
    entry["exit"] = result.exit_code;
    entry["stdout"] = masked_output(result.out);
    if (record != nullptr) {
      recorded[c.name] = entry;
      continue;
    }
    CAPTURE(c.name);
    REQUIRE(golden.contains(c.name));
    CHECK(entry["exit"] == golden[c.name]["exit"]);
    // The golden side is masked again, so that a change to the masking applies to both.
    std::string expected = masked_output(golden[c.name]["stdout"].get<std::string>());
    std::string actual = entry["stdout"].get<std::string>();
    if (timing_dependent(c.scenario)) {
      expected = outcome_only(expected);
      actual = outcome_only(actual);
    }
    CHECK(actual == expected);
  }
  if (record != nullptr) {
    std::ofstream(record) << recorded.dump(1) << "\n";
  }
}

// The scenarios' cases in kDeviceGroups groups, by their position among them.
constexpr std::size_t kDeviceGroups = 6;
std::size_t device_group(const Case& c) {
  std::size_t position = 0;
  for (const Case& other : cases()) {
    if (other.scenario.empty()) continue;
    if (other.name == c.name) return position % kDeviceGroups;
    ++position;
  }
  return kDeviceGroups;
}

}  // namespace

TEST_CASE("outputs stay what the previous main printed (golden): no device",
          "[golden][integration]") {
  check_golden([](const Case& c) { return c.scenario.empty(); });
}

TEST_CASE("outputs stay what the previous main printed (golden): devices 1 of 6",
          "[golden][integration]") {
  check_golden([](const Case& c) { return !c.scenario.empty() && device_group(c) == 0; });
}

TEST_CASE("outputs stay what the previous main printed (golden): devices 2 of 6",
          "[golden][integration]") {
  check_golden([](const Case& c) { return !c.scenario.empty() && device_group(c) == 1; });
}

TEST_CASE("outputs stay what the previous main printed (golden): devices 3 of 6",
          "[golden][integration]") {
  check_golden([](const Case& c) { return !c.scenario.empty() && device_group(c) == 2; });
}

TEST_CASE("outputs stay what the previous main printed (golden): devices 4 of 6",
          "[golden][integration]") {
  check_golden([](const Case& c) { return !c.scenario.empty() && device_group(c) == 3; });
}

TEST_CASE("outputs stay what the previous main printed (golden): devices 5 of 6",
          "[golden][integration]") {
  check_golden([](const Case& c) { return !c.scenario.empty() && device_group(c) == 4; });
}

TEST_CASE("outputs stay what the previous main printed (golden): devices 6 of 6",
          "[golden][integration]") {
  check_golden([](const Case& c) { return !c.scenario.empty() && device_group(c) == 5; });
}

TEST_CASE("the golden test cases cover every recorded case once", "[golden][integration]") {
  const nlohmann::ordered_json golden =
      nlohmann::ordered_json::parse(read_file(kGoldenFile), nullptr, false);
  REQUIRE(golden.is_object());
  std::size_t count = 0;
  for (const Case& c : cases()) {
    CAPTURE(c.name);
    CHECK(golden.contains(c.name));
    CHECK((c.scenario.empty() || device_group(c) < kDeviceGroups));
    ++count;
  }
  CHECK(count == golden.size());
}

}  // namespace clawperator::testing
