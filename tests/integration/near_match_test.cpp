// Help for near misses through the real binary and the real adb (docs/payload.md §13, §14):
// NODE_NOT_FOUND names what on the screen was meant, with a matcher ready to paste; a
// hand-written payload may leave out its boilerplate.
#include <string>

#include "farm_fixture.hpp"

using clawperator::testing::Farm;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;

namespace {

void open_settings_app(const Farm& farm) {
  REQUIRE(farm.clawperator({"open", "com.android.settings", "--device", farm.serials().front()})
              .exit_code == 0);
}

}  // namespace

TEST_CASE("click --text in the wrong case: NODE_NOT_FOUND names the row it meant",
          "[integration][near-matches]") {
  Farm farm({"default"});
  const std::string device = farm.serials().front();
  open_settings_app(farm);
  // What a miss with nothing close looks like: the same code, exit and disposition.
  const RunResult far = farm.clawperator({"click", "--text", "Zebra crossing", "--device", device});
  const json far_document = single_document(far);
  INFO(far_document.dump(2).substr(0, 3000));
  REQUIRE(far_document["code"] == "NODE_NOT_FOUND");
  CHECK(far_document["details"]["nearMatches"] == json::array());
  CHECK(far.err.find("did you mean") == std::string::npos);

  const RunResult result =
      farm.clawperator({"click", "--text", "network & internet", "--device", device});
  const json document = single_document(result);
  INFO(document.dump(2).substr(0, 3000) << "\nstderr: " << result.err);
  CHECK(result.exit_code == far.exit_code);
  CHECK(result.exit_code == 1);
  CHECK(document["code"] == "NODE_NOT_FOUND");
  CHECK(document["disposition"] == far_document["disposition"]);
  const json& near = document["details"]["nearMatches"];
  REQUIRE(near.is_array());
  REQUIRE_FALSE(near.empty());
  CHECK(near.size() <= 5);
  CHECK(near[0]["text"] == "Network & internet");
  CHECK(near[0]["matcher"] == json{{"textEquals", "Network & internet"}});
  CHECK(near[0]["why"] == "text differs from \"network & internet\" only in case");
  CHECK(result.err.find("did you mean {\"textEquals\":\"Network & internet\"}") !=
        std::string::npos);
  // The failure's own members are where they were; the details come before the envelope.
  CHECK(document["failedStep"]["actionType"] == "click");
  CHECK(document.contains("envelope"));

  // The matcher pasted into a payload finds the row.
  const RunResult pasted = farm.exec(json::array(
      {{{"id", "tap"}, {"type", "click"}, {"params", {{"matcher", near[0]["matcher"]}}}}}));
  INFO(pasted.out.substr(0, 2000));
  CHECK(pasted.exit_code == 0);
  // The read was one query_ui under its own command id; a run that found its node read nothing.
  CHECK(farm.logged_count("exec.start", "near-matches-query-") == 2);
}

TEST_CASE("a close miss in a payload: a misspelt word, a description, a sequence",
          "[integration][near-matches]") {
  Farm farm({"default"});
  open_settings_app(farm);
  const RunResult typo =
      farm.exec(json::array({{{"id", "tap"},
                              {"type", "click"},
                              {"params", {{"matcher", {{"textEquals", "Network & internt"}}}}}}}));
  const json document = single_document(typo);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(typo.exit_code == 1);
  REQUIRE(document["code"] == "NODE_NOT_FOUND");
  REQUIRE_FALSE(document["details"]["nearMatches"].empty());
  CHECK(document["details"]["nearMatches"][0]["matcher"] ==
        json{{"textEquals", "Network & internet"}});
  CHECK(document["details"]["nearMatches"][0]["why"] ==
        "text is 1 character from \"Network & internt\"");
}

TEST_CASE("the short form runs through exec on the device and --validate-only shows it",
          "[integration][short-form]") {
  Farm farm({"default"});
  const std::string device = farm.serials().front();
  const std::string payload = R"({"actions": [{"type": "snapshot"}]})";
  const RunResult shown = farm.clawperator({"exec", payload, "--validate-only"});
  const json validated = single_document(shown);
  INFO(validated.dump());
  REQUIRE(shown.exit_code == 0);
  const json& execution = validated["execution"];
  const std::string command_id = execution["commandId"];
  CHECK(command_id.rfind("exec-", 0) == 0);
  CHECK(command_id.size() == 5 + 32);
  CHECK(execution["taskId"] == command_id);
  CHECK(execution["source"] == "clawperator-cli");
  CHECK(execution["timeoutMs"] == 30000);
  CHECK(execution["actions"] == json::array({{{"id", "a1"}, {"type", "snapshot"}}}));

  const RunResult ran = farm.clawperator({"exec", payload, "--device", device});
  const json document = single_document(ran);
  INFO(document.dump().substr(0, 2000));
  CHECK(ran.exit_code == 0);
  CHECK(document["envelope"]["stepResults"][0]["id"] == "a1");
  const std::string ran_id = document["envelope"]["commandId"];
  CHECK(ran_id.rfind("exec-", 0) == 0);
  CHECK(ran_id != command_id);  // drawn afresh for each run

  // A sequence of short forms: each payload its own command id.
  const RunResult sequence =
      farm.clawperator({"exec", R"({"executions": [{"actions": [{"type": "snapshot"}]},
                                   {"actions": [{"type": "snapshot"}]}]})",
                        "--device", device});
  const json both = single_document(sequence);
  INFO(both.dump().substr(0, 2000));
  REQUIRE(sequence.exit_code == 0);
  CHECK(both["executions"][0]["envelope"]["commandId"] !=
        both["executions"][1]["envelope"]["commandId"]);
}
