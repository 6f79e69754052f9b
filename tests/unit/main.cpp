// The one main of every Catch2 test binary (unit, cli, integration).
//
// The tests must not depend on the developer's shell: an exported ANDROID_SERIAL, an
// ADB_SERVER_SOCKET pointing at a real phone's server, or a CLAWPERATOR_* default would
// otherwise change which device or server a test talks to and what the CLI prints. Each variable
// the CLI or adb reads for a default (docs/contract.md §1.1) is removed before any
// test runs; tests that need one set it themselves (tests/integration/farm_fixture.hpp,
// tests/unit/adb/server_endpoint_test.cpp).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

namespace {

constexpr const char* kDeveloperDefaults[] = {
    "ADB",
    "ADB_PATH",
    "ADB_SERVER_SOCKET",
    "ANDROID_ADB_SERVER_ADDRESS",
    "ANDROID_ADB_SERVER_PORT",
    "ANDROID_SERIAL",
    "ANDROID_LOG_TAGS",
    "CLAWPERATOR_ADB_RELAY",
    "CLAWPERATOR_LOG_DIR",
    "CLAWPERATOR_LOG_LEVEL",
    "CLAWPERATOR_OPERATOR_PACKAGE",
    "CLAWPERATOR_RESULT_TRANSPORT",
    "CLAWPERATOR_SERVE_TOKEN",
    "CLAWPERATOR_STATE_DIR",
};

}  // namespace

int main(int argc, char* argv[]) {
  for (const char* name : kDeveloperDefaults) unsetenv(name);
  return Catch::Session().run(argc, argv);
}
