// The device lock and the readiness record in the state directory (issue 13): a planted link
// is never followed, a planted fresh-looking record never skips the probe, and a run without
// a state directory goes without both.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "exec/device_lock.hpp"
#include "exec/readiness.hpp"
#include "scripted_device.hpp"

using namespace clawperator;
using namespace std::chrono_literals;

namespace {

const std::string kKey = "device-tcp%3A5037-emulator-5554.lock";

struct StateFiles {
  test::TempDir dir{"state-files-exec"};
  io::StateSelection state = test::private_state(dir.path());
  std::filesystem::path state_path = dir.path() / "state";

  const io::StateDirectory* directory() const { return state.directory.get(); }
  exec::ReadinessCache readiness() const { return exec::ReadinessCache(directory(), kKey); }

  // "precious", behind a link named `name` in the state directory.
  std::filesystem::path plant_link(const std::string& name) {
    const auto victim = dir.path() / ("victim-" + name);
    std::ofstream(victim) << "precious";
    std::filesystem::create_symlink(victim, state_path / name);
    return victim;
  }
};

}  // namespace

TEST_CASE("the readiness record", "[exec][readiness][state-dir]") {
  StateFiles files;
  SECTION("stored, it is fresh; invalidated, it is not") {
    CHECK_FALSE(files.readiness().fresh());
    files.readiness().store();
    CHECK(files.readiness().fresh());
    files.readiness().invalidate();
    CHECK_FALSE(files.readiness().fresh());
  }
  SECTION("it names the Operator whose answer it records") {
    files.readiness().store("com.clawperator.operator");
    CHECK(files.readiness().fresh_answer() ==
          std::optional<std::string>("com.clawperator.operator"));
    files.readiness().store();
    CHECK(files.readiness().fresh_answer() == std::optional<std::string>(""));
    // Longer than any package name: it names none, and is still fresh.
    files.readiness().store(std::string(300, 'a'));
    CHECK(files.readiness().fresh_answer() == std::optional<std::string>(""));
  }
  SECTION("an old record is not fresh") {
    files.readiness().store();
    const struct timespec old[2] = {{::time(nullptr) - 31, 0}, {::time(nullptr) - 31, 0}};
    REQUIRE(::utimensat(AT_FDCWD, (files.state_path / ("ready-" + kKey)).c_str(), old, 0) == 0);
    CHECK_FALSE(files.readiness().fresh());
  }
  SECTION("a planted fresh-looking link is not fresh, and storing replaces the link") {
    const auto victim = files.plant_link("ready-" + kKey);
    CHECK_FALSE(files.readiness().fresh());  // the victim was just written: fresh by its mtime
    files.readiness().store();
    CHECK(test::file_text(victim) == "precious");  // not truncated through the link
    CHECK(std::filesystem::is_regular_file(
        std::filesystem::symlink_status(files.state_path / ("ready-" + kKey))));
    CHECK(files.readiness().fresh());
    files.readiness().invalidate();
    CHECK(test::file_text(victim) == "precious");
  }
  SECTION("a planted directory under the name is not fresh and is left alone") {
    std::filesystem::create_directory(files.state_path / ("ready-" + kKey));
    CHECK_FALSE(files.readiness().fresh());
    files.readiness().store();
    CHECK_FALSE(files.readiness().fresh());
  }
  SECTION("a record owned by another user is not fresh") {
    if (::geteuid() != 0) {
      WARN("needs root to chown");
      return;
    }
    files.readiness().store();
    REQUIRE(::chown((files.state_path / ("ready-" + kKey)).c_str(), 65534, 65534) == 0);
    CHECK_FALSE(files.readiness().fresh());
  }
  SECTION("without a state directory there is no cache") {
    const exec::ReadinessCache none(nullptr, kKey);
    none.store();
    CHECK_FALSE(none.fresh());
    none.invalidate();
  }
}

TEST_CASE("the device lock file", "[exec][lock][state-dir]") {
  StateFiles files;
  exec::DeviceLock lock;
  SECTION("a regular file of ours, mode 0600") {
    CHECK(lock.acquire(files.directory(), "tcp:5037", "emulator-5554", 0ms) ==
          exec::DeviceLock::Outcome::Acquired);
    CHECK(lock.path() == files.state_path / kKey);
    struct stat status {};
    REQUIRE(::lstat(lock.path().c_str(), &status) == 0);
    CHECK((status.st_mode & 07777) == 0600);
  }
  SECTION("a planted link is not followed: unavailable, its target unchanged") {
    const auto victim = files.plant_link(kKey);
    CHECK(lock.acquire(files.directory(), "tcp:5037", "emulator-5554", 0ms) ==
          exec::DeviceLock::Outcome::Unavailable);
    CHECK(lock.error() == "is a symlink");
    CHECK(test::file_text(victim) == "precious");
  }
  SECTION("a planted FIFO is unavailable, at once") {
    REQUIRE(::mkfifo((files.state_path / kKey).c_str(), 0600) == 0);
    CHECK(lock.acquire(files.directory(), "tcp:5037", "emulator-5554", 0ms) ==
          exec::DeviceLock::Outcome::Unavailable);
    CHECK(lock.error() == "not a regular file");
  }
  SECTION("the holder's record replaces the last one's whole") {
    std::ofstream(files.state_path / kKey)
        << R"({"pid":1234567,"commandId":"an-earlier-and-much-longer-command-id"})";
    REQUIRE(lock.acquire(files.directory(), "tcp:5037", "emulator-5554", 0ms) ==
            exec::DeviceLock::Outcome::Acquired);
    lock.record_holder("c1");
    const std::string text = test::file_text(files.state_path / kKey);
    const Json expected{{"pid", static_cast<long long>(::getpid())}, {"commandId", "c1"}};
    CHECK(Json::parse(text) == expected);
    // A longer earlier record is overwritten with spaces, never truncated.
    CHECK(text.size() == 67);
    CHECK(lock.holder() == std::optional<Json>(expected));
    // A shorter one grows to the new record.
    std::ofstream(files.state_path / kKey) << "{}";
    lock.record_holder("c2");
    CHECK(Json::parse(test::file_text(files.state_path / kKey))["commandId"] == "c2");
  }
  SECTION("a busy lock lets through the holder's token only, and never shows it") {
    REQUIRE(lock.acquire(files.directory(), "tcp:5037", "emulator-5554", 0ms) ==
            exec::DeviceLock::Outcome::Acquired);
    lock.record_holder("skill-run-1", "secret-token");
    exec::DeviceLock child;
    CHECK(child.acquire(files.directory(), "tcp:5037", "emulator-5554", 0ms, {}, "secret-token") ==
          exec::DeviceLock::Outcome::Inherited);
    exec::DeviceLock stranger;
    CHECK(stranger.acquire(files.directory(), "tcp:5037", "emulator-5554", 0ms, {},
                           "another-token") == exec::DeviceLock::Outcome::Busy);
    REQUIRE(stranger.holder());
    CHECK(stranger.holder()->value("commandId", "") == "skill-run-1");
    CHECK_FALSE(stranger.holder()->contains("token"));
    exec::DeviceLock tokenless;
    CHECK(tokenless.acquire(files.directory(), "tcp:5037", "emulator-5554", 0ms) ==
          exec::DeviceLock::Outcome::Busy);
  }
  SECTION("without a state directory: no lock") {
    CHECK(lock.acquire(nullptr, "tcp:5037", "emulator-5554", 0ms) ==
          exec::DeviceLock::Outcome::NoDirectory);
  }
}
