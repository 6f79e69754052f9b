// The one main of every Catch2 test binary (unit, cli, integration).
//
// The tests must not depend on the developer's shell: an exported ANDROID_SERIAL, an
// ADB_SERVER_SOCKET pointing at a real phone's server, or a CLAWPERATOR_* default would
// otherwise change which device or server a test talks to and what the CLI prints. Each variable
// the CLI or adb reads for a default (docs/contract.md §1.1) is removed before any
// test runs; tests that need one set it themselves (tests/integration/farm_fixture.hpp,
// tests/unit/adb/server_endpoint_test.cpp).
//
// A run in which a case skipped (tests/support/skip.hpp) and none failed exits with
// kSkipExitCode, for ctest's SKIP_RETURN_CODE; a skip in a case without [may-skip] fails it.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>

#include "skip.hpp"

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

// Tells skip.hpp which case is running.
struct RunningCase : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    clawperator::testing::running_case() = &info;
  }
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    clawperator::testing::running_case() = nullptr;
    TestEventListenerBase::testCaseEnded(stats);
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(RunningCase)

int main(int argc, char* argv[]) {
  for (const char* name : kDeveloperDefaults) unsetenv(name);
  const int failed = Catch::Session().run(argc, argv);
  const auto& skips = clawperator::testing::skips();
  bool undeclared = false;
  for (const clawperator::testing::Skip& skip : skips) {
    std::cout << "Skipped: " << skip.test_case << ": " << skip.reason << "\n";
    if (!skip.may_skip) {
      std::cout << "  error: the case is not tagged [" << clawperator::testing::kMaySkipTag
                << "], so it is not registered as a ctest test of its own: its skip would mark "
                   "every case run beside it skipped\n";
      undeclared = true;
    }
  }
  if (undeclared) return failed != 0 ? failed : 1;
  if (failed == 0 && !skips.empty()) return clawperator::testing::kSkipExitCode;
  return failed;
}
