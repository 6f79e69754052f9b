// The state directory's checks (issue 13): a directory someone else owns or may write is
// never used, a link planted in ours is never followed, and every file is one of ours.
#include "clawperator/io/state_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <map>

#include "scripted_device.hpp"
#include "skip.hpp"
#include "test_files.hpp"

using namespace clawperator;
using io::DirectoryError;
using io::StateDirectory;
using Symlinks = io::StateDirectory::Symlinks;
using clawperator::testing::mode_of;
using clawperator::testing::write_file;

namespace {

constexpr uid_t kNobody = 65534;

struct FakeEnvironment {
  std::map<std::string, std::string> variables;
  std::optional<std::string> passwd_home;
  uid_t uid = 1000;

  io::StateEnvironment get() const {
    io::StateEnvironment environment;
    environment.variable = [this](const char* name) -> const char* {
      const auto found = variables.find(name);
      return found == variables.end() ? nullptr : found->second.c_str();
    };
    environment.passwd_home = [this] { return passwd_home; };
    environment.uid = uid;
    return environment;
  }
};

std::string problem_of(const std::filesystem::path& path, uid_t owner,
                       Symlinks symlinks = Symlinks::Refuse) {
  auto opened = StateDirectory::open(path, owner, symlinks);
  if (opened) return "";
  const DirectoryError& problem = opened.error();
  CHECK(problem.path == path);
  return problem.problem;
}

StateDirectory opened(const std::filesystem::path& path) {
  auto result = StateDirectory::open(path, ::geteuid(), Symlinks::Refuse);
  INFO((result ? std::string() : result.error().problem));
  REQUIRE(result.has_value());
  return std::move(*result);
}

std::string owner_text() {
  return "owner uid " + std::to_string(::geteuid());
}

bool root() {
  return ::geteuid() == 0;
}

// Runs `body` as nobody in a child process (the test must be root); its exit status.
template <typename Body>
int as_nobody(Body body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) ::_exit(126);
    ::_exit(body());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("where the state directory is looked for", "[io][state-dir]") {
  FakeEnvironment fake;
  SECTION("CLAWPERATOR_STATE_DIR, else XDG_RUNTIME_DIR, else TMPDIR or /tmp") {
    CHECK(io::default_state_dir(fake.get()) == "/tmp/clawperator-1000");
    fake.variables["TMPDIR"] = "/var/tmp/x";
    CHECK(io::default_state_dir(fake.get()) == "/var/tmp/x/clawperator-1000");
    fake.variables["XDG_RUNTIME_DIR"] = "/run/user/1000";
    CHECK(io::default_state_dir(fake.get()) == "/run/user/1000/clawperator");
    fake.variables["CLAWPERATOR_STATE_DIR"] = "/srv/state";
    CHECK(io::default_state_dir(fake.get()) == "/srv/state");
    fake.variables["CLAWPERATOR_STATE_DIR"] = "";  // empty: unset
    fake.variables["XDG_RUNTIME_DIR"] = "";
    fake.variables["TMPDIR"] = "";
    CHECK(io::default_state_dir(fake.get()) == "/tmp/clawperator-1000");
    CHECK(io::temp_directory(fake.get()) == "/tmp");
  }
  SECTION("the private place under the home") {
    fake.passwd_home = "/home/from-passwd";
    CHECK(io::home_state_dir(fake.get()) == "/home/from-passwd/.local/state/clawperator");
    fake.variables["HOME"] = "/home/me";
    CHECK(io::home_state_dir(fake.get()) == "/home/me/.local/state/clawperator");
    fake.variables["XDG_STATE_HOME"] = "relative/is/ignored";
    CHECK(io::home_state_dir(fake.get()) == "/home/me/.local/state/clawperator");
    fake.variables["XDG_STATE_HOME"] = "/home/me/state";
    CHECK(io::home_state_dir(fake.get()) == "/home/me/state/clawperator");
  }
  SECTION("no home known") {
    CHECK_FALSE(io::home_state_dir(fake.get()));
  }
}

TEST_CASE("a state directory is used only when it is private and ours",
          "[io][state-dir][may-skip]") {
  const testing::TemporaryDirectory dir{"state-checks"};
  SECTION("a missing one is created with mode 0700, parents too") {
    const auto path = dir.path() / "a" / "b" / "state";
    CHECK(problem_of(path, ::geteuid()).empty());
    CHECK(mode_of(path) == 0700);
  }
  SECTION("an existing one that others may write is refused") {
    const auto path = dir.path() / "open";
    std::filesystem::create_directory(path);
    ::chmod(path.c_str(), 0777);
    CHECK(problem_of(path, ::geteuid()) == "mode 0777");
    ::chmod(path.c_str(), 0770);
    CHECK(problem_of(path, ::geteuid()) == "mode 0770");
    ::chmod(path.c_str(), 0755);  // readable by others is fine: nobody else can write
    CHECK(problem_of(path, ::geteuid()).empty());
  }
  SECTION("one owned by another uid is refused") {
    const auto path = dir.path() / "theirs";
    std::filesystem::create_directory(path);
    ::chmod(path.c_str(), 0700);
    CHECK(problem_of(path, ::geteuid() + 1) == owner_text());
  }
  SECTION("a directory another user created first, mode 0777") {
    if (!root()) SKIP_TEST("needs root to be another user");
    ::chmod(dir.path().c_str(), 01777);  // a shared /tmp
    const auto path = dir.path() / "clawperator-0";
    CHECK(as_nobody([&] {
            ::umask(0);
            return ::mkdir(path.c_str(), 0777) == 0 ? 0 : 1;
          }) == 0);
    CHECK(problem_of(path, 0) == "owner uid 65534");
    CHECK(std::filesystem::is_empty(path));
  }
  SECTION("a symlink, even to a good directory, is refused for the default places") {
    const auto target = dir.path() / "target";
    CHECK(problem_of(target, ::geteuid()).empty());
    std::filesystem::create_directory_symlink(target, dir.path() / "link");
    CHECK(problem_of(dir.path() / "link", ::geteuid()) == "is a symlink");
    CHECK(problem_of(dir.path() / "link", ::geteuid(), Symlinks::FollowOwn).empty());
  }
  SECTION("a named symlink is followed only when it and its target are ours") {
    const auto open_dir = dir.path() / "open";
    std::filesystem::create_directory(open_dir);
    ::chmod(open_dir.c_str(), 0777);
    std::filesystem::create_directory_symlink(open_dir, dir.path() / "to-open");
    CHECK(problem_of(dir.path() / "to-open", ::geteuid(), Symlinks::FollowOwn) == "mode 0777");
    CHECK(problem_of(dir.path() / "to-open", ::geteuid() + 1, Symlinks::FollowOwn) ==
          "is a symlink, " + owner_text());
  }
  SECTION("a file is not a directory; a path through a file cannot be created") {
    write_file(dir.path() / "file", "x");
    CHECK(problem_of(dir.path() / "file", ::geteuid()) == "not a directory");
    CHECK(problem_of(dir.path() / "file" / "state", ::geteuid()) ==
          "cannot create: Not a directory");
  }
}

TEST_CASE("files in the state directory are opened relative to it, never through a link",
          "[io][state-dir][may-skip]") {
  const testing::TemporaryDirectory dir{"state-files"};
  const StateDirectory state = opened(dir.path() / "state");
  write_file(dir.path() / "victim", "precious");
  std::filesystem::create_symlink(dir.path() / "victim", dir.path() / "state" / "planted");

  SECTION("a planted link is refused, and what it points to is unchanged") {
    for (const int flags : {O_RDONLY, O_RDWR | O_CREAT, O_WRONLY | O_CREAT | O_TRUNC}) {
      auto result = state.open_file("planted", flags);
      REQUIRE_FALSE(result.has_value());
      CHECK(result.error() == Problem{"planted", "is a symlink"});
    }
    CHECK(test::file_text(dir.path() / "victim") == "precious");
  }
  SECTION("replacing a name replaces the link itself, never its target") {
    REQUIRE(state.replace_file("planted"));
    CHECK(test::file_text(dir.path() / "victim") == "precious");
    CHECK(std::filesystem::is_regular_file(
        std::filesystem::symlink_status(dir.path() / "state" / "planted")));
    CHECK(mode_of(dir.path() / "state" / "planted") == 0600);
    // No temporary name is left behind.
    int entries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "state")) {
      CAPTURE(entry.path());
      ++entries;
    }
    CHECK(entries == 1);
  }
  SECTION("removing a name removes the link, not its target") {
    state.remove("planted");
    CHECK_FALSE(
        std::filesystem::exists(std::filesystem::symlink_status(dir.path() / "state" / "planted")));
    CHECK(test::file_text(dir.path() / "victim") == "precious");
  }
  SECTION("a FIFO is refused without hanging") {
    REQUIRE(::mkfifo((dir.path() / "state" / "fifo").c_str(), 0600) == 0);
    auto result = state.open_file("fifo", O_RDONLY);
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error() == Problem{"fifo", "not a regular file"});
  }
  SECTION("a file owned by another user is refused") {
    if (!root()) SKIP_TEST("needs root to chown");
    write_file(dir.path() / "state" / "theirs", "");
    REQUIRE(::chown((dir.path() / "state" / "theirs").c_str(), kNobody, kNobody) == 0);
    auto result = state.open_file("theirs", O_RDWR);
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error() == Problem{"theirs", "owner uid 65534"});
  }
  SECTION("names are one component") {
    for (const char* name : {"", ".", "..", "../victim", "a/b"}) {
      CAPTURE(name);
      auto result = state.open_file(name, O_RDWR | O_CREAT);
      REQUIRE_FALSE(result.has_value());
      CHECK(result.error() == Problem{name, "not a file name"});
      CHECK_FALSE(state.replace_file(name));
    }
    CHECK(test::file_text(dir.path() / "victim") == "precious");
  }
  SECTION("a new file of ours is created with mode 0600") {
    auto result = state.open_file("fresh", O_RDWR | O_CREAT);
    REQUIRE(result.has_value());
    ::close(result->fd);
    CHECK(mode_of(dir.path() / "state" / "fresh") == 0600);
  }
}

TEST_CASE("create_file makes a new private file, never through a link or over a file",
          "[io][state-dir]") {
  const testing::TemporaryDirectory dir{"state-create"};
  const StateDirectory state = opened(dir.path() / "state");
  write_file(dir.path() / "victim", "precious");
  std::filesystem::create_symlink(dir.path() / "victim", dir.path() / "state" / "planted");
  const auto refusal_of = [&state](const char* name, const char* contents) {
    const auto created = state.create_file(name, contents);
    return created ? Problem{} : created.error();
  };
  CHECK(refusal_of("planted", "evil") == Problem{"planted", "File exists"});
  CHECK(test::file_text(dir.path() / "victim") == "precious");
  REQUIRE(state.create_file("payload.json", "{}"));
  CHECK(test::file_text(dir.path() / "state" / "payload.json") == "{}");
  CHECK(mode_of(dir.path() / "state" / "payload.json") == 0600);
  CHECK(refusal_of("payload.json", "again") == Problem{"payload.json", "File exists"});
  CHECK(test::file_text(dir.path() / "state" / "payload.json") == "{}");
  CHECK(refusal_of("../escape", "x") == Problem{"../escape", "not a file name"});
}

TEST_CASE("remove_stale removes what a killed run left, and nothing else", "[io][state-dir]") {
  const testing::TemporaryDirectory dir{"state-stale"};
  const StateDirectory state = opened(dir.path() / "state");
  const auto state_file = [&dir](const std::string& name) { return dir.path() / "state" / name; };
  const auto age = [](const std::filesystem::path& path, std::chrono::minutes minutes) {
    std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now() - minutes);
  };
  for (const char* name : {"clawperator-payload-old.json", "clawperator-payload-new.json",
                           "clawperator-payload-old.txt", "other-old.json"}) {
    REQUIRE(state.create_file(name, "{}"));
  }
  age(state_file("clawperator-payload-old.json"), std::chrono::minutes(20));
  age(state_file("clawperator-payload-old.txt"), std::chrono::minutes(20));
  age(state_file("other-old.json"), std::chrono::minutes(20));
  write_file(dir.path() / "victim", "precious");
  std::filesystem::create_symlink(dir.path() / "victim",
                                  state_file("clawperator-payload-link.json"));
  CHECK(state.remove_stale("clawperator-payload-", ".json", std::chrono::minutes(10)) == 1);
  CHECK_FALSE(std::filesystem::exists(state_file("clawperator-payload-old.json")));
  for (const char* kept : {"clawperator-payload-new.json", "clawperator-payload-old.txt",
                           "other-old.json", "clawperator-payload-link.json"}) {
    INFO(kept);
    CHECK(std::filesystem::exists(std::filesystem::symlink_status(state_file(kept))));
  }
  CHECK(test::file_text(dir.path() / "victim") == "precious");
}

TEST_CASE("choosing the state directory of a run", "[io][state-dir]") {
  const testing::TemporaryDirectory dir{"state-select"};
  FakeEnvironment fake;
  fake.uid = 0;
  fake.variables["TMPDIR"] = (dir.path() / "tmp").string();
  fake.variables["HOME"] = (dir.path() / "home").string();
  const auto preferred = dir.path() / "tmp" / "clawperator-0";
  const auto home = dir.path() / "home" / ".local" / "state" / "clawperator";

  SECTION("the default place when it is private") {
    const io::StateSelection selection = io::select_state_directory(fake.get(), ::geteuid());
    REQUIRE(selection.directory);
    CHECK(selection.directory->path() == preferred);
    CHECK(selection.warning.empty());
    CHECK_FALSE(selection.refused);
  }
  SECTION("a default place others may write: the home, with a warning") {
    std::filesystem::create_directories(preferred);
    ::chmod(preferred.c_str(), 0777);
    const io::StateSelection selection = io::select_state_directory(fake.get(), ::geteuid());
    REQUIRE(selection.directory);
    CHECK(selection.directory->path() == home);
    CHECK(mode_of(home) == 0700);
    CHECK(selection.warning == "not using the state directory " + preferred.string() +
                                   ": mode 0777; using " + home.string());
    CHECK(std::filesystem::is_empty(preferred));
  }
  SECTION("no private place at all: none, with one warning") {
    std::filesystem::create_directories(preferred);
    ::chmod(preferred.c_str(), 0777);
    fake.variables["HOME"] = "/dev/null";
    const io::StateSelection selection = io::select_state_directory(fake.get(), ::geteuid());
    CHECK_FALSE(selection.directory);
    CHECK_FALSE(selection.refused);
    CHECK(selection.warning == "no private state directory (" + preferred.string() +
                                   ": mode 0777; /dev/null/.local/state/clawperator: cannot "
                                   "create: Not a directory); running without the device lock "
                                   "and the readiness cache");
  }
  SECTION("no home known and the default unusable: none") {
    write_file(dir.path() / "tmp-file", "");
    fake.variables["TMPDIR"] = (dir.path() / "tmp-file").string();
    fake.variables.erase("HOME");
    const io::StateSelection selection = io::select_state_directory(fake.get(), ::geteuid());
    CHECK_FALSE(selection.directory);
    CHECK(selection.warning.find("cannot create: Not a directory); running without") !=
          std::string::npos);
  }
  SECTION("a named directory that is unsafe is refused, never replaced") {
    const auto named = dir.path() / "named";
    std::filesystem::create_directory(named);
    ::chmod(named.c_str(), 0777);
    fake.variables["CLAWPERATOR_STATE_DIR"] = named.string();
    const io::StateSelection selection = io::select_state_directory(fake.get(), ::geteuid());
    CHECK_FALSE(selection.directory);
    REQUIRE(selection.refused);
    CHECK(selection.refused->path == named);
    CHECK(selection.refused->problem == "mode 0777");
    CHECK_FALSE(std::filesystem::exists(home));
  }
  SECTION("a named symlink of ours to a private directory is used") {
    const auto target = dir.path() / "target";
    std::filesystem::create_directory(target);
    ::chmod(target.c_str(), 0700);
    std::filesystem::create_directory_symlink(target, dir.path() / "link");
    fake.variables["CLAWPERATOR_STATE_DIR"] = (dir.path() / "link").string();
    const io::StateSelection selection = io::select_state_directory(fake.get(), ::geteuid());
    REQUIRE(selection.directory);
    CHECK(selection.warning.empty());
  }
}
