// Files written safely: a file we name ourselves in a shared directory is a new file that
// nobody can have prepared; names made from ids are one safe component.
#include "clawperator/io/atomic_file.hpp"

#include <catch2/catch.hpp>

#include "scripted_device.hpp"
#include "test_files.hpp"

using namespace clawperator;
using clawperator::testing::mode_of;
using clawperator::testing::write_file;

TEST_CASE("files we name ourselves in a shared directory are new files", "[io][atomic-file]") {
  const testing::TemporaryDirectory dir{"new-file"};
  SECTION("created with mode 0600") {
    std::filesystem::path path = dir.path() / "shot-1.png";
    CHECK(io::write_new_file(path, "png"));
    CHECK(path == dir.path() / "shot-1.png");
    CHECK(test::file_text(path) == "png");
    CHECK(mode_of(path) == 0600);
  }
  SECTION("a planted file or link at the name is left alone; another name is used") {
    write_file(dir.path() / "victim", "precious");
    write_file(dir.path() / "shot-1.png", "planted");
    std::filesystem::create_symlink(dir.path() / "victim", dir.path() / "shot-2.png");
    for (const char* name : {"shot-1.png", "shot-2.png"}) {
      std::filesystem::path path = dir.path() / name;
      CHECK(io::write_new_file(path, "png"));
      CHECK(path != dir.path() / name);
      CHECK(path.parent_path() == dir.path());
      CHECK(path.extension() == ".png");
      CHECK(test::file_text(path) == "png");
    }
    CHECK(test::file_text(dir.path() / "shot-1.png") == "planted");
    CHECK(test::file_text(dir.path() / "victim") == "precious");
  }
  SECTION("a directory that does not exist says so") {
    std::filesystem::path path = dir.path() / "missing" / "shot.png";
    const auto written = io::write_new_file(path, "png");
    REQUIRE_FALSE(written);
    CHECK(written.error().path == path.string());
    CHECK(written.error().message == "No such file or directory");
  }
  SECTION("names made safe") {
    CHECK(io::escape_file_name("cmd-1_a.b") == "cmd-1_a.b");
    CHECK(io::escape_file_name("../a/b c") == "..%2Fa%2Fb%20c");
  }
}
