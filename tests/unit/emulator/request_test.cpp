// The emulator flags a caller of serve may pass (docs/serve.md §4): the list, each value's
// form, and the flag named in the refusal.
#include "clawperator/emulator/request.hpp"

#include <catch2/catch.hpp>

using namespace clawperator;
using emulator::check_caller_emulator_args;

namespace {

// The flag a refusal names, or "" when the arguments pass.
std::string refused_flag(const std::vector<std::string>& args) {
  const contract::Status status = check_caller_emulator_args(args);
  if (status) return "";
  CHECK(status.error().code == "INVALID_BODY");
  CHECK(status.error().details["field"] == "emulatorArgs");
  return status.error().details["flag"].get<std::string>();
}

}  // namespace

TEST_CASE("emulatorArgs: only flags that name no host path or program", "[emulator][request]") {
  CHECK(refused_flag({}).empty());
  CHECK(refused_flag({"-no-window", "-no-snapshot", "-wipe-data", "-no-boot-anim", "-gpu",
                      "swiftshader_indirect", "-memory", "4096", "-cores", "2", "-camera-back",
                      "none", "-screen", "multi-touch"})
            .empty());
  // The attacker's flags, and a few more of the kind.
  CHECK(refused_flag({"-logcat-output", "/root/.bashrc"}) == "-logcat-output");
  CHECK(refused_flag({"-no-window", "-tcpdump", "/tmp/x"}) == "-tcpdump");
  CHECK(refused_flag({"-qemu", "-chardev", "file,path=/tmp/x,id=c"}) == "-qemu");
  CHECK(refused_flag({"-skin", "/home/u/skins/evil"}) == "-skin");
  CHECK(refused_flag({"-sysdir", "/"}) == "-sysdir");
  CHECK(refused_flag({"--no-window"}) == "--no-window");
  CHECK(refused_flag({"-no-window=1"}) == "-no-window=1");
  // A value is a value of its kind, never the next flag or a path.
  CHECK(refused_flag({"-gpu"}) == "-gpu");
  CHECK(refused_flag({"-gpu", "-logcat-output", "/x"}) == "-gpu");
  CHECK(refused_flag({"-gpu", "/usr/lib/libGL.so"}) == "-gpu");
  CHECK(refused_flag({"-gpu", "Host"}) == "-gpu");
  CHECK(refused_flag({"-memory", "2048x"}) == "-memory");
  CHECK(refused_flag({"-memory", "1234567890"}) == "-memory");
  CHECK(refused_flag({"-cores", ""}) == "-cores");
  CHECK(refused_flag({"-camera-back", std::string(33, 'a')}) == "-camera-back");
}
