// ~/.emulator_console_auth_token: created when missing, read as it is, empty means no auth.
#include "vdevice/emulator/console_token.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "test_files.hpp"

namespace {

using clawperator::testing::mode_of;
using clawperator::testing::TemporaryDirectory;
using clawperator::testing::write_file;
using clawperator::vdevice::emulator::ConsoleAuth;
using clawperator::vdevice::emulator::load_console_token;

std::string contents(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("console token: a missing file is created with a random token, for the user only",
          "[vdevice][emulator]") {
  TemporaryDirectory home("token");
  const auto file = home.path() / ".emulator_console_auth_token";
  const auto first = load_console_token(home.path().c_str());
  CHECK(first.auth == ConsoleAuth::Required);
  CHECK(first.path == file.string());
  CHECK(first.token.size() == 16);
  CHECK(contents(file) == first.token);
  CHECK((mode_of(file) & 0777) == 0600);
  // Read back, not made again: adb reads the same file.
  const auto second = load_console_token(home.path().c_str());
  CHECK(second.token == first.token);
}

TEST_CASE("console token: the file's content is the token, an empty file turns auth off",
          "[vdevice][emulator]") {
  TemporaryDirectory home("token");
  const auto file = home.path() / ".emulator_console_auth_token";
  write_file(file, "abc\n");
  CHECK(load_console_token(home.path().c_str()).token == "abc\n");
  write_file(file, "");
  const auto empty = load_console_token(home.path().c_str());
  CHECK(empty.auth == ConsoleAuth::Disabled);
  CHECK(empty.token.empty());
}

TEST_CASE("console token: unavailable without HOME or when the file cannot be made",
          "[vdevice][emulator]") {
  CHECK(load_console_token(nullptr).auth == ConsoleAuth::Unavailable);
  CHECK(load_console_token("").error == "HOME is not set: no console token file");
  TemporaryDirectory home("token");
  const auto missing = home.path() / "no-such-directory";
  const auto token = load_console_token(missing.c_str());
  CHECK(token.auth == ConsoleAuth::Unavailable);
  CHECK(token.error == "cannot create " + (missing / ".emulator_console_auth_token").string() +
                           ": No such file or directory");
  SECTION("a directory in the file's place cannot be read") {
    std::filesystem::create_directory(home.path() / ".emulator_console_auth_token");
    const auto unreadable = load_console_token(home.path().c_str());
    CHECK(unreadable.auth == ConsoleAuth::Unavailable);
    CHECK(unreadable.error.starts_with("cannot read "));
  }
}
