#include "clawperator/report/report_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "skip.hpp"
#include "test_files.hpp"
#include "xml_tree.hpp"

using namespace clawperator;
using clawperator::testing::mode_of;
using clawperator::testing::parse_xml;
using clawperator::testing::TemporaryDirectory;
using clawperator::testing::write_file;
using report::Case;
using report::Format;
using report::Suite;
using report::Verdict;
namespace fs = std::filesystem;

namespace {

Suite one_case_suite(const std::string& name) {
  Suite suite;
  suite.name = name;
  suite.seconds = 0.25;
  suite.cases = {Case{name, "clawperator.exec", Verdict::Passed, "", "", "", 0.25}};
  return suite;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string reason_for(const fs::path& path) {
  const auto checked = report::check_report_path(path);
  return checked ? std::string() : checked.error().reason;
}

// The names in `directory` other than `keep`: a temp file left behind would be one.
std::vector<std::string> other_entries(const fs::path& directory,
                                       const std::vector<std::string>& keep) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (std::find(keep.begin(), keep.end(), name) == keep.end()) names.push_back(name);
  }
  return names;
}

}  // namespace

TEST_CASE("a report's path is checked before the run", "[report]") {
  const TemporaryDirectory dir{"report-path"};
  const fs::path file = dir.path() / "file.txt";
  write_file(file, "x");
  fs::create_directory(dir.path() / "folder");
  fs::create_symlink(file, dir.path() / "link.xml");
  fs::create_symlink(dir.path() / "nowhere", dir.path() / "dangling.xml");

  CHECK(reason_for(dir.path() / "new.xml").empty());
  CHECK(reason_for(file).empty());  // an existing regular file is replaced
  CHECK(reason_for(dir.path() / "missing" / "r.xml") ==
        "its directory " + (dir.path() / "missing").string() +
            " does not exist (No such file or directory)");
  CHECK(reason_for(file / "r.xml") ==
        "its directory " + file.string() + " is not a directory (Not a directory)");
  CHECK(reason_for(dir.path() / "folder") == "it is a directory (Is a directory)");
  CHECK(reason_for(dir.path() / "folder/") == "it names a directory, not a file");
  CHECK(reason_for(dir.path() / "link.xml") ==
        "it is a symbolic link: a report is never written through one");
  CHECK(reason_for(dir.path() / "dangling.xml") ==
        "it is a symbolic link: a report is never written through one");
  CHECK(reason_for("") == "no file is named");
  const auto missing = report::check_report_path(dir.path() / "missing" / "r.xml");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().error_number == ENOENT);
}

TEST_CASE("a directory the user may not write in is refused", "[report][may-skip]") {
  if (::geteuid() == 0) SKIP_TEST("root may write in any directory");
  const TemporaryDirectory dir{"report-readonly"};
  REQUIRE(::chmod(dir.path().c_str(), 0500) == 0);
  const auto checked = report::check_report_path(dir.path() / "r.xml");
  REQUIRE_FALSE(checked);
  CHECK(checked.error().error_number == EACCES);
  CHECK(checked.error().reason.find("may not be written in") != std::string::npos);
}

TEST_CASE("a report replaces the file atomically, mode 0666 less the umask", "[report]") {
  const TemporaryDirectory dir{"report-write"};
  const fs::path path = dir.path() / "report.xml";
  write_file(path, "old");
  ::chmod(path.c_str(), 0600);
  const mode_t mask = ::umask(022);
  const auto written = report::write_report(path, Format::JUnit, {one_case_suite("a")}, false);
  ::umask(mask);
  REQUIRE(written);
  CHECK(read(path) == report::junit_document(one_case_suite("a")));
  CHECK(mode_of(path) == 0644);
  // Replacing takes no lock and leaves no temp file.
  CHECK(other_entries(dir.path(), {"report.xml"}).empty());
}

TEST_CASE("appended runs land in one document; what is no report is left alone", "[report]") {
  const TemporaryDirectory dir{"report-append"};
  const fs::path path = dir.path() / "report.xml";
  REQUIRE(report::write_report(path, Format::JUnit, {one_case_suite("a")}, true));
  REQUIRE(report::write_report(path, Format::JUnit, {one_case_suite("b")}, true));
  const auto tree = parse_xml(read(path));
  REQUIRE(tree);
  const auto suites = tree->all("testsuite");
  REQUIRE(suites.size() == 2);
  CHECK(suites[0]->attribute("name") == "a");
  CHECK(suites[1]->attribute("name") == "b");
  CHECK(tree->attribute("tests") == "2");
  CHECK(other_entries(dir.path(), {"report.xml", "report.xml.lock"}).empty());

  const fs::path notes = dir.path() / "notes.txt";
  write_file(notes, "my notes\n");
  const auto refused = report::write_report(notes, Format::JUnit, {one_case_suite("c")}, true);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().reason.find("the file is not a JUnit report") == 0);
  CHECK(refused.error().reason.find("it was left as it was") != std::string::npos);
  CHECK(read(notes) == "my notes\n");

  // TAP too.
  const fs::path tap = dir.path() / "report.tap";
  REQUIRE(report::write_report(tap, Format::Tap, {one_case_suite("a")}, true));
  REQUIRE(report::write_report(tap, Format::Tap, {one_case_suite("b")}, true));
  CHECK(read(tap).find("ok 2 - b\n1..2\n") != std::string::npos);
}

TEST_CASE("concurrent appenders lose no suite", "[report]") {
  const TemporaryDirectory dir{"report-concurrent"};
  const fs::path path = dir.path() / "report.xml";
  constexpr int kWriters = 6;
  constexpr int kEach = 5;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int writer = 0; writer < kWriters; ++writer) {
    writers.emplace_back([&, writer] {
      for (int run = 0; run < kEach; ++run) {
        const std::string name = std::to_string(writer) + "-" + std::to_string(run);
        if (!report::write_report(path, Format::JUnit, {one_case_suite(name)}, true)) ++failures;
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  CHECK(failures == 0);
  const auto tree = parse_xml(read(path));
  REQUIRE(tree);
  std::set<std::string> names;
  for (const auto* suite : tree->all("testsuite")) names.insert(suite->attribute("name"));
  CHECK(names.size() == kWriters * kEach);
  CHECK(tree->attribute("tests") == std::to_string(kWriters * kEach));
}

TEST_CASE("an appender waits for the lock a bounded time", "[report]") {
  const TemporaryDirectory dir{"report-lock"};
  const fs::path path = dir.path() / "report.xml";
  const int held = ::open((path.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX) == 0);
  const auto written = report::write_report(path, Format::JUnit, {one_case_suite("a")}, true,
                                            std::chrono::milliseconds(50));
  ::close(held);
  REQUIRE_FALSE(written);
  CHECK(written.error().reason == "another run kept it locked for 50 ms");
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("a symbolic link is never written through, nor its lock file followed", "[report]") {
  const TemporaryDirectory dir{"report-links"};
  const fs::path target = dir.path() / "target.txt";
  write_file(target, "keep\n");
  const fs::path link = dir.path() / "report.xml";
  fs::create_symlink(target, link);
  CHECK_FALSE(report::write_report(link, Format::JUnit, {one_case_suite("a")}, false));
  CHECK_FALSE(report::write_report(link, Format::JUnit, {one_case_suite("a")}, true));
  CHECK(read(target) == "keep\n");
  CHECK(fs::is_symlink(link));

  const fs::path path = dir.path() / "other.xml";
  fs::create_symlink(target, dir.path() / "other.xml.lock");
  const auto locked = report::write_report(path, Format::JUnit, {one_case_suite("a")}, true);
  REQUIRE_FALSE(locked);
  CHECK(locked.error().error_number == ELOOP);
  CHECK(read(target) == "keep\n");
}
