// `--visual-text` through the real adb and the virtual device (issue 51): the Flutter-like shop
// of examples/scenarios/drawn-text.json draws its labels without exposing them, so only text
// read off the screen (Tesseract, src/ocr/) finds its buttons. A tap lands and the app reacts;
// a phrase drawn twice is refused without --index; a phrase not there offers the nearest read;
// the policy denies a tap by the words read under it.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "farm_fixture.hpp"
#include "flutter_shop.hpp"

using namespace clawperator::testing;
using nlohmann::json;

namespace {

// The "Buy now" button as the scenario lays it out (drawn_text_test.cpp).
constexpr long kButtonTop = 400;
constexpr long kButtonBottom = 580;

std::string flutter_screen_xml(const Farm& farm) {
  const json document = single_document(farm.exec(json::array({kSnapshot})));
  const json& text = document["envelope"]["stepResults"][0]["data"]["text"];
  REQUIRE(text.is_string());
  return text.get<std::string>();
}

json visual_run(const Farm& farm, const std::vector<std::string>& args, int exit_code) {
  const RunResult result = farm.clawperator(args);
  INFO(result.out << result.err);
  CHECK(result.exit_code == exit_code);
  return single_document(result);
}

}  // namespace

TEST_CASE("visual text: a drawn button tapped by its words, and the app reacts",
          "[integration][visual-text]") {
  Farm farm({"drawn-text"});
  open_flutter_shop(farm);
  CHECK(flutter_screen_xml(farm).find("Buy now") == std::string::npos);  // not in the tree

  // Found, not acted on: where and how sure.
  const json found = visual_run(farm, {"query", "--visual-text", "Buy now"}, 0);
  REQUIRE(found["count"] == 1);
  const json& match = found["matches"][0];
  CHECK(match["text"] == "Buy now");
  CHECK(match["confidence"].get<double>() >= 50);
  CHECK(match["center"]["y"].get<long>() > kButtonTop);
  CHECK(match["center"]["y"].get<long>() < kButtonBottom);

  // A line read whole from a part of it.
  const json read = visual_run(farm, {"read", "--visual-text-contains", "Single origin"}, 0);
  CHECK(read["text"].get<std::string>().find("12 EUR") != std::string::npos);

  const json tapped = visual_run(farm, {"click", "--visual-text", "Buy now"}, 0);
  CHECK(tapped["ok"] == true);
  CHECK(tapped["visualText"]["text"] == "Buy now");
  CHECK(tapped["envelope"]["status"] == "success");
  CHECK(flutter_screen_xml(farm).find("Order placed") != std::string::npos);
  // The next screen's drawn button, waited for by its words.
  const json waited =
      visual_run(farm, {"wait", "--visual-text", "Back to shop", "--wait", "5000"}, 0);
  CHECK(waited["match"]["text"] == "Back to shop");
}

TEST_CASE("visual text: twice drawn, not drawn, unsure and wrong flags, each with its code",
          "[integration][visual-text]") {
  Farm farm({"drawn-text"});
  open_flutter_shop(farm);

  // "Details" is drawn twice: nothing is tapped until --index chooses.
  const json twice = visual_run(farm, {"click", "--visual-text", "Details"}, 1);
  CHECK(twice["code"] == "NODE_AMBIGUOUS");
  CHECK(twice["details"]["candidates"].size() == 2);
  CHECK(twice["disposition"]["delivery"] == "not_delivered");
  CHECK(twice["disposition"]["retry"] == "safe");
  CHECK(flutter_screen_xml(farm).find("Roasted") == std::string::npos);

  // Misspelt: the nearest phrases read are offered.
  const json missing = visual_run(farm, {"click", "--visual-text", "Add to cat"}, 1);
  CHECK(missing["code"] == "NODE_NOT_FOUND");
  CHECK(missing["disposition"]["retry"] == "safe");
  bool offered = false;
  for (const json& phrase : missing["details"]["nearestPhrases"]) {
    offered = offered || phrase == "Add to cart";
  }
  CHECK(offered);

  // Nothing read is this sure.
  const json unsure =
      visual_run(farm, {"click", "--visual-text", "Buy now", "--min-confidence", "100"}, 1);
  CHECK(unsure["code"] == "VISUAL_TEXT_LOW_CONFIDENCE");
  CHECK(unsure["details"]["candidates"].size() == 1);

  // A wait that runs out names the phrase.
  const json late = visual_run(farm, {"wait", "--visual-text", "Sold out", "--wait", "600"}, 1);
  CHECK(late["code"] == "WAIT_TIMEOUT");

  // No device needed to refuse these.
  CHECK(visual_run(farm, {"click", "--visual-text", "Buy now", "--text", "Buy"}, 2)["code"] ==
        "EXECUTION_VALIDATION_FAILED");
  CHECK(visual_run(farm, {"click", "--visual-text", "Buy", "--region", "0,0,10,10"},
                   2)["details"]["flag"] == "--region");
  CHECK(visual_run(farm, {"query", "--visual-text", " "}, 2)["details"]["flag"] == "--visual-text");
  CHECK(visual_run(farm, {"click", "--visual-text", "Buy", "--ocr-lang", "../x"},
                   2)["details"]["flag"] == "--ocr-lang");
  // A language Debian ships separately, not installed here.
  const json no_language =
      visual_run(farm, {"query", "--visual-text", "Buy", "--ocr-lang", "zzz"}, 3);
  CHECK(no_language["code"] == "OCR_UNAVAILABLE");

  // With --index the second "Details" is tapped.
  visual_run(farm, {"click", "--visual-text", "Details", "--index", "1"}, 0);
  // The details screen's words are drawn only: read off the screen.
  CHECK(visual_run(farm, {"query", "--visual-text-contains", "small batches"}, 0)["count"] == 1);
}

TEST_CASE("visual text: the policy denies a tap by the words read under it",
          "[integration][visual-text][policy]") {
  Farm farm({"drawn-text"});
  open_flutter_shop(farm);
  const std::string policy = farm.log_dir() + "-policy.json";
  std::ofstream(policy) << R"({"schemaVersion": 1, "rules": [
    {"id": "no-buying", "decision": "deny", "effects": ["tap"], "labels": ["buy now"],
     "reason": "buying is a person's call"}]})";
  farm.set_env("CLAWPERATOR_POLICY", policy);
  const json denied = visual_run(farm, {"click", "--visual-text", "Buy now"}, 3);
  CHECK(denied["code"] == "POLICY_DENIED");
  CHECK(denied["details"]["ruleId"] == "no-buying");
  CHECK(denied["details"]["visualText"]["text"] == "Buy now");
  CHECK(denied["disposition"]["delivery"] == "not_delivered");
  CHECK(flutter_screen_xml(farm).find("Order placed") == std::string::npos);
  // Another drawn button the rule does not name goes through.
  visual_run(farm, {"click", "--visual-text", "Add to cart"}, 0);
}

TEST_CASE("visual text: snapshot --with-text gives each wordless node the text drawn in it",
          "[integration][visual-text]") {
  Farm farm({"drawn-text"});
  open_flutter_shop(farm);
  const json document = visual_run(farm, {"snapshot", "--with-text"}, 0);
  const json& compact = document["compact"];
  CHECK(compact["recognisedLines"].get<int>() >= 6);
  bool button = false;
  int details = 0;
  for (const json& node : compact["nodes"]) {
    if (!node.contains("recognisedText")) continue;
    CHECK(node["text"] == "");  // only where the tree has no words
    for (const json& line : node["recognisedText"]) {
      CHECK(line["confidence"].get<double>() >= 50);
      if (line["text"] == "Buy now") button = node["bounds"] == "[0,400][1080,580]";
      if (line["text"] == "Details") ++details;
    }
  }
  CHECK(button);
  CHECK(details == 2);  // one in each of the two side-by-side nodes
  // A language that is not installed: nothing half-done.
  CHECK(visual_run(farm, {"snapshot", "--with-text", "--ocr-lang", "zzz"}, 3)["code"] ==
        "OCR_UNAVAILABLE");
  CHECK(visual_run(farm, {"snapshot", "--ocr-lang", "deu"}, 2)["details"]["flag"] == "--ocr-lang");
}
