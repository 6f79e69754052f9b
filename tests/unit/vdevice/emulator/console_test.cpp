// The emulator console's protocol, byte for byte: what `adb emu` sends and reads.
#include "vdevice/emulator/console.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace {

using clawperator::vdevice::emulator::ConsoleAuth;
using clawperator::vdevice::emulator::ConsoleConfig;
using clawperator::vdevice::emulator::ConsoleSession;

const ConsoleConfig kRequired{"Pixel_7", ConsoleAuth::Required, "s3cr3tT0ken/+abc",
                              "/home/u/.emulator_console_auth_token"};

constexpr const char* kUnknown = "KO: unknown command, try 'help'\r\n";

// What adb 29's `emu` prints of the console's output: everything after the second "OK\r\n".
std::string as_adb_prints(const std::string& output) {
  std::size_t found = 0;
  for (int i = 0; i < 2; ++i) {
    const std::size_t at = output.find("OK\r\n", found);
    if (at == std::string::npos) break;
    found = at + 4;
  }
  return output.substr(found);
}

}  // namespace

TEST_CASE("emulator console: the banner asks for the token and names its file",
          "[vdevice][emulator]") {
  ConsoleSession session(kRequired);
  CHECK(session.greeting() ==
        "Android Console: Authentication required\r\n"
        "Android Console: type 'auth <auth_token>' to authenticate\r\n"
        "Android Console: you can find your <auth_token> in \r\n"
        "'/home/u/.emulator_console_auth_token'\r\nOK\r\n");
  CHECK_FALSE(session.finished());
}

TEST_CASE("emulator console: what adb emu sends, and what adb then prints", "[vdevice][emulator]") {
  SECTION("avd name") {
    ConsoleSession session(kRequired);
    std::string output = session.greeting();
    output += session.on_bytes("auth s3cr3tT0ken/+abc\navd name\nquit\n");
    CHECK(as_adb_prints(output) == "Pixel_7\r\nOK\r\n");
    CHECK(session.finished());
    CHECK_FALSE(session.take_kill_request());
  }
  SECTION("kill") {
    ConsoleSession session(kRequired);
    std::string output = session.greeting();
    output += session.on_bytes("auth s3cr3tT0ken/+abc\nkill\nquit\n");
    CHECK(as_adb_prints(output) == "OK: killing emulator, bye bye\r\nOK\r\n");
    CHECK(session.take_kill_request());
    CHECK_FALSE(session.take_kill_request());
  }
  SECTION("a wrong token: kill is not a command before auth") {
    ConsoleSession session(kRequired);
    std::string output = session.greeting();
    output += session.on_bytes("auth wrong\nkill\nquit\n");
    CHECK(as_adb_prints(output) == std::string("KO: authentication token does not match "
                                               "~/.emulator_console_auth_token\r\n") +
                                       kUnknown);
    CHECK_FALSE(session.take_kill_request());
  }
}

TEST_CASE("emulator console: before auth only help, ping, avd name, auth and quit",
          "[vdevice][emulator]") {
  ConsoleSession session(kRequired);
  (void)session.greeting();
  CHECK(session.on_bytes("avd name\r\n") == "Pixel_7\r\nOK\r\n");
  CHECK(session.on_bytes("ping\n") == "I am alive!\r\nOK\r\n");
  CHECK(session.on_bytes("kill\n") == kUnknown);
  CHECK(session.on_bytes("geo fix 1 2\n") == kUnknown);
  CHECK(session.on_bytes("\n") == kUnknown);
  CHECK(session.on_bytes("auth\n") == "KO: missing authentication token\r\n");
  CHECK(session.on_bytes("auth s3cr3tT0ken/+abc \n") ==
        "KO: authentication token does not match ~/.emulator_console_auth_token\r\n");
  const std::string help = session.on_bytes("help\n");
  CHECK(help.find("    auth\r\n") != std::string::npos);
  CHECK(help.find("kill") == std::string::npos);
  CHECK(help.ends_with("OK\r\n"));
}

TEST_CASE("emulator console: after auth", "[vdevice][emulator]") {
  ConsoleSession session(kRequired);
  (void)session.greeting();
  CHECK(session.on_bytes("auth s3cr3tT0ken/+abc\n") ==
        "Android Console: type 'help' for a list of commands\r\nOK\r\n");
  // The emulator's table after auth has no auth command.
  CHECK(session.on_bytes("auth s3cr3tT0ken/+abc\n") == kUnknown);
  CHECK(session.on_bytes("avd\n") == "KO: missing sub-command\r\n");
  CHECK(session.on_bytes("avd snapshot list\n") == "KO:  bad sub-command\r\n");
  CHECK(session.on_bytes("avd  name\n") == "Pixel_7\r\nOK\r\n");
  const std::string verbose = session.on_bytes("help-verbose\n");
  CHECK(verbose.find("    kill             kill the emulator instance\r\n") != std::string::npos);
  SECTION("exit ends the session and nothing after it is read") {
    CHECK(session.on_bytes("exit\nping\n").empty());
    CHECK(session.finished());
  }
  SECTION("a command split across reads") {
    CHECK(session.on_bytes("pi").empty());
    CHECK(session.on_bytes("ng\r").empty());
    CHECK(session.on_bytes("\n") == "I am alive!\r\nOK\r\n");
  }
  SECTION("a line over the emulator's 4096-byte buffer starts over") {
    CHECK(session.on_bytes(std::string(4095, 'x') + "ping\n") == "I am alive!\r\nOK\r\n");
  }
}

TEST_CASE("emulator console: an empty token file turns authentication off", "[vdevice][emulator]") {
  const ConsoleConfig config{"Pixel_7", ConsoleAuth::Disabled, "",
                             "/h/.emulator_console_auth_token"};
  ConsoleSession session(config);
  CHECK(session.greeting() == "Android Console: type 'help' for a list of commands\r\nOK\r\n");
  CHECK(session.on_bytes("kill\n") == "OK: killing emulator, bye bye\r\nOK\r\n");
  CHECK(session.take_kill_request());
}

TEST_CASE("emulator console: without a token file every connection is refused",
          "[vdevice][emulator]") {
  const ConsoleConfig config{"Pixel_7", ConsoleAuth::Unavailable, "",
                             "/h/.emulator_console_auth_token"};
  ConsoleSession session(config);
  CHECK(session.greeting().empty());
  CHECK(session.finished());
  CHECK(session.on_bytes("avd name\n").empty());
}
