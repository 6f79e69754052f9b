// How a failed command is reported, through the real adb: a failed step has the failure shape
// of a host error (code, failedStep, message, hint, a stderr line and a log line), and a click
// on a device that never answers ends within its --timeout as RESULT_ENVELOPE_TIMEOUT.
#include <chrono>
#include <filesystem>

#include "farm_fixture.hpp"

using clawperator::testing::Farm;
using clawperator::testing::read_file;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;

TEST_CASE("a failed step has a top-level code, failedStep, message and hint",
          "[integration][errors]") {
  Farm farm({"default"});
  const std::string device = farm.serials().front();
  REQUIRE(farm.clawperator({"open", "com.android.settings", "--device", device}).exit_code == 0);
  const RunResult result =
      farm.clawperator({"click", "--text", "Definitely not on screen", "--device", device});
  const json document = single_document(result);
  INFO(document.dump(2));
  CHECK(result.exit_code == 1);
  CHECK(document["ok"] == false);
  const json& failed = document["envelope"]["stepResults"][0];
  REQUIRE(failed["success"] == false);
  const std::string code = failed["data"]["error"];
  CHECK(document["code"] == code);
  CHECK(document["failedStep"] ==
        json{{"id", failed["id"]}, {"actionType", "click"}, {"index", 0}});
  CHECK_FALSE(document["message"].get<std::string>().empty());
  CHECK_FALSE(document["hint"].get<std::string>().empty());
  // Additive: the envelope and the disposition are where they were.
  CHECK(document["envelope"]["status"] == "failed");
  CHECK(document.contains("disposition"));
  // On stderr, one line for a person.
  CHECK(result.err.find("clawperator: " + code + ": ") != std::string::npos);
  // The log line of the failed execution names the code and the step.
  std::string log;
  for (const auto& entry : std::filesystem::directory_iterator(farm.log_dir())) {
    log += read_file(entry.path());
  }
  CHECK(log.find("\"code\":\"" + code + "\"") != std::string::npos);
  CHECK(log.find("\"failedStepId\":\"" + failed["id"].get<std::string>() + "\"") !=
        std::string::npos);
}

TEST_CASE("click --timeout 1000 on a device that never answers ends within the budget",
          "[integration][errors][timeout]") {
  Farm farm({"never-answer"});
  const auto started = std::chrono::steady_clock::now();
  const RunResult result = farm.clawperator(
      {"click", "--text", "OK", "--timeout", "1000", "--device", farm.serials().front()});
  const auto elapsed = std::chrono::steady_clock::now() - started;
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(document["code"] == "RESULT_ENVELOPE_TIMEOUT");
  CHECK(result.exit_code == 4);
  CHECK_FALSE(document["hint"].get<std::string>().empty());
  // The budget plus the documented 5 s grace, with room for a loaded machine.
  CHECK(elapsed < std::chrono::milliseconds(6000 + 1500));
  CHECK(document["details"]["timeoutMs"] == 6000);
}

TEST_CASE("OPERATOR_NOT_INSTALLED: the message says what is missing, the hint what to run",
          "[integration][errors][hints]") {
  Farm farm({"operator-missing"});
  const std::string device = farm.serials().front();
  const RunResult result = farm.clawperator({"snapshot", "--device", device});
  const json document = single_document(result);
  INFO(document.dump(2));
  CHECK(result.exit_code == 3);
  CHECK(document["code"] == "OPERATOR_NOT_INSTALLED");
  const std::string message = document["message"];
  const std::string hint = document["hint"];
  CHECK(message == "Operator APK (com.clawperator.operator) is not installed on " + device);
  // Not the message again: the command that installs it, for this device.
  CHECK(hint.find(message) == std::string::npos);
  CHECK(hint.find("clawperator operator install --device " + device) != std::string::npos);
}
