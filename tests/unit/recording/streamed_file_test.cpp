// The streamed output file: the path holds the old content until commit, the whole new content
// after it, and a writer dropped without commit leaves nothing behind.
#include "clawperator/recording/streamed_file.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "scripted_device.hpp"
#include "test_files.hpp"

using namespace clawperator;
using clawperator::testing::mode_of;
using clawperator::testing::write_file;

namespace {

std::size_t entries_in(const std::filesystem::path& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                                std::filesystem::directory_iterator()));
}

}  // namespace

TEST_CASE("a streamed file replaces its path only when committed", "[recording][streamed-file]") {
  const testing::TemporaryDirectory dir{"recording-streamed"};
  const auto path = dir.path() / "out.json";
  write_file(path, "old");
  {
    auto file = recording::StreamedFile::create(path, "RECORDING_EXPORT_FAILED");
    REQUIRE(file.has_value());
    REQUIRE(file->write("new ").has_value());
    // A piece larger than the buffer goes straight through.
    REQUIRE(file->write(std::string(1 << 19, 'x')).has_value());
    CHECK(test::file_text(path) == "old");
    CHECK(entries_in(dir.path()) == 2);  // the path and the temporary file
    REQUIRE(file->commit().has_value());
  }
  CHECK(test::file_text(path) == "new " + std::string(1 << 19, 'x'));
  CHECK(entries_in(dir.path()) == 1);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  CHECK(mode_of(path) == (0666 & ~mask));

  {
    auto file = recording::StreamedFile::create(path, "RECORDING_EXPORT_FAILED");
    REQUIRE(file.has_value());
    REQUIRE(file->write("abandoned").has_value());
  }
  CHECK(test::file_text(path) == "new " + std::string(1 << 19, 'x'));
  CHECK(entries_in(dir.path()) == 1);
}

TEST_CASE("a streamed file in a missing directory names the path, its errno and the code",
          "[recording][streamed-file]") {
  const testing::TemporaryDirectory dir{"recording-streamed-missing"};
  auto file =
      recording::StreamedFile::create(dir.path() / "no" / "out.json", "RECORDING_EXPORT_FAILED");
  REQUIRE_FALSE(file.has_value());
  CHECK(file.error().code == "RECORDING_EXPORT_FAILED");
  CHECK(file.error().details.at("errno") == ENOENT);
  CHECK(file.error().details.at("path") == (dir.path() / "no" / "out.json").string());
}
