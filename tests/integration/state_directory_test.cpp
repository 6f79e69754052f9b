// Local security of the state directory (issue 13), through the real binary and the real adb:
// another user's directory in TMPDIR is never written into, a link planted in ours is never
// followed, a planted fresh readiness record never skips the probe, and an unsafe
// CLAWPERATOR_STATE_DIR is refused.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <set>

#include "farm_fixture.hpp"
#include "skip.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::Farm;
using clawperator::testing::kSnapshot;
using clawperator::testing::read_file;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr uid_t kNobody = 65534;

const json kSnapshotActions = json::array({kSnapshot});

// The farm's own scratch directory (removed with the farm).
fs::path scratch(const Farm& farm) {
  return fs::path(farm.log_dir()).parent_path();
}

// The default location only: no CLAWPERATOR_STATE_DIR, no XDG_RUNTIME_DIR.
void use_default_location(Farm& farm, const fs::path& tmp, const fs::path& home) {
  farm.set_env("CLAWPERATOR_STATE_DIR", "");
  farm.set_env("XDG_RUNTIME_DIR", "");
  farm.set_env("XDG_STATE_HOME", "");
  farm.set_env("TMPDIR", tmp.string());
  farm.set_env("HOME", home.string());
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

// A file of ours that a planted link points at; `age` sets its mtime back.
fs::path victim_file(const fs::path& dir, const std::string& name = "victim",
                     std::chrono::seconds age = std::chrono::seconds(0)) {
  const fs::path victim = dir / name;
  std::ofstream(victim) << "precious";
  fs::last_write_time(victim, fs::file_time_type::clock::now() - age);
  return victim;
}

RunResult exec_on(const Farm& farm, std::size_t device, const json& actions) {
  const fs::path payload = scratch(farm) / ("payload-state-" + std::to_string(device) + ".json");
  std::ofstream(payload) << json{
      {"commandId", "state-" + std::to_string(device)},
      {"taskId", "state"},
      {"source", "integration"},
      {"expectedFormat", "android-ui-automator"},
      {"timeoutMs", 10000},
      {"actions", actions}}.dump();
  return farm.clawperator({"exec", payload.string(), "--device", farm.serials()[device]});
}

int warnings_in(const std::string& err) {
  int count = 0;
  for (std::size_t at = err.find("warning:"); at != std::string::npos;
       at = err.find("warning:", at + 1)) {
    ++count;
  }
  return count;
}

bool root() {
  return ::geteuid() == 0;
}

}  // namespace

TEST_CASE("another user's state directory in TMPDIR is never used",
          "[integration][state-dir][may-skip]") {
  if (!root()) SKIP_TEST("needs root to make a directory of another user");
  Farm farm({"default", "locked"});
  const fs::path tmp = scratch(farm) / "tmp";
  const fs::path home = scratch(farm) / "home";
  fs::create_directories(tmp);
  ::chmod(tmp.c_str(), 01777);  // a shared /tmp
  use_default_location(farm, tmp, home);
  // Another user was first: their directory, open to all, at our default name.
  const fs::path foreign = tmp / ("clawperator-" + std::to_string(::getuid()));
  fs::create_directory(foreign);
  REQUIRE(::chown(foreign.c_str(), kNobody, kNobody) == 0);
  ::chmod(foreign.c_str(), 0777);
  const fs::path ours = home / ".local" / "state" / "clawperator";

  // The first runs go to the home, with a warning, and learn the lock names.
  const RunResult first = exec_on(farm, 0, kSnapshotActions);
  CHECK(single_document(first)["ok"] == true);
  CHECK(first.exit_code == 0);
  CHECK(first.err.find("not using the state directory " + foreign.string() +
                       ": owner uid 65534; using " + ours.string()) != std::string::npos);
  CHECK(warnings_in(first.err) == 1);
  const RunResult locked = exec_on(farm, 1, kSnapshotActions);
  CHECK(single_document(locked)["code"] == "DEVICE_NOT_INTERACTIVE");
  CHECK(fs::is_empty(foreign));
  const std::string awake_lock = farm.lock_file_name(farm.serials()[0]);
  const std::string locked_lock = farm.lock_file_name(farm.serials()[1]);

  // The other user plants: links named like readiness records, pointing at a file of ours
  // (fresh by its mtime), and holds the lock file of a device.
  const fs::path victim = victim_file(scratch(farm));
  fs::create_symlink(victim, foreign / ("ready-" + awake_lock));
  fs::create_symlink(victim, foreign / ("ready-" + locked_lock));
  std::ofstream(foreign / locked_lock) << "";
  const int held = ::open((foreign / locked_lock).c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX | LOCK_NB) == 0);
  const std::set<std::string> planted = names_in(foreign);

  // An exec that succeeds (and stores its readiness record) leaves the file behind the link
  // intact; the planted record does not skip the probe, the held lock does not block.
  const RunResult again = exec_on(farm, 0, kSnapshotActions);
  CHECK(single_document(again)["ok"] == true);
  CHECK(again.exit_code == 0);
  const RunResult probed = exec_on(farm, 1, kSnapshotActions);
  CHECK(single_document(probed)["code"] == "DEVICE_NOT_INTERACTIVE");
  CHECK(probed.exit_code == 3);
  ::close(held);
  CHECK(read_file(victim) == "precious");
  CHECK(names_in(foreign) == planted);
}

TEST_CASE("links planted in our own state directory are never followed",
          "[integration][state-dir][may-skip]") {
  Farm farm({"default", "locked"});
  const fs::path state = scratch(farm) / "state";  // the farm's CLAWPERATOR_STATE_DIR
  const RunResult awake = exec_on(farm, 0, kSnapshotActions);
  CHECK(awake.exit_code == 0);
  CHECK(awake.err.find("warning:") == std::string::npos);
  struct stat status {};
  REQUIRE(::lstat(state.c_str(), &status) == 0);
  CHECK((status.st_mode & 07777) == 0700);
  const RunResult locked = exec_on(farm, 1, kSnapshotActions);
  CHECK(single_document(locked)["code"] == "DEVICE_NOT_INTERACTIVE");
  const std::string awake_lock = farm.lock_file_name(farm.serials()[0]);
  const std::string locked_lock = farm.lock_file_name(farm.serials()[1]);

  // One link looks fresh (its target was just written), the other stale: a stale record is
  // stored again after the probe, which used to truncate the file behind the link.
  const fs::path victim = victim_file(scratch(farm));
  const fs::path old_victim = victim_file(scratch(farm), "old-victim", std::chrono::hours(1));
  fs::remove(state / ("ready-" + awake_lock));
  fs::create_symlink(old_victim, state / ("ready-" + awake_lock));
  fs::create_symlink(victim, state / ("ready-" + locked_lock));

  // A fresh-looking link does not skip the probe of a locked device.
  const RunResult probed = exec_on(farm, 1, kSnapshotActions);
  const json document = single_document(probed);
  CHECK(document["code"] == "DEVICE_NOT_INTERACTIVE");
  CHECK(probed.exit_code == 3);
  CHECK(document["details"]["probeDispatchState"] == "dispatched");
  // Storing the record replaces the link; the file it pointed to is unchanged.
  const RunResult stored = exec_on(farm, 0, kSnapshotActions);
  CHECK(single_document(stored)["ok"] == true);
  CHECK(fs::is_regular_file(fs::symlink_status(state / ("ready-" + awake_lock))));
  CHECK(read_file(victim) == "precious");
  CHECK(read_file(old_victim) == "precious");
}

TEST_CASE("without any private state directory the CLI still runs, with one warning",
          "[integration][state-dir]") {
  Farm farm({"default"});
  const fs::path tmp = scratch(farm) / "tmp";
  fs::create_directories(tmp);
  const fs::path open_dir = tmp / ("clawperator-" + std::to_string(::getuid()));
  fs::create_directory(open_dir);
  ::chmod(open_dir.c_str(), 0777);  // ours, but anyone may write it
  use_default_location(farm, tmp, "/dev/null");
  const RunResult result = exec_on(farm, 0, kSnapshotActions);
  const json document = single_document(result);
  CHECK(document["ok"] == true);
  CHECK(result.exit_code == 0);
  CHECK(warnings_in(result.err) == 1);
  CHECK(result.err.find("no private state directory (" + open_dir.string() + ": mode 0777; ") !=
        std::string::npos);
  CHECK(result.err.find("running without the device lock and the readiness cache") !=
        std::string::npos);
  CHECK(fs::is_empty(open_dir));
}

TEST_CASE("an unsafe CLAWPERATOR_STATE_DIR is refused", "[integration][state-dir]") {
  Farm farm({"default"});
  const fs::path open_dir = scratch(farm) / "shared";
  fs::create_directory(open_dir);
  ::chmod(open_dir.c_str(), 0777);
  SECTION("writable by others") {
    farm.set_env("CLAWPERATOR_STATE_DIR", open_dir.string());
    const json document =
        expect_error(exec_on(farm, 0, kSnapshotActions), "STATE_DIRECTORY_UNSAFE", 3);
    CHECK(document["details"]["stateDir"] == open_dir.string());
    CHECK(document["details"]["problem"] == "mode 0777");
    CHECK(document["details"]["phase"] == "readiness");
    CHECK(document["details"]["dispatchState"] == "not_dispatched");
    CHECK(document["recovery"]["strategy"] == "repair_environment_then_retry_original");
    // Validation needs no state directory.
    const fs::path payload = scratch(farm) / "payload-state-0.json";
    CHECK(farm.clawperator({"exec", payload.string(), "--validate-only"}).exit_code == 0);
  }
  SECTION("a directory of another user, and our link to it") {
    if (!root()) SKIP_TEST("needs root to make a directory of another user");
    const fs::path theirs = scratch(farm) / "theirs";
    fs::create_directory(theirs);
    ::chmod(theirs.c_str(), 0700);
    REQUIRE(::chown(theirs.c_str(), kNobody, kNobody) == 0);
    fs::create_directory_symlink(theirs, scratch(farm) / "link");
    for (const fs::path& named : {theirs, scratch(farm) / "link"}) {
      CAPTURE(named);
      farm.set_env("CLAWPERATOR_STATE_DIR", named.string());
      const json document =
          expect_error(exec_on(farm, 0, kSnapshotActions), "STATE_DIRECTORY_UNSAFE", 3);
      CHECK(document["details"]["problem"] == "owner uid 65534");
    }
  }
  CHECK(fs::is_empty(open_dir));
}

TEST_CASE("the default screenshot is a new file of ours in TMPDIR", "[integration][state-dir]") {
  Farm farm({"default"});
  const json shot = json::array({{{"id", "shot"}, {"type", "take_screenshot"}}});
  const fs::path tmp = scratch(farm) / "tmp";
  fs::create_directories(tmp);
  farm.set_env("TMPDIR", tmp.string());
  const RunResult written = exec_on(farm, 0, shot);
  const json document = single_document(written);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(written.exit_code == 0);
  const std::string path = document["envelope"]["stepResults"][0]["data"]["path"];
  CHECK(fs::path(path).parent_path() == tmp);
  CHECK(fs::path(path).filename().string().rfind("clawperator-screenshot-state-0-", 0) == 0);
  CHECK(read_file(path).rfind("\x89PNG\r\n\x1a\n", 0) == 0);
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  CHECK((status.st_mode & 07777) == 0600);

  // One that cannot be created fails its step.
  const fs::path missing = scratch(farm) / "missing-tmp";
  farm.set_env("TMPDIR", missing.string());
  const RunResult failed = exec_on(farm, 0, shot);
  const json failure = single_document(failed);
  INFO(failure.dump(2).substr(0, 3000));
  CHECK(failed.exit_code == 1);
  CHECK(failure["ok"] == false);
  const json data = failure["envelope"]["stepResults"][0]["data"];
  CHECK(data["error"] == "SNAPSHOT_ARTIFACT_WRITE_FAILED");
  CHECK(data["failurePhase"] == "post_processing");
  CHECK(data["message"].get<std::string>().find(
            "could not write " + (missing / "clawperator-screenshot-state-0-").string()) == 0);
  CHECK(failure["disposition"]["delivery"] == "delivered_verified");
  CHECK(failure["disposition"]["retry"] == "safe");  // a screenshot only reads
  CHECK_FALSE(fs::exists(missing));
}
