// What a user of the original CLI types, through the built binary (docs/compatibility.md): its
// retired command words answered with their replacement, and the unknown first word that is
// UNKNOWN_COMMAND whatever follows it. Nothing here reaches a device.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_expectations.hpp"
#include "run_binary.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::run_binary;
using clawperator::testing::RunResult;
using nlohmann::json;

namespace {

// A usage refusal of `args`: `code`, exit 2, not delivered, the usage phase.
json usage_refusal(const std::vector<std::string>& args, const std::string& code) {
  CAPTURE(args);
  const json document = expect_error(run_binary(CLAWPERATOR_BINARY, args), code, 2);
  CHECK(document["details"]["phase"] == "usage");
  return document;
}

}  // namespace

TEST_CASE("setup and install name operator setup, the canonical command", "[cli][compatibility]") {
  const std::string canonical =
      "clawperator operator setup --apk <path> [--device <id>] [--operator-package <package>]";
  json document = usage_refusal({"setup"}, "USAGE");
  CHECK(document["message"] ==
        "clawperator setup is not a valid top-level command. Use: clawperator operator setup "
        "--apk <path>");
  CHECK(document["suggestion"] == "operator setup");
  CHECK(document["canonical"] == canonical);
  document = usage_refusal({"install"}, "USAGE");
  CHECK(document["message"] ==
        "clawperator install is not a valid command. Use: clawperator operator setup --apk <path>");
  CHECK(document["suggestion"] == "operator setup");
  CHECK(document["canonical"] == canonical);
  // Whatever follows, nothing runs: the APK is not installed by the word that only pointed.
  CHECK(usage_refusal({"install", "--apk", "operator.apk", "--device", "emulator-5554"},
                      "USAGE")["suggestion"] == "operator setup");
  CHECK(usage_refusal({"--device", "emulator-5554", "setup", "snapshot"}, "USAGE")["canonical"] ==
        canonical);

  // Their help is operator setup's, as in the original.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"setup", "--help"}, {"install", "-h"}, {"help", "setup"}, {"help", "install"}}) {
    CAPTURE(args);
    const RunResult help = run_binary(CLAWPERATOR_BINARY, args);
    CHECK(help.exit_code == 0);
    CHECK(help.out.rfind("Usage: clawperator operator [OPTIONS] [action]", 0) == 0);
  }
}

TEST_CASE("the removed observe/action forms name their flat command", "[cli][compatibility]") {
  struct Form {
    std::vector<std::string> args;
    std::string replacement;
  };
  for (const Form& form : std::vector<Form>{
           {{"observe", "snapshot"}, "snapshot"},
           {{"observe", "screenshot", "--path", "x.png"}, "screenshot"},
           {{"action", "click", "--text", "OK"}, "click"},
           {{"action", "open-app", "com.android.settings"}, "open"},
           {{"action", "open-uri", "https://example.com"}, "open"},
           {{"action", "type", "hello", "--id", "field"}, "type"},
           {{"action", "read", "--id", "title"}, "read"},
           {{"action", "wait", "--text", "OK"}, "wait"},
           {{"action", "press-key", "back"}, "press"},
           {{"inspect", "ui"}, "snapshot"},
           {{"--device", "emulator-5554", "observe", "snapshot"}, "snapshot"},
       }) {
    const json document = usage_refusal(form.args, "UNKNOWN_COMMAND");
    CHECK(document["suggestion"] == form.replacement);
    const std::string message = document["message"];
    CHECK(message.find("has been removed. Use 'clawperator " + form.replacement + "' instead") !=
          std::string::npos);
  }
  // A removed group without a known form lists the flat commands and suggests none of them.
  json group = usage_refusal({"observe"}, "UNKNOWN_COMMAND");
  CHECK(group["message"] ==
        "'observe' has been removed; its commands are flat now: snapshot, screenshot. Use --help "
        "for available commands.");
  CHECK_FALSE(group.contains("suggestion"));
  group = usage_refusal({"action", "swipe"}, "UNKNOWN_COMMAND");
  CHECK(group["message"] ==
        "'action' has been removed; its commands are flat now: click, open, type, read, wait, "
        "press. Use --help for available commands.");
  // With --help: the overview, not the help of the word CLI11 took as the command.
  const RunResult help = run_binary(CLAWPERATOR_BINARY, {"observe", "snapshot", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.rfind("Usage: clawperator [OPTIONS] [COMMAND]", 0) == 0);
}

TEST_CASE("an unknown first word is UNKNOWN_COMMAND, whatever follows it", "[cli][compatibility]") {
  json document = usage_refusal({"frobnicate"}, "UNKNOWN_COMMAND");
  CHECK(document["message"] == "Unknown command: frobnicate. Use --help for available commands.");
  // Followed by a command word, which CLI11 alone would have run the command with.
  document = usage_refusal({"frobnicate", "snapshot"}, "UNKNOWN_COMMAND");
  CHECK(document["message"] == "Unknown command: frobnicate. Use --help for available commands.");
  document = usage_refusal({"--device", "emulator-5554", "snapshto", "click", "--text", "OK"},
                           "UNKNOWN_COMMAND");
  CHECK(document["suggestion"] == "snapshot");
  // A stray word after a command stays a stray argument.
  CHECK(usage_refusal({"click", "frobnicate"}, "USAGE")["details"]["argument"] == "frobnicate");
}
