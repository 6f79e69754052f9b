// Results only the Operator can write (docs/guardrails.md §7), through the real adb against the
// virtual device: with com.example.forger installed (examples/scenarios/forger.json), an app
// that logs a forged success envelope for every command before the Operator answers, exec and
// the action commands report the Operator's result and count the forged lines; on a device whose
// logcat shows no uid (no-log-uids.json) the result says it is unproven, and
// --require-authentic-result refuses before anything is sent.
#include "farm_fixture.hpp"

using namespace clawperator::testing;

namespace {

bool forged(const json& document) {
  return document["envelope"].dump().find("forged by com.example.forger") != std::string::npos;
}

void check_authentic(const json& document, int min_foreign_lines) {
  INFO(document.dump().substr(0, 2000));
  CHECK(document["ok"] == true);
  CHECK_FALSE(forged(document));
  const json& authenticity = document["resultAuthenticity"];
  CHECK(authenticity["verified"] == true);
  CHECK(authenticity["uid"].get<long long>() >= 10000);
  CHECK(authenticity["foreignLines"].get<long long>() >= min_foreign_lines);
}

// The device's log lines that mention `text` (the Operator logs every command it receives).
bool device_log_mentions(const Farm& farm, const std::string& text) {
  const RunResult dump = farm.adb({"-s", farm.serials().front(), "logcat", "-d"});
  REQUIRE(dump.exit_code == 0);
  return dump.out.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("authenticity: a forger's envelopes are counted, never taken",
          "[integration][authenticity]") {
  Farm farm({"forger"});
  // A cold exec (presence before the dispatch), then the action commands.
  check_authentic(single_document(farm.exec(json::array({kSnapshot}))), 1);
  check_authentic(single_document(farm.clawperator({"open", "com.android.settings"})), 1);
  const json read = single_document(farm.clawperator({"read", "--text", "Network & internet"}));
  check_authentic(read, 1);
  CHECK(read["envelope"]["stepResults"][0]["data"]["text"] == "Network & internet");
  // A fresh readiness record: the presence check now runs beside the dispatch, and its uid is
  // still waited for before any result line is read.
  check_authentic(single_document(farm.clawperator({"snapshot"})), 1);
  check_authentic(single_document(farm.clawperator({"--require-authentic-result", "snapshot"})), 1);
}

TEST_CASE("authenticity: forged chunks cannot break or replace a chunked result",
          "[integration][authenticity]") {
  Farm farm({"forger-chunked"});
  check_authentic(single_document(farm.exec(json::array({kSnapshot}))), 3);
}

TEST_CASE("authenticity: a logcat without uids proves nothing, and the flag refuses",
          "[integration][authenticity]") {
  Farm farm({"no-log-uids"});
  const json unproven = single_document(farm.exec(json::array({kSnapshot})));
  CHECK(unproven["ok"] == true);
  CHECK(unproven["resultAuthenticity"] ==
        json::parse(R"({"verified":false,"reason":"the device's logcat shows no uid for the )"
                    R"(result's lines","foreignLines":0})"));

  for (const bool from_environment : {false, true}) {
    CAPTURE(from_environment);
    RunResult refused;
    if (from_environment) {
      farm.set_env("CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT", "1");
      refused = farm.clawperator({"click", "--text", "Network & internet"});
      farm.set_env("CLAWPERATOR_REQUIRE_AUTHENTIC_RESULT", "0");
    } else {
      refused =
          farm.clawperator({"--require-authentic-result", "click", "--text", "Network & internet"});
    }
    CHECK(refused.exit_code == 3);
    const json failure = single_document(refused);
    CHECK(failure["code"] == "RESULT_AUTHENTICITY_UNAVAILABLE");
    CHECK(failure["details"]["reason"] ==
          "the device's logcat prints no uid for its lines (its logd does not record the writer)");
    CHECK(failure["details"]["dispatchState"] == "not_dispatched");
    CHECK(failure["disposition"] == json::parse(R"({"delivery":"not_delivered","retry":"safe"})"));
    // The Operator never heard of it.
    CHECK_FALSE(device_log_mentions(farm, failure["details"]["commandId"].get<std::string>()));
  }
  // doctor says so beforehand, as an advisory warning.
  const json doctor = single_document(farm.clawperator({"doctor"}));
  CHECK(doctor["ok"] == true);
  bool warned = false;
  for (const json& check : doctor["checks"]) {
    if (check["id"] != "readiness.result.authenticity") continue;
    warned = check["status"] == "warn" && check["code"] == "RESULT_AUTHENTICITY_UNAVAILABLE" &&
             check["evidence"]["logcatShowsUids"] == false;
  }
  CHECK(warned);
  // It needs the transport that shows uids.
  const RunResult direct =
      farm.clawperator({"--require-authentic-result", "--result-transport", "direct", "snapshot"});
  CHECK(direct.exit_code == 2);
  CHECK(single_document(direct)["code"] == "USAGE");
}

TEST_CASE("authenticity: a forger cannot answer for a silent Operator, only make it wait",
          "[integration][authenticity]") {
  vdevice::android::Scenario silent = scenario("forger");
  silent.faults.never_answer = true;
  Farm farm(Farm::Built{{silent}});
  const RunResult waited = farm.clawperator({"snapshot", "--timeout", "1000"});
  CHECK(waited.exit_code == 4);
  const json failure = single_document(waited);
  INFO(failure.dump().substr(0, 2000));
  CHECK(failure["code"] == "RESULT_ENVELOPE_TIMEOUT");
  CHECK(failure["details"]["foreignLines"].get<long long>() >= 1);
}
