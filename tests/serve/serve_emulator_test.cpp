// The /android routes (docs/serve.md, "Emulators"): the documents of `clawperator emulator …`
// through the real adb, with the test SDK (tests/emulator_sdk/) whose emulator is
// `clawperator-vdevice emulator`; bodies checked by our own bounds; each code's status.
#include <signal.h>

#include <filesystem>

#include "emulator_process.hpp"
#include "served.hpp"
#include "test_files.hpp"

namespace clawperator::testing {
namespace {

namespace fs = std::filesystem;

}  // namespace

TEST_CASE("serve: the /android routes create, start, list, stop and delete an emulator",
          "[serve][emulator]") {
  const TemporaryDirectory root{"serve-emulator"};
  const fs::path sdk = root.path() / "sdk";
  const fs::path home = root.path() / "home";
  fs::copy(CLAWPERATOR_EMULATOR_SDK_DIR, sdk, fs::copy_options::recursive);
  fs::create_directories(home);
  const std::uint16_t port = free_console_port();
  const std::string serial = "emulator-" + std::to_string(port);
  Farm farm{Farm::Built{}};
  Served served(farm, {},
                {{"ANDROID_HOME", sdk.string()},
                 {"HOME", home.string()},
                 {"CLAWPERATOR_VDEVICE", CLAWPERATOR_VDEVICE_BINARY},
                 {"CLAWPERATOR_TEST_EMULATOR_PORT", std::to_string(port)},
                 {"CLAWPERATOR_TEST_EMULATOR_BOOT_DELAY_MS", "300"}});
  const std::string image = R"("api": 35, "target": "google_apis", "abi": "x86_64")";

  HttpReply reply = served.get("/android/emulators/running");
  CHECK(reply.status == 200);
  CHECK(reply.body == json::parse(R"({"ok": true, "devices": []})"));

  reply = served.post("/android/emulators/create", R"({"name": "srv", )" + image + "}");
  INFO(reply.text);
  REQUIRE(reply.status == 200);
  CHECK(reply.body["ok"] == true);
  CHECK(reply.body["name"] == "srv");
  CHECK(reply.body["supported"] == true);

  reply = served.post("/android/emulators/srv/start", R"({"headless": true, )" + image + "}");
  INFO(reply.text);
  REQUIRE(reply.status == 200);
  CHECK(reply.body["serial"] == serial);
  CHECK(reply.body["booted"] == true);

  reply = served.get("/android/emulators/running?api=35&target=google_apis&abi=x86_64");
  REQUIRE(reply.body["devices"].size() == 1);
  CHECK(reply.body["devices"][0]["avdName"] == "srv");
  CHECK(reply.body["devices"][0]["supported"] == true);
  CHECK(served.get("/android/emulators/srv").body["running"] == true);
  CHECK(served.get("/android/emulators").body["avds"].size() == 1);

  reply = served.post("/android/emulators/srv/start", "{}");
  CHECK(reply.status == 409);
  CHECK(reply.body["code"] == "EMULATOR_ALREADY_RUNNING");

  reply = served.post("/android/emulators/srv/stop", R"({"stopTimeoutMs": 10000})");
  REQUIRE(reply.status == 200);
  CHECK(reply.body["stopped"] == true);
  reply = served.del("/android/emulators/srv");
  REQUIRE(reply.status == 200);
  CHECK(reply.body["deleted"] == true);
  reply = served.del("/android/emulators/srv");
  CHECK(reply.status == 404);
  CHECK(reply.body["code"] == "EMULATOR_NOT_FOUND");
  reply = served.post("/android/emulators/srv/stop", "");
  CHECK(reply.status == 404);
  CHECK(reply.body["code"] == "EMULATOR_NOT_RUNNING");
}

TEST_CASE("serve: an /android body is checked field by field before any tool runs",
          "[serve][emulator]") {
  Farm farm{Farm::Built{}};
  Served served(farm, {},
                {{"EMULATOR_PATH", "/nonexistent/emulator"},
                 {"SDKMANAGER_PATH", "/nonexistent/sdkmanager"},
                 {"AVDMANAGER_PATH", "/nonexistent/avdmanager"}});
  const std::vector<std::tuple<std::string, std::string, std::string, std::string>> refused = {
      {"/android/emulators/create", R"({"api": "35"})", "INVALID_BODY", "api"},
      {"/android/emulators/create", R"({"api": 7})", "INVALID_BODY", "api"},
      {"/android/emulators/create", R"({"name": "../x"})", "INVALID_BODY", "name"},
      {"/android/emulators/create", R"({"headless": true})", "INVALID_BODY", "headless"},
      {"/android/emulators/x/stop", R"({"api": 35})", "INVALID_BODY", "api"},
      {"/android/emulators/x/start", R"({"bootTimeoutMs": 10})", "INVALID_BODY", "bootTimeoutMs"},
      {"/android/emulators/x/start", R"({"emulatorArgs": [""]})", "INVALID_BODY", "emulatorArgs"},
      // Flags that name a host file or program: refused before the SDK is even looked for
      // (it is missing here, which would be 503).
      {"/android/emulators/x/start", R"({"emulatorArgs": ["-logcat-output", "/root/.bashrc"]})",
       "INVALID_BODY", "emulatorArgs"},
      {"/android/provision/emulator", R"({"emulatorArgs": ["-tcpdump", "/tmp/capture"]})",
       "INVALID_BODY", "emulatorArgs"},
      {"/android/provision/emulator",
       R"({"emulatorArgs": ["-no-window", "-qemu", "-chardev", "file,path=/tmp/x,id=c"]})",
       "INVALID_BODY", "emulatorArgs"},
      {"/android/provision/emulator", R"({"emulatorArgs": ["-gpu", "-logcat-output"]})",
       "INVALID_BODY", "emulatorArgs"},
      {"/android/provision/emulator", R"({"emulatorArgs": ["-memory", "2048x"]})", "INVALID_BODY",
       "emulatorArgs"},
      {"/android/provision/emulator", R"({"wipe": "yes"})", "INVALID_BODY", "wipe"},
      {"/android/provision/emulator", R"({"path": "/etc"})", "INVALID_BODY", "path"},
      {"/android/provision/emulator", "{", "INVALID_JSON", ""},
  };
  for (const auto& [path, body, code, field] : refused) {
    INFO(path << " " << body);
    const HttpReply reply = served.post(path, body);
    CHECK(reply.status == 400);
    CHECK(reply.body["code"] == code);
    if (!field.empty()) CHECK(reply.body["details"]["field"] == field);
    if (body.find("-logcat-output") != std::string::npos) {
      CHECK(reply.body["details"]["flag"] ==
            (body.find("-gpu") != std::string::npos ? "-gpu" : "-logcat-output"));
    }
  }
  // The flags on the list pass the check, and the request goes on to find no SDK.
  HttpReply listed =
      served.post("/android/provision/emulator",
                  R"({"emulatorArgs": ["-no-window", "-gpu", "swiftshader_indirect", "-memory",
                         "2048", "-camera-back", "none", "-no-snapshot"]})");
  CHECK(listed.status == 503);
  CHECK(listed.body["code"] == "ANDROID_SDK_TOOL_MISSING");
  // A name that is no AVD name, and a host without the SDK.
  HttpReply reply = served.post("/android/emulators/-rf/start", "{}");
  CHECK(reply.status == 400);
  CHECK(reply.body["code"] == "USAGE");
  reply = served.post("/android/provision/emulator", "{}");
  CHECK(reply.status == 503);
  CHECK(reply.body["code"] == "ANDROID_SDK_TOOL_MISSING");
  CHECK(reply.body["details"]["missingTools"] ==
        json::array({"emulator", "sdkmanager", "avdmanager"}));
}

}  // namespace clawperator::testing
