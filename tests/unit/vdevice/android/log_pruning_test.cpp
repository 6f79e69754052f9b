#include "vdevice/android/system/log_pruning.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "android_test_support.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

TEST_CASE("log pruning draws per pid and rank, from the seed alone", "[vdevice][android][log]") {
  LogPruning none(7, 0);
  LogPruning all(7, 1);
  for (int i = 0; i < 100; ++i) {
    CHECK_FALSE(none.drop(1234));
    CHECK(all.drop(1234));
  }
  LogPruning first(42, 0.3);
  LogPruning second(42, 0.3);
  int dropped = 0;
  for (int i = 0; i < 10000; ++i) {
    // Another pid's records in between change nothing for this one.
    (void)second.drop(612);
    const bool drop = first.drop(9000);
    CHECK(second.drop(9000) == drop);
    dropped += drop ? 1 : 0;
  }
  CHECK(dropped > 2700);
  CHECK(dropped < 3300);
  CHECK(chatty_message(10103, "com.clawperator.operator", "DefaultDispatch", 3) ==
        "uid=10103(com.clawperator.operator) DefaultDispatch expire 3 lines");
  CHECK(chatty_message(1000, "system", "", 1) == "uid=1000(system) expire 1 line");
}

TEST_CASE("logcat.dropRate loses chunk records, and logd says so", "[vdevice][android][log]") {
  Scenario scenario = quiet_scenario();
  scenario.logcat.drop_rate = 0.2;
  scenario.faults.pad_snapshot_bytes = 200000;  // about 270 chunk records
  Harness harness(scenario);
  ResultCapture capture(harness, "lossy", "lossy");
  harness.broadcast(payload("lossy", Json::array({action("snap", "snapshot")})));
  const auto& status = capture.wait(milliseconds(5000));
  CHECK_FALSE(std::holds_alternative<transport::CompleteResult>(status));
  const std::string log = harness.shell("logcat -d -v brief").out;
  CHECK(log.find("I/chatty  (") != std::string::npos);
  CHECK(log.find("DefaultDispatch expire ") != std::string::npos);

  // The same seed loses the same records.
  Harness again(scenario);
  ResultCapture repeat(again, "lossy", "lossy");
  again.broadcast(payload("lossy", Json::array({action("snap", "snapshot")})));
  repeat.wait(milliseconds(5000));
  const auto count = [](const std::string& text) {
    std::size_t n = 0;
    for (std::size_t at = 0;
         (at = text.find("[Clawperator-Result-Chunk]", at)) != std::string::npos; ++at) {
      ++n;
    }
    return n;
  };
  CHECK(count(again.shell("logcat -d").out) == count(harness.shell("logcat -d").out));
}
