// The device lock and the readiness record in the state directory (issue 13): a planted link
// is never followed, a planted fresh-looking record never skips the probe, and a run without
// a state directory goes without both.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "exec/device_lock.hpp"
#include "exec/readiness.hpp"
#include "scripted_device.hpp"
#include "skip.hpp"
#include "wait_until.hpp"

using namespace clawperator;
using namespace std::chrono_literals;

namespace {

// adb::device_key of emulator-5554 on the default server, and its lock file's name.
const std::string kDevice = "tcp%3Aloopback%3A5037+emulator-5554";
const std::string kKey = "device-" + kDevice + ".lock";

struct StateFiles {
  testing::TemporaryDirectory dir{"state-files-exec"};
  io::StateSelection state = test::private_state(dir.path());
  std::filesystem::path state_path = dir.path() / "state";

  const io::StateDirectory* directory() const { return state.directory.get(); }
  const std::shared_ptr<const io::StateDirectory>& shared() const { return state.directory; }
  exec::ReadinessCache readiness() const { return exec::ReadinessCache(directory(), kKey); }

  // "precious", behind a link named `name` in the state directory.
  std::filesystem::path plant_link(const std::string& name) {
    const auto victim = dir.path() / ("victim-" + name);
    std::ofstream(victim) << "precious";
    std::filesystem::create_symlink(victim, state_path / name);
    return victim;
  }
};

// How many descriptors of this process have `path` open.
int open_descriptors_of(const std::filesystem::path& path) {
  std::error_code missing;
  const std::filesystem::path file = std::filesystem::canonical(path, missing);
  if (missing) return 0;
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", missing)) {
    std::error_code gone;
    if (std::filesystem::read_symlink(entry.path(), gone) == file) ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("the readiness record", "[exec][readiness][state-dir][may-skip]") {
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
    if (::geteuid() != 0) SKIP_TEST("needs root to chown");
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
    CHECK(lock.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Acquired);
    CHECK(lock.path() == files.state_path / kKey);
    struct stat status {};
    REQUIRE(::lstat(lock.path().c_str(), &status) == 0);
    CHECK((status.st_mode & 07777) == 0600);
  }
  SECTION("a planted link is not followed: unavailable, its target unchanged") {
    const auto victim = files.plant_link(kKey);
    CHECK(lock.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Unavailable);
    CHECK(lock.error() == "is a symlink");
    CHECK(test::file_text(victim) == "precious");
  }
  SECTION("a planted FIFO is unavailable, at once") {
    REQUIRE(::mkfifo((files.state_path / kKey).c_str(), 0600) == 0);
    CHECK(lock.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Unavailable);
    CHECK(lock.error() == "not a regular file");
  }
  SECTION("the holder's record replaces the last one's whole") {
    std::ofstream(files.state_path / kKey)
        << R"({"pid":1234567,"commandId":"an-earlier-and-much-longer-command-id"})";
    REQUIRE(lock.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Acquired);
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
    REQUIRE(lock.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Acquired);
    lock.record_holder("skill-run-1", "secret-token");
    exec::DeviceLock child;
    CHECK(child.acquire(files.shared(), kDevice, 0ms, {}, "secret-token") ==
          exec::DeviceLock::Outcome::Inherited);
    exec::DeviceLock stranger;
    CHECK(stranger.acquire(files.shared(), kDevice, 0ms, {}, "another-token") ==
          exec::DeviceLock::Outcome::Busy);
    REQUIRE(stranger.holder());
    CHECK(stranger.holder()->value("commandId", "") == "skill-run-1");
    CHECK_FALSE(stranger.holder()->contains("token"));
    exec::DeviceLock tokenless;
    CHECK(tokenless.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Busy);
  }
  SECTION("without a state directory: no lock") {
    CHECK(lock.acquire(nullptr, kDevice, 0ms) == exec::DeviceLock::Outcome::NoDirectory);
  }
}

namespace {

std::size_t lock_files_in(const std::filesystem::path& dir) {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("device-", 0) == 0 && name.size() > 5 &&
        name.compare(name.size() - 5, 5, ".lock") == 0) {
      ++count;
    }
  }
  return count;
}

// A lock file a killed run left: "device-left-N.lock", nobody holding it.
void leave_lock_file(const std::filesystem::path& dir, int n) {
  std::ofstream(dir / ("device-left-" + std::to_string(n) + ".lock"))
      << R"({"pid":1,"commandId":"killed"})";
}

}  // namespace

TEST_CASE("a released lock takes its file with it", "[exec][lock][state-dir]") {
  StateFiles files;
  const auto path = files.state_path / kKey;
  {
    exec::DeviceLock lock;
    REQUIRE(lock.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Acquired);
    lock.record_holder("c1", "token");
    CHECK(std::filesystem::exists(path));
    {
      // A caller refused, and one let through by the token, leave the holder's file alone.
      exec::DeviceLock refused;
      CHECK(refused.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Busy);
      exec::DeviceLock child;
      CHECK(child.acquire(files.shared(), kDevice, 0ms, {}, "token") ==
            exec::DeviceLock::Outcome::Inherited);
    }
    CHECK(std::filesystem::exists(path));
  }
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK(lock_files_in(files.state_path) == 0);
  // One that could not be taken made no file to leave behind either.
  exec::DeviceLock none;
  CHECK(none.acquire(nullptr, kDevice, 0ms) == exec::DeviceLock::Outcome::NoDirectory);
}

TEST_CASE("a waiter whose file lost its name takes the lock at the name, never beside it",
          "[exec][lock][state-dir]") {
  StateFiles files;
  SECTION("the holder releases while the waiter polls its old file") {
    auto holder = std::make_unique<exec::DeviceLock>();
    REQUIRE(holder->acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Acquired);
    exec::DeviceLock waiter;
    const std::filesystem::path lock_path = files.state_path / kKey;
    std::atomic<bool> polling{false};
    std::thread release([&] {
      // Once the waiter has the file open too (the holder's descriptor and its own).
      polling = testing::wait_until([&] { return open_descriptors_of(lock_path) >= 2; }, 10s);
      holder.reset();  // removes the file the waiter has open, then unlocks it
    });
    CHECK(waiter.acquire(files.shared(), kDevice, 5000ms) == exec::DeviceLock::Outcome::Acquired);
    release.join();
    REQUIRE(polling);
    // The waiter holds the file at the name: a third caller is refused.
    REQUIRE(std::filesystem::exists(files.state_path / kKey));
    exec::DeviceLock third;
    CHECK(third.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Busy);
  }
  SECTION("many callers, removing and making the file all the while: one holder at a time") {
    constexpr int kThreads = 4;
    constexpr int kRounds = 25;
    std::atomic<int> inside{0};
    std::atomic<int> most{0};
    std::atomic<int> acquired{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        for (int round = 0; round < kRounds; ++round) {
          exec::DeviceLock lock;
          if (lock.acquire(files.shared(), kDevice, 20000ms) !=
              exec::DeviceLock::Outcome::Acquired) {
            continue;
          }
          ++acquired;
          const int now = ++inside;
          int seen = most.load();
          while (now > seen && !most.compare_exchange_weak(seen, now)) {
          }
          std::this_thread::sleep_for(1ms);  // held a while: an overlap would show in `most`
          --inside;
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    CHECK(acquired == kThreads * kRounds);
    CHECK(most == 1);
    CHECK(lock_files_in(files.state_path) == 0);
  }
}

TEST_CASE("lock files nobody holds are bounded in number", "[exec][lock][state-dir]") {
  StateFiles files;
  // A live holder of another device: its file must survive every sweep.
  exec::DeviceLock other;
  REQUIRE(other.acquire(files.shared(), "tcp%3Aloopback%3A5037+emulator-5556", 0ms) ==
          exec::DeviceLock::Outcome::Acquired);
  // A link planted under a lock's name is not ours to remove (nor to follow).
  const auto victim = files.plant_link("device-planted.lock");
  SECTION("at the cap, nothing is swept") {
    for (int n = 0; n < static_cast<int>(exec::kMaxIdleLockFiles) - 2; ++n) {
      leave_lock_file(files.state_path, n);
    }
    REQUIRE(lock_files_in(files.state_path) == exec::kMaxIdleLockFiles);
    {
      exec::DeviceLock lock;
      REQUIRE(lock.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Acquired);
    }
    CHECK(lock_files_in(files.state_path) == exec::kMaxIdleLockFiles);
  }
  SECTION("over the cap, a release removes every file nobody holds") {
    for (int n = 0; n < 100; ++n) leave_lock_file(files.state_path, n);
    {
      exec::DeviceLock lock;
      REQUIRE(lock.acquire(files.shared(), kDevice, 0ms) == exec::DeviceLock::Outcome::Acquired);
      CHECK(lock_files_in(files.state_path) == 103);
    }
    // The held one and the planted link are left, nothing else.
    CHECK(lock_files_in(files.state_path) == 2);
    CHECK(std::filesystem::exists(other.path()));
    CHECK(std::filesystem::is_symlink(files.state_path / "device-planted.lock"));
    CHECK(test::file_text(victim) == "precious");
    // The holder still holds: its file is the one at the name.
    exec::DeviceLock again;
    CHECK(again.acquire(files.shared(), "tcp%3Aloopback%3A5037+emulator-5556", 0ms) ==
          exec::DeviceLock::Outcome::Busy);
  }
  SECTION("the sweep on its own: only over `keep`, and never a held file") {
    for (int n = 0; n < 3; ++n) leave_lock_file(files.state_path, n);
    CHECK(exec::remove_idle_lock_files(*files.directory(), 5) == 0);
    CHECK(exec::remove_idle_lock_files(*files.directory(), 4) == 3);
    CHECK(lock_files_in(files.state_path) == 2);
  }
}
