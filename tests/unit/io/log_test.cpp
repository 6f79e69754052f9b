#include "clawperator/io/log.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>

#include "../scripted_device.hpp"
#include "test_files.hpp"

using clawperator::Json;
using clawperator::testing::mode_of;
using clawperator::testing::TemporaryDirectory;
namespace io = clawperator::io;

namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// What `body` writes to stderr (file descriptor 2, where spdlog's stderr sink ends up).
std::string stderr_of(const std::function<void()>& body) {
  TemporaryDirectory dir("log-stderr");
  const std::string path = (dir.path() / "stderr").string();
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO);
  REQUIRE(saved >= 0);
  {
    std::FILE* capture = std::fopen(path.c_str(), "w");
    REQUIRE(capture != nullptr);
    ::dup2(::fileno(capture), STDERR_FILENO);
    std::fclose(capture);
  }
  body();
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  return read_all(path);
}

std::vector<Json> log_lines(const std::filesystem::path& directory) {
  std::vector<Json> lines;
  std::istringstream text(read_all(io::daily_log_path(directory)));
  for (std::string line; std::getline(text, line);) lines.push_back(Json::parse(line));
  return lines;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++found;
  }
  return found;
}

// Logging is process-wide: every test leaves it as the other unit tests expect it, off.
struct LoggingOff {
  ~LoggingOff() { io::stop_logging(); }
};

}  // namespace

TEST_CASE("an event is one NDJSON line: ts, level, event, pid, then the fields", "[io][log]") {
  LoggingOff off;
  TemporaryDirectory dir("log-ndjson");
  io::configure_logging({dir.path(), io::LogLevel::Info, false});
  const std::string err = stderr_of([] {
    io::log_event(io::LogLevel::Info, "unit.event", Json{{"b", 2}, {"a", "x\"y"}});
  });
  CHECK(err.empty());
  const std::string text = read_all(io::daily_log_path(dir.path()));
  REQUIRE(!text.empty());
  CHECK(text.back() == '\n');
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  const Json line = Json::parse(text);
  std::vector<std::string> keys;
  for (const auto& item : line.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"ts", "level", "event", "pid", "b", "a"});
  CHECK(line["level"] == "info");
  CHECK(line["event"] == "unit.event");
  CHECK(line["pid"] == static_cast<long long>(::getpid()));
  CHECK(line["a"] == "x\"y");
  // 2026-01-02T03:04:05.678Z, as utc_timestamp writes it.
  const std::string ts = line["ts"];
  CHECK(ts.size() == 24);
  CHECK(ts.back() == 'Z');
  // Byte for byte what the `logs` command and scripts read.
  CHECK(text == "{\"ts\":\"" + ts + "\",\"level\":\"info\",\"event\":\"unit.event\",\"pid\":" +
                    std::to_string(::getpid()) + ",\"b\":2,\"a\":\"x\\\"y\"}\n");
  CHECK(io::current_log_path() == io::daily_log_path(dir.path()).string());
}

TEST_CASE("the level drops events below it from the file and stderr", "[io][log]") {
  LoggingOff off;
  TemporaryDirectory dir("log-levels");
  SECTION("info: debug is dropped, warnings and errors reach stderr too") {
    io::configure_logging({dir.path(), io::LogLevel::Info, false});
    const std::string err = stderr_of([] {
      io::log_event(io::LogLevel::Debug, "unit.debug");
      io::log_event(io::LogLevel::Info, "unit.info");
      io::log_event(io::LogLevel::Warn, "unit.warn", Json{{"code", "X"}});
      io::log_event(io::LogLevel::Error, "unit.error");
    });
    const std::vector<Json> lines = log_lines(dir.path());
    REQUIRE(lines.size() == 3);
    CHECK(lines[0]["event"] == "unit.info");
    CHECK(lines[1]["level"] == "warn");
    CHECK(lines[2]["level"] == "error");
    CHECK(err ==
          "clawperator: warning: unit.warn {\"code\":\"X\"}\n"
          "clawperator: error: unit.error {}\n");
  }
  SECTION("error: only errors") {
    io::configure_logging({dir.path(), io::LogLevel::Error, false});
    const std::string err = stderr_of([] {
      io::log_event(io::LogLevel::Warn, "unit.warn");
      io::log_event(io::LogLevel::Error, "unit.error");
    });
    const std::vector<Json> lines = log_lines(dir.path());
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["event"] == "unit.error");
    CHECK(err == "clawperator: error: unit.error {}\n");
  }
  SECTION("debug with --verbose: everything, on both") {
    io::configure_logging({dir.path(), io::LogLevel::Debug, true});
    const std::string err = stderr_of([] {
      io::log_event(io::LogLevel::Debug, "unit.debug", Json{{"argv", Json::array({"adb"})}});
      io::log_event(io::LogLevel::Info, "unit.info");
    });
    CHECK(log_lines(dir.path()).size() == 2);
    CHECK(err ==
          "clawperator: debug: unit.debug {\"argv\":[\"adb\"]}\n"
          "clawperator: info: unit.info {}\n");
  }
  SECTION("nothing is logged before logging is configured") {
    const std::string err = stderr_of([] { io::log_event(io::LogLevel::Error, "unit.error"); });
    CHECK(err.empty());
    CHECK(io::current_log_path().empty());
    CHECK(std::filesystem::is_empty(dir.path()));
  }
}

TEST_CASE("warn prints on stderr whatever the level and logs a warning event", "[io][log]") {
  LoggingOff off;
  TemporaryDirectory dir("log-warn");
  SECTION("at info: stderr and the file") {
    io::configure_logging({dir.path(), io::LogLevel::Info, false});
    const std::string err =
        stderr_of([] { io::warn("cannot lock {} ({}); continuing unlocked", "/x/lock", 13); });
    CHECK(err == "clawperator: warning: cannot lock /x/lock (13); continuing unlocked\n");
    const std::vector<Json> lines = log_lines(dir.path());
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["level"] == "warn");
    CHECK(lines[0]["event"] == "warning");
    CHECK(lines[0]["message"] == "cannot lock /x/lock (13); continuing unlocked");
  }
  SECTION("at error: stderr only") {
    io::configure_logging({dir.path(), io::LogLevel::Error, false});
    const std::string err = stderr_of([] { io::warn("disk {}% full", 99); });
    CHECK(err == "clawperator: warning: disk 99% full\n");
    CHECK_FALSE(std::filesystem::exists(io::daily_log_path(dir.path())));
  }
  SECTION("before logging is configured: stderr only") {
    const std::string err = stderr_of([] { io::warn("early"); });
    CHECK(err == "clawperator: warning: early\n");
    CHECK(std::filesystem::is_empty(dir.path()));
  }
}

TEST_CASE("a log that cannot be written warns once and changes nothing else", "[io][log]") {
  LoggingOff off;
  TemporaryDirectory dir("log-unwritable");
  SECTION("the directory is a file") {
    const std::filesystem::path file = dir.path() / "file-not-dir";
    std::ofstream(file) << "x";
    io::configure_logging({file, io::LogLevel::Info, false});
    const std::string err = stderr_of([] {
      io::log_event(io::LogLevel::Info, "unit.one");
      io::log_event(io::LogLevel::Info, "unit.two");
      CHECK(io::current_log_path().empty());
    });
    CHECK(count(err, "LOG_DIRECTORY_UNWRITABLE") == 1);
    CHECK(err.rfind("clawperator: warning: cannot write the log in " + file.string(), 0) == 0);
  }
  SECTION("no home: no directory at all, nothing in the working directory") {
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    io::configure_logging({std::filesystem::path(), io::LogLevel::Info, false});
    const std::string err = stderr_of([] {
      io::log_event(io::LogLevel::Info, "unit.one");
      io::warn("and a warning");
      io::log_event(io::LogLevel::Info, "unit.two");
    });
    std::filesystem::current_path(before);
    CHECK(count(err, "LOG_DIRECTORY_UNWRITABLE") == 1);
    CHECK(err.find("HOME is unset") != std::string::npos);
    CHECK(err.find("clawperator: warning: and a warning\n") != std::string::npos);
    CHECK(std::filesystem::is_empty(dir.path()));
  }
  SECTION("a new directory after a failure is tried afresh") {
    io::configure_logging({dir.path() / "file", io::LogLevel::Info, false});
    std::ofstream(dir.path() / "file") << "x";
    const std::string err = stderr_of([] { io::log_event(io::LogLevel::Info, "unit.lost"); });
    CHECK(count(err, "LOG_DIRECTORY_UNWRITABLE") == 1);
    io::configure_logging({dir.path() / "logs", io::LogLevel::Info, false});
    io::log_event(io::LogLevel::Info, "unit.kept");
    const std::vector<Json> lines = log_lines(dir.path() / "logs");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["event"] == "unit.kept");
  }
}

TEST_CASE("the log directory is created 0700; one that exists keeps its mode", "[io][log]") {
  LoggingOff off;
  TemporaryDirectory dir("log-mode");
  const mode_t umask_before = ::umask(022);
  SECTION("created, with a missing parent") {
    const std::filesystem::path logs = dir.path() / "home" / ".clawperator" / "logs";
    const io::OpenedLog opened = io::open_daily_log(logs);
    REQUIRE(opened.fd >= 0);
    ::close(opened.fd);
    CHECK(opened.path == io::daily_log_path(logs));
    CHECK(mode_of(logs) == 0700);
    CHECK(mode_of(logs.parent_path()) == 0755);
    CHECK(mode_of(opened.path) == 0600);
  }
  SECTION("a trailing slash names the same directory") {
    const std::filesystem::path logs = dir.path() / "logs";
    const io::OpenedLog opened = io::open_daily_log(logs.string() + "/");
    REQUIRE(opened.fd >= 0);
    ::close(opened.fd);
    CHECK(mode_of(logs) == 0700);
  }
  SECTION("existing") {
    const std::filesystem::path logs = dir.path() / "logs";
    std::filesystem::create_directory(logs);
    ::chmod(logs.c_str(), 0750);
    io::configure_logging({logs, io::LogLevel::Info, false});
    io::log_event(io::LogLevel::Info, "unit.event");
    CHECK(log_lines(logs).size() == 1);
    CHECK(mode_of(logs) == 0750);
  }
  SECTION("not creatable: the errno") {
    std::ofstream(dir.path() / "file") << "x";
    const io::OpenedLog opened = io::open_daily_log(dir.path() / "file" / "logs");
    CHECK(opened.fd < 0);
    CHECK(opened.error == ENOTDIR);
  }
  ::umask(umask_before);
}
