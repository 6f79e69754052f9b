// The shell completions generate_cli_docs writes, driven through each shell's own completion
// machinery (bash's programmable completion, zsh's compsys, fish's `complete -C`): every family
// offers its subcommands, the words after them, and every option or word that takes a path
// offers file (or directory) names, as the one CLI definition says (cli/action_words.hpp,
// path_values.hpp).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_binary.hpp"
#include "skip.hpp"
#include "test_files.hpp"
#include "test_locations.hpp"

using clawperator::testing::run_binary;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::TemporaryDirectory;
using nlohmann::json;

namespace {

enum class Shell { kBash, kZsh, kFish };

const char* shell_name(Shell shell) {
  switch (shell) {
    case Shell::kBash:
      return "bash";
    case Shell::kZsh:
      return "zsh";
    case Shell::kFish:
      return "fish";
  }
  return "";
}

bool shell_installed(Shell shell) {
  return run_binary("/bin/sh", {"-c", "command -v \"$0\" >/dev/null", shell_name(shell)})
             .exit_code == 0;
}

// The generated files, and a working directory holding one file and one directory to complete.
struct CompletionBench {
  TemporaryDirectory generated{"completions"};
  TemporaryDirectory work{"completion-cwd"};

  CompletionBench() {
    const RunResult result = run_binary(GENERATE_CLI_DOCS_BINARY, {generated.path().string()});
    INFO("stderr: " << result.err);
    REQUIRE(result.exit_code == 0);
    std::filesystem::create_directory(work.path() / "bundle");
    std::ofstream(work.path() / "notes.txt") << "x\n";
  }

  // What the shell offers for the last word of `line` ("clawperator skills " completes an
  // empty word), trailing slashes of directories dropped.
  std::set<std::string> offered(Shell shell, const std::string& line) const {
    RunOptions options;
    options.working_directory = work.path().string();
    RunResult result;
    const std::filesystem::path& dir = generated.path();
    switch (shell) {
      case Shell::kBash:
        result =
            run_binary("bash",
                       {"-c",
                        "source \"$1\"; read -ra COMP_WORDS <<< \"$2\"; [[ \"$2\" == *' ' ]] && "
                        "COMP_WORDS+=(''); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _clawperator; "
                        "printf '%s\\n' \"${COMPREPLY[@]}\"",
                        "bash", (dir / "clawperator.bash").string(), line},
                       options);
        break;
      case Shell::kZsh:
        // A deadline: the driver waits for a shell on a pseudo-terminal.
        result = run_binary(
            "timeout", {"60", "zsh", "-f", CLAWPERATOR_ZSH_COMPLETE_SCRIPT, dir.string(), line},
            options);
        break;
      case Shell::kFish:
        result = run_binary("fish",
                            {"--no-config", "-c", "source $argv[1]; complete -C $argv[2]",
                             (dir / "clawperator.fish").string(), line},
                            options);
        break;
    }
    INFO(shell_name(shell) << " `" << line << "`: " << result.err);
    CHECK(result.exit_code == 0);
    std::set<std::string> words;
    std::istringstream lines(result.out);
    std::string word;
    while (std::getline(lines, word)) {
      word = word.substr(0, word.find('\t'));  // fish: WORD<TAB>description
      if (word.size() > 1 && word.back() == '/') word.pop_back();
      if (!word.empty()) words.insert(word);
    }
    return words;
  }
};

json cli_listing_for_completion() {
  const RunResult result = run_binary(GENERATE_CLI_DOCS_BINARY, {"--list"});
  REQUIRE(result.exit_code == 0);
  return json::parse(result.out);
}

std::set<std::string> word_set(const json& words) {
  std::set<std::string> out;
  for (const json& word : words) out.insert(word.get<std::string>());
  return out;
}

void check_shell_completes_the_cli(Shell shell) {
  const CompletionBench bench;
  const json listing = cli_listing_for_completion();
  const std::set<std::string> notes_and_bundle = {"bundle", "notes.txt"};
  const std::set<std::string> bundle_only = {"bundle"};
  std::size_t families = 0;
  std::size_t path_flags = 0;
  for (const json& command : listing["commands"]) {
    const std::string name = command["name"];
    CAPTURE(name);
    // The first word: a family's subcommands (skills run, recording compile, evidence verify),
    // press keys, scroll directions, error codes.
    if (!command["actionWords"].empty()) {
      ++families;
      CHECK(bench.offered(shell, "clawperator " + name + " ") == word_set(command["actionWords"]));
      for (const json& alias : command["aliases"]) {
        CHECK(bench.offered(shell, "clawperator " + alias.get<std::string>() + " ") ==
              word_set(command["actionWords"]));
      }
    }
    // What a subcommand takes next: words, or a directory.
    for (const auto& [action, next] : command["following"].items()) {
      CAPTURE(action);
      const std::set<std::string> offered =
          bench.offered(shell, "clawperator " + name + " " + action + " ");
      if (next.is_array()) {
        CHECK(offered == word_set(next));
      } else {
        CHECK(next == "<dir>");
        CHECK(offered == bundle_only);
      }
    }
    // Every option of the command that takes a path.
    for (const json& flag : command["flags"]) {
      if (flag["path"] == "") continue;
      const std::string flag_name = flag["names"].back();
      CAPTURE(flag_name);
      ++path_flags;
      const std::set<std::string> offered =
          bench.offered(shell, "clawperator " + name + " " + flag_name + " ");
      CHECK(offered == (flag["path"] == "directory" ? bundle_only : notes_and_bundle));
    }
  }
  for (const json& flag : listing["globals"]) {
    if (flag["path"] == "") continue;
    const std::string flag_name = flag["names"].back();
    CAPTURE(flag_name);
    ++path_flags;
    CHECK(bench.offered(shell, "clawperator " + flag_name + " ") == notes_and_bundle);
  }
  // The tables this walks are not empty: the families the issue named and the options a user
  // types paths into.
  CHECK(families >= 12);
  CHECK(path_flags >= 15);

  // A payload file for exec's positional, a partial name narrowed to the file.
  CHECK(bench.offered(shell, "clawperator exec no") == std::set<std::string>{"notes.txt"});
  // After a flag's value and the subcommand, the subcommand's flags again.
  const std::set<std::string> after =
      bench.offered(shell, "clawperator skills --registry notes.txt run --reg");
  CHECK(after.count("--registry") == 1);
  // A value that is not a path offers no file names.
  CHECK(bench.offered(shell, "clawperator --output ") == std::set<std::string>{"json", "pretty"});
}

}  // namespace

TEST_CASE("bash completes every family's subcommands and every path option", "[docs]") {
  check_shell_completes_the_cli(Shell::kBash);
}

TEST_CASE("zsh completes every family's subcommands and every path option", "[docs][may-skip]") {
  if (!shell_installed(Shell::kZsh)) SKIP_TEST("zsh not installed (scripts/install-deps.sh)");
  check_shell_completes_the_cli(Shell::kZsh);
}

TEST_CASE("fish completes every family's subcommands and every path option", "[docs][may-skip]") {
  if (!shell_installed(Shell::kFish)) SKIP_TEST("fish not installed (scripts/install-deps.sh)");
  check_shell_completes_the_cli(Shell::kFish);
}
