// What a user of the original CLI types, through the built binary (docs/compatibility.md): its
// retired command words answered with their replacement, and the unknown first word that is
// UNKNOWN_COMMAND whatever follows it. Nothing here reaches a device.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_expectations.hpp"
#include "cli_test_paths.hpp"
#include "run_binary.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::kBinary;
using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using nlohmann::json;

namespace {

// A usage refusal of `args`: `code`, exit 2, not delivered, the usage phase.
json usage_refusal(const std::vector<std::string>& args, const std::string& code) {
  CAPTURE(args);
  const json document = expect_error(run_binary(kBinary, args), code, 2);
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

  // Their help is operator setup's page, as in the original.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"setup", "--help"}, {"install", "-h"}, {"help", "setup"}, {"help", "install"}}) {
    CAPTURE(args);
    const RunResult help = run_binary(kBinary, args);
    CHECK(help.exit_code == 0);
    CHECK(help.out.rfind("Usage: clawperator operator setup [OPTIONS]\n", 0) == 0);
    CHECK(help.out.find("  --apk <file>") != std::string::npos);
  }
}

TEST_CASE("an action word's --help is its own page, as in the original", "[cli][compatibility]") {
  struct Asked {
    std::vector<std::string> args;
    std::string usage;
  };
  for (const Asked& asked : std::vector<Asked>{
           {{"skills", "run", "--help"}, "Usage: clawperator skills run [OPTIONS] [target]\n"},
           {{"skills", "run", "com.example.check", "-h"},
            "Usage: clawperator skills run [OPTIONS] [target]\n"},
           {{"help", "skills", "compile-artifact"},
            "Usage: clawperator skills compile-artifact [OPTIONS] [target]\n"},
           {{"operator", "setup", "--help"}, "Usage: clawperator operator setup [OPTIONS]\n"},
           {{"recording", "pull", "--help"}, "Usage: clawperator recording pull [OPTIONS]\n"},
           {{"record", "pull", "--help"}, "Usage: clawperator recording pull [OPTIONS]\n"},
           {{"emulator", "start", "--help"},
            "Usage: clawperator emulator start [OPTIONS] [name]\n"},
           // No such word: the family's page, which lists the words.
           {{"skills", "frobnicate", "--help"},
            "Usage: clawperator skills [OPTIONS] [action] [target]\n"},
           {{"skills", "--help"}, "Usage: clawperator skills [OPTIONS] [action] [target]\n"},
       }) {
    CAPTURE(asked.args);
    const RunResult help = run_binary(kBinary, asked.args);
    CHECK(help.exit_code == 0);
    CHECK(help.err.empty());
    CHECK(help.out.rfind(asked.usage, 0) == 0);
  }
  const RunResult run = run_binary(kBinary, {"skills", "run", "--help"});
  CHECK(run.out.find("--expect-contains") != std::string::npos);
  CHECK(run.out.find("--artifact") == std::string::npos);
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
    // The original's words, which its own cliHelp test matches, then where the help is.
    CHECK(message.find("' has been removed. Use '" + form.replacement +
                       "' instead. Run 'clawperator " + form.replacement + " --help' for usage.") !=
          std::string::npos);
  }
  CHECK(usage_refusal({"action", "click", "--selector"}, "UNKNOWN_COMMAND")["message"] ==
        "'action click' has been removed. Use 'click' instead. Run 'clawperator click --help' for "
        "usage.");
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
  const RunResult help = run_binary(kBinary, {"observe", "snapshot", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.rfind("Usage: clawperator [OPTIONS] [COMMAND]", 0) == 0);
}

TEST_CASE("the original's families not built here say so, with no look-alike suggested",
          "[cli][compatibility]") {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"daemon", "start"}, {"daemon", "status"}}) {
    const json document = usage_refusal(args, "UNKNOWN_COMMAND");
    CHECK(document["message"] == "Unknown command: " + args[0] + ". The original's " + args[0] +
                                     " commands are not part of this CLI "
                                     "(docs/compatibility.md). Use --help for available commands.");
    CHECK_FALSE(document.contains("suggestion"));  // not `read` or `operator`
  }
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

TEST_CASE("a blank --operator-package / --receiver-package is refused, never the default",
          "[cli][compatibility]") {
  const std::string payload = std::string(CLAWPERATOR_EXAMPLES_DIR) + "/snapshot.json";
  for (const std::string spelling : {"--operator-package", "--receiver-package"}) {
    for (const std::string blank : {"", "   ", "\t", "\xc2\xa0"}) {
      for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
               {"exec", "--validate-only", payload}, {"snapshot", "--dry-run"}, {"devices"}}) {
        std::vector<std::string> args = {spelling, blank};
        args.insert(args.end(), command.begin(), command.end());
        const json document = usage_refusal(args, "USAGE");
        CHECK(document["message"] == spelling + " requires a value");
        CHECK(document["details"]["flag"] == spelling);
      }
    }
  }
  // The environment's package does not stand in for a blank flag either.
  RunOptions with_environment;
  with_environment.extra_env = {{"CLAWPERATOR_OPERATOR_PACKAGE", "com.clawperator.operator.dev"}};
  const json document = expect_error(
      run_binary(kBinary, {"--receiver-package", "", "devices"}, with_environment), "USAGE", 2);
  CHECK(document["details"]["flag"] == "--receiver-package");
  // A padded package is the package, trimmed.
  const json setup =
      expect_error(run_binary(kBinary, {"--receiver-package", " com.clawperator.operator.dev ",
                                        "operator", "setup", "--apk", "/nonexistent/operator.apk",
                                        "--adb", "/nonexistent/adb"}),
                   "OPERATOR_APK_NOT_FOUND", 3);
  CHECK(setup["operatorPackage"] == "com.clawperator.operator.dev");
}

TEST_CASE("a blank --device / --device-id is refused, never the only device",
          "[cli][compatibility]") {
  // ANDROID_SERIAL does not stand in for a blank flag: `--device "$SERIAL"` with SERIAL unset
  // must not drive whichever phone is plugged in.
  RunOptions with_environment;
  with_environment.extra_env = {{"ANDROID_SERIAL", "emulator-5554"}};
  for (const std::string spelling : {"--device", "--device-id"}) {
    for (const std::string blank : {"", "  ", "\xe3\x80\x80"}) {
      for (const std::vector<std::string>& command :
           std::vector<std::vector<std::string>>{{"snapshot", "--dry-run"}, {"devices"}}) {
        std::vector<std::string> args = {spelling, blank};
        args.insert(args.end(), command.begin(), command.end());
        const json document = expect_error(run_binary(kBinary, args, with_environment), "USAGE", 2);
        CHECK(document["message"] == spelling + " requires a value");
        CHECK(document["details"]["flag"] == spelling);
        CHECK(document["disposition"]["delivery"] == "not_delivered");
      }
    }
  }
}

TEST_CASE("a command's flag before the command word says where it goes", "[cli][compatibility]") {
  const json document = usage_refusal({"--text", "OK", "click"}, "USAGE");
  CHECK(document["message"] ==
        "'--text' is an option of click: put it after the command word (clawperator click --text "
        "...)");
  CHECK(document["details"]["flag"] == "--text");
  CHECK_FALSE(document.contains("suggestion"));  // not "did you mean '--text'"
  // A real typo keeps its suggestion.
  CHECK(usage_refusal({"click", "--textt", "OK"}, "USAGE")["suggestion"] == "--text");
}

TEST_CASE("a flag's error names the spelling typed", "[cli][compatibility]") {
  struct Case {
    std::vector<std::string> args;
    std::string code;
    std::string message;
    std::string flag;
  };
  for (const Case& c : std::vector<Case>{
           {{"--receiver-package"},
            "USAGE",
            "--receiver-package requires a value",
            "--receiver-package"},
           {{"--operator-package"},
            "USAGE",
            "--operator-package requires a value",
            "--operator-package"},
           {{"devices", "--device-id"}, "USAGE", "--device-id requires a value", "--device-id"},
           {{"snapshot", "--timeout-ms"}, "USAGE", "--timeout-ms requires a value", "--timeout-ms"},
           {{"--format", "yaml", "errors"},
            "USAGE",
            "--format must be one of: json, pretty (got 'yaml')",
            "--format"},
           {{"--timeout-ms", "5000", "devices"},
            "USAGE",
            "--timeout-ms bounds commands that run on a device (exec, click, snapshot, ...); "
            "devices does not take it",
            "--timeout-ms"},
           {{"--timeout", "5000", "devices"},
            "USAGE",
            "--timeout bounds commands that run on a device (exec, click, snapshot, ...); "
            "devices does not take it",
            "--timeout"},
           // One option under both spellings: given twice, named as typed last.
           {{"--timeout", "5000", "--timeout-ms=6000", "errors"},
            "USAGE",
            "--timeout-ms given more than once",
            "--timeout-ms"},
           {{"--device", "a", "--device", "b", "devices"},
            "USAGE",
            "--device given more than once",
            "--device"},
           {{"wait", "--text", "OK", "--timeout-ms", "0", "--validate-only"},
            "EXECUTION_VALIDATION_FAILED",
            "--timeout-ms must be a positive number of milliseconds when specified. Omit "
            "--timeout-ms to use the default wait cap.",
            "--timeout-ms"},
       }) {
    const json document = usage_refusal(c.args, c.code);
    CHECK(document["message"] == c.message);
    CHECK(document["details"]["flag"] == c.flag);
  }
}

TEST_CASE("type --text without a selector, and scroll sideways: the codes kept and why",
          "[cli][compatibility]") {
  // Text but no field to type it into: MISSING_SELECTOR, as the original; the hint does not
  // offer --text, which is the text here.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"type", "--text", "hello"}, {"type", "hello"}, {"fill", "--text", "hello"}}) {
    const json document = usage_refusal(args, "MISSING_SELECTOR");
    CHECK(document["message"].get<std::string>().rfind("type requires a selector.\n", 0) == 0);
    CHECK(document["hint"] ==
          "Add a selector such as `--id`, `--role` or `--selector` and rerun (--text is the text "
          "to type here).");
  }
  // --text without its value: the original's EXECUTION_VALIDATION_FAILED, as for a selector
  // flag without one, not "type requires text".
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"type", "--text"},
                                             {"type", "--text", "--role", "textfield"},
                                             {"type", "--id", "field", "--text"}}) {
    const json document = usage_refusal(args, "EXECUTION_VALIDATION_FAILED");
    CHECK(document["message"] == "--text requires a value");
    CHECK(document["details"]["flag"] == "--text");
  }
  // A direction given and invalid is EXECUTION_VALIDATION_FAILED for every scroll command, as
  // the same direction in a payload is; only a missing one is MISSING_ARGUMENT.
  json document = usage_refusal({"scroll", "sideways"}, "EXECUTION_VALIDATION_FAILED");
  CHECK(document["details"]["flag"] == "--direction");
  CHECK(document["message"].get<std::string>().rfind("Invalid scroll direction 'sideways'.", 0) ==
        0);
  document = usage_refusal({"scroll", "--direction", "sideways"}, "EXECUTION_VALIDATION_FAILED");
  CHECK(document["details"]["flag"] == "--direction");
  for (const std::string command : {"scroll-until", "scroll-and-click"}) {
    document = usage_refusal({command, "sideways", "--text", "OK"}, "EXECUTION_VALIDATION_FAILED");
    CHECK(document["message"] ==
          "Invalid direction: sideways. Valid directions: down, up, left, right");
    CHECK(document["details"]["flag"] == "--direction");
  }
  const std::string payload =
      R"({"commandId":"c","taskId":"t","source":"s","expectedFormat":"android-ui-automator",)"
      R"("timeoutMs":5000,"actions":[{"id":"a","type":"scroll","params":{"direction":"sideways"}}]})";
  CHECK(expect_error(run_binary(kBinary, {"exec", payload, "--validate-only"}),
                     "EXECUTION_VALIDATION_FAILED",
                     2)["details"]["path"] == "actions.0.params.direction");
  usage_refusal({"scroll"}, "MISSING_ARGUMENT");
}

TEST_CASE("an unknown operator word names the command to type", "[cli][compatibility]") {
  // The original's message names `operator setup`, and its own test matches that text
  // (tests/original_suite/run.sh, cliHelp "returns USAGE for unknown operator subcommand").
  const json document = usage_refusal({"operator", "unknown"}, "USAGE");
  CHECK(document["message"] ==
        "Unknown operator subcommand: unknown. Use: clawperator operator setup --apk <path> "
        "(alias: operator install)");
  CHECK(document["details"]["argument"] == "unknown");
}
