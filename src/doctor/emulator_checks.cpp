// `doctor --capability emulator`: can this host create and boot an emulator? The SDK's tools
// (where each was found, and whether it runs), hardware acceleration, and room for an AVD
// (docs/emulator.md, docs/setup.md). Nothing here needs a device.
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "checks.hpp"
#include "clawperator/emulator/lifecycle.hpp"
#include "clawperator/emulator/sdk_tools.hpp"

namespace clawperator::doctor {
namespace {

constexpr const char* kEmulatorDocs = "docs/emulator.md";
// An API 35 image (about 3 GB) and a new AVD's user data (6 GB by default) with room to spare.
constexpr unsigned long long kAvdBytes = 8ULL << 30;

}  // namespace

Check check_kvm(DoctorContext&) {
  Check check;
  check.id = "emulator.acceleration.kvm";
  const char* kvm = "/dev/kvm";
  if (::access(kvm, R_OK | W_OK) == 0) {
    check.summary = "/dev/kvm is there and this user may use it: emulators run accelerated";
    return check;
  }
  const int error = errno;
  check.status = Status::Warn;
  check.code = "HOST_DEPENDENCY_MISSING";
  check.evidence = Json{{"path", kvm}, {"errno", error}};
  if (error == ENOENT) {
    check.summary = "No /dev/kvm: emulators will run without hardware acceleration";
    check.detail =
        "Without KVM an x86_64 image boots in software, many times slower, and usually past "
        "any boot timeout. The processor's virtualization (VT-x, AMD-V) is off in the firmware, "
        "the kvm module is not loaded, or this is a VM without nested virtualization.";
    check.fix = Fix{"Make KVM available",
                    {manual_step("Enable virtualization in the firmware (or nested "
                                 "virtualization for this VM), then `sudo modprobe kvm_intel` "
                                 "or `sudo modprobe kvm_amd`")},
                    kEmulatorDocs};
  } else {
    check.summary =
        std::string("/dev/kvm is there but this user cannot use it: ") + std::strerror(error);
    check.detail =
        "The emulator opens /dev/kvm for reading and writing; without it, it falls "
        "back to software and boots many times slower.";
    check.fix = Fix{"Let this user use KVM",
                    {manual_step("sudo usermod -aG kvm $USER, then log in again (or give the CI "
                                 "runner's user access to /dev/kvm with a udev rule)")},
                    kEmulatorDocs};
  }
  return check;
}

Check check_avd_disk(DoctorContext&, const emulator::SdkTools& tools) {
  Check check;
  check.id = "emulator.disk";
  // The AVD home may not exist yet: the nearest directory above it that does.
  std::filesystem::path where = tools.avd_home;
  struct statvfs space {};
  while (::statvfs(where.c_str(), &space) != 0 && where.has_parent_path() &&
         where != where.parent_path()) {
    where = where.parent_path();
  }
  const unsigned long long free_bytes =
      static_cast<unsigned long long>(space.f_bavail) * space.f_frsize;
  check.evidence = Json{{"avdHome", tools.avd_home.string()}, {"freeBytes", free_bytes}};
  if (free_bytes >= kAvdBytes) {
    check.summary = std::to_string(free_bytes >> 30) + " GiB free for AVDs";
    return check;
  }
  check.status = Status::Warn;
  check.code = "HOST_DEPENDENCY_MISSING";
  check.summary = "Only " + std::to_string(free_bytes >> 20) + " MiB free where AVDs are kept";
  check.detail =
      "A new AVD with an API 35 image needs about 8 GiB; creating or booting one may "
      "fail for lack of space.";
  check.fix = Fix{"Make room, or keep AVDs elsewhere",
                  {manual_step("Free space under " + tools.avd_home.string() +
                               ", or set ANDROID_AVD_HOME to a larger disk")},
                  kEmulatorDocs};
  return check;
}

std::vector<Check> check_sdk_tools(DoctorContext& context, const emulator::SdkTools& tools) {
  struct Tool {
    const char* name;
    const std::string& path;
    const std::string& source;
    const char* help;
  };
  // sdkmanager first: it is what installs the emulator, so the first fix a user reads must not
  // ask for it while it is missing itself (issue 49).
  const Tool list[] = {{"sdkmanager", tools.sdkmanager, tools.sdkmanager_source, "--help"},
                       {"avdmanager", tools.avdmanager, tools.avdmanager_source, "--help"},
                       {"emulator", tools.emulator, tools.emulator_source, "-help"}};
  constexpr const char* kInstallCommandLineTools =
      "Install the SDK command-line tools (cmdline-tools/latest), then set ANDROID_HOME to the "
      "SDK";
  bool sdkmanager_runs = false;
  std::vector<Check> checks;
  for (const Tool& tool : list) {
    Check check;
    check.id = std::string("emulator.tools.") + tool.name;
    check.evidence =
        Json{{"path", tool.path},
             {"source", tool.source},
             {"sdkRoot", tools.sdk_root ? Json(tools.sdk_root->string()) : Json(nullptr)}};
    const std::optional<bool> answers =
        emulator::tool_answers(context.runner, {tool.path, tool.help});
    const bool runs = answers.value_or(false);
    if (std::string_view(tool.name) == "sdkmanager") sdkmanager_runs = runs;
    if (runs) {
      check.summary =
          std::string(tool.name) + " runs (" + tool.path + ", from " + tool.source + ")";
    } else {
      check.status = Status::Fail;
      check.code = "ANDROID_SDK_TOOL_MISSING";
      check.summary =
          std::string(tool.name) + " cannot be run (" + tool.path + ", from " + tool.source + ")";
      std::vector<FixStep> steps;
      if (std::string_view(tool.name) != "emulator" || !sdkmanager_runs) {
        steps.push_back(manual_step(kInstallCommandLineTools));
      }
      if (std::string_view(tool.name) == "emulator") {
        steps.push_back(manual_step(
            "sdkmanager \"emulator\", then set ANDROID_HOME to the SDK (or EMULATOR_PATH to the "
            "emulator)"));
      }
      check.fix = Fix{"Install the Android SDK's " + std::string(tool.name), std::move(steps),
                      kEmulatorDocs};
    }
    checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace clawperator::doctor
