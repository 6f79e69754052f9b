// `adb install` / `adb uninstall` through the real adb against virtual devices: adb 29 streams
// the APK into `exec:cmd package 'install' '-r' -S SIZE` and runs
// `shell,v2,TERM=xterm:cmd package 'uninstall' 'PKG'`; the virtual device answers as the
// package manager does. What `clawperator operator setup --apk FILE` builds on.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "farm_fixture.hpp"
#include "vdevice/android/formats/virtual_apk.hpp"

using clawperator::testing::Farm;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::vdevice::android::make_virtual_apk;
using clawperator::vdevice::android::VirtualApkManifest;
using nlohmann::json;

namespace {

const std::string kOperatorService =
    "com.clawperator.operator/"
    "clawperator.operator.accessibilityservice.OperatorAccessibilityService";

// A folder for the APK files of one test, removed with it.
class ApkFolder {
 public:
  std::string write(const std::string& name, const std::string& bytes) const {
    return directory_.file(name, bytes);
  }
  std::string apk(const std::string& name, const VirtualApkManifest& manifest,
                  std::size_t filler_bytes = 0) const {
    return write(name, make_virtual_apk(manifest, filler_bytes));
  }

 private:
  clawperator::testing::TemporaryDirectory directory_{"it-apk"};
};

std::string dumpsys_package(const Farm& farm, const std::string& package) {
  return farm.adb({"-s", farm.serials().front(), "shell", "dumpsys", "package", package}).out;
}

}  // namespace

TEST_CASE("adb install streams a virtual APK into the package manager", "[integration][install]") {
  Farm farm({"default"});
  const std::string serial = farm.serials().front();
  const ApkFolder folder;
  const std::string first = folder.apk("app-1.2.apk", {"com.example.app", "1.2", 12});

  const RunResult installed = farm.adb({"-s", serial, "install", "-r", first});
  INFO(installed.out << installed.err);
  CHECK(installed.exit_code == 0);
  CHECK(installed.out == "Performing Streamed Install\nSuccess\n");
  CHECK(installed.err.empty());
  CHECK(farm.adb({"-s", serial, "shell", "pm", "list", "packages", "com.example"}).out ==
        "package:com.example.app\n");
  std::string dump = dumpsys_package(farm, "com.example.app");
  CHECK(dump.find("versionCode=12 ") != std::string::npos);
  CHECK(dump.find("versionName=1.2\n") != std::string::npos);

  SECTION("an update, a refused downgrade, then an allowed one") {
    const std::string newer = folder.apk("app-1.3.apk", {"com.example.app", "1.3", 13});
    CHECK(farm.adb({"-s", serial, "install", "-r", newer}).exit_code == 0);
    CHECK(dumpsys_package(farm, "com.example.app").find("versionName=1.3\n") != std::string::npos);
    const std::string older = folder.apk("app-1.0.apk", {"com.example.app", "1.0", 10});
    const RunResult refused = farm.adb({"-s", serial, "install", "-r", older});
    CHECK(refused.exit_code == 1);
    CHECK(refused.err == "adb: failed to install " + older +
                             ": Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: "
                             "Update version code 10 is older than current 13]\n");
    CHECK(dumpsys_package(farm, "com.example.app").find("versionName=1.3\n") != std::string::npos);
    CHECK(farm.adb({"-s", serial, "install", "-r", "-d", older}).exit_code == 0);
    CHECK(dumpsys_package(farm, "com.example.app").find("versionName=1.0\n") != std::string::npos);
  }
  SECTION("without -r an installed package is refused") {
    const RunResult refused = farm.adb({"-s", serial, "install", first});
    CHECK(refused.exit_code == 1);
    CHECK(refused.err.find("Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install "
                           "com.example.app without first uninstalling.]") != std::string::npos);
  }
  SECTION("bytes that are not an APK") {
    const std::string junk = folder.write("junk.apk", "#!/bin/sh\necho not an apk\n");
    const RunResult refused = farm.adb({"-s", serial, "install", "-r", junk});
    CHECK(refused.exit_code == 1);
    CHECK(refused.err.rfind(
              "adb: failed to install " + junk + ": Failure [INSTALL_PARSE_FAILED_NOT_APK: ", 0) ==
          0);
  }
  SECTION("adb itself refuses a file whose name does not end in .apk") {
    const std::string zip = folder.write("app.zip", make_virtual_apk({"com.example.zip", "1", 1}));
    const RunResult refused = farm.adb({"-s", serial, "install", "-r", zip});
    CHECK(refused.exit_code == 1);
    CHECK(refused.err == "adb: filename doesn't end .apk or .apex: " + zip + "\n");
  }
  SECTION("adb uninstall") {
    const RunResult removed = farm.adb({"-s", serial, "uninstall", "com.example.app"});
    CHECK(removed.exit_code == 0);
    CHECK(removed.out == "Success\n");
    CHECK(farm.adb({"-s", serial, "shell", "pm", "list", "packages", "com.example"}).out.empty());
    const RunResult again = farm.adb({"-s", serial, "uninstall", "com.example.app"});
    CHECK(again.exit_code == 1);
    CHECK(again.out == "Failure [DELETE_FAILED_INTERNAL_ERROR]\n");
  }
}

TEST_CASE("a 3 MiB APK crosses several WRTE messages intact", "[integration][install]") {
  Farm farm({"default"});
  const std::string serial = farm.serials().front();
  const ApkFolder folder;
  const std::string large =
      folder.apk("large.apk", {"com.example.large", "3.0", 300}, std::size_t{3} << 20);
  REQUIRE(std::filesystem::file_size(large) > (std::uintmax_t{3} << 20));
  const RunResult installed = farm.adb({"-s", serial, "install", "-r", large});
  INFO(installed.err);
  CHECK(installed.exit_code == 0);
  CHECK(installed.out.find("Success") != std::string::npos);
  CHECK(dumpsys_package(farm, "com.example.large").find("versionCode=300 ") != std::string::npos);
  // The device goes on serving other streams.
  CHECK(farm.adb({"-s", serial, "shell", "echo", "still", "here"}).out == "still here\n");
}

TEST_CASE("the install-fails scenario fails every install", "[integration][install]") {
  Farm farm({"install-fails"});
  const std::string serial = farm.serials().front();
  const ApkFolder folder;
  const std::string apk = folder.apk("operator.apk", {"com.clawperator.operator", "0.5.3", 503});
  const RunResult refused = farm.adb({"-s", serial, "install", "-r", apk});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE: ") != std::string::npos);
  CHECK(farm.adb({"-s", serial, "shell", "pm", "list", "packages", "com.clawperator"}).out.empty());
}

TEST_CASE("a fresh phone: the installed Operator answers once its service is enabled",
          "[integration][install]") {
  Farm farm({"fresh-phone"});
  const std::string serial = farm.serials().front();
  const ApkFolder folder;
  const std::vector<std::string> snapshot = {"snapshot", "--device", serial, "--timeout", "3000"};

  const RunResult missing = farm.clawperator(snapshot);
  CHECK(missing.exit_code != 0);
  CHECK(single_document(missing)["code"] == "OPERATOR_NOT_INSTALLED");

  const std::string apk = folder.apk("operator.apk", {"com.clawperator.operator", "0.5.3", 503});
  const RunResult installed = farm.adb({"-s", serial, "install", "-r", apk});
  INFO(installed.err);
  REQUIRE(installed.exit_code == 0);
  CHECK(farm.adb({"-s", serial, "shell", "settings", "get", "secure",
                  "enabled_accessibility_services"})
            .out == "null\n");

  const RunResult disabled = farm.clawperator(snapshot);
  CHECK(disabled.exit_code != 0);
  CHECK(single_document(disabled)["code"] == "DEVICE_ACCESSIBILITY_NOT_RUNNING");

  CHECK(farm.adb({"-s", serial, "shell", "settings", "put", "secure",
                  "enabled_accessibility_services", kOperatorService})
            .exit_code == 0);
  const RunResult enabled = farm.clawperator(snapshot);
  const json document = single_document(enabled);
  INFO(document.dump(2).substr(0, 2000));
  CHECK(enabled.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["envelope"]["stepResults"][0]["data"]["text"].get<std::string>().find(
            "<hierarchy") != std::string::npos);
}
