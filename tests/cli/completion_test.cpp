// The shell completions generate_cli_docs writes, driven through each shell's own completion
// machinery (bash's programmable completion, zsh's compsys, fish's `complete -C`): every family
// offers its subcommands, the words after them, and every option or word that takes a path
// offers file (or directory) names, as the one CLI definition says (cli/action_words.hpp,
// path_values.hpp).
#include <algorithm>
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

  // What the shell offers for the last word of each line ("clawperator skills " completes an
  // empty word), trailing slashes of directories dropped.
  std::vector<std::set<std::string>> offered(Shell shell,
                                             const std::vector<std::string>& lines) const {
    if (shell == Shell::kZsh) return offered_by_zsh(lines);
    std::vector<std::set<std::string>> offers;
    for (const std::string& line : lines) offers.push_back(offered_by_one_shell(shell, line));
    return offers;
  }

 private:
  RunOptions in_work() const {
    RunOptions options;
    options.working_directory = work.path().string();
    return options;
  }

  static std::set<std::string> words_of(const std::string& text) {
    std::set<std::string> words;
    std::istringstream lines(text);
    std::string word;
    while (std::getline(lines, word)) {
      word = word.substr(0, word.find('\t'));  // fish: WORD<TAB>description
      if (word.size() > 1 && word.back() == '/') word.pop_back();
      if (!word.empty()) words.insert(word);
    }
    return words;
  }

  std::set<std::string> offered_by_one_shell(Shell shell, const std::string& line) const {
    RunResult result;
    const std::filesystem::path& dir = generated.path();
    if (shell == Shell::kBash) {
      result = run_binary("bash",
                          {"-c",
                           "source \"$1\"; read -ra COMP_WORDS <<< \"$2\"; [[ \"$2\" == *' ' ]] && "
                           "COMP_WORDS+=(''); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _clawperator; "
                           "printf '%s\\n' \"${COMPREPLY[@]}\"",
                           "bash", (dir / "clawperator.bash").string(), line},
                          in_work());
    } else {
      result = run_binary("fish",
                          {"--no-config", "-c", "source $argv[1]; complete -C $argv[2]",
                           (dir / "clawperator.fish").string(), line},
                          in_work());
    }
    INFO(shell_name(shell) << " `" << line << "`: " << result.err);
    CHECK(result.exit_code == 0);
    return words_of(result.out);
  }

  // One zsh line editor for all the lines (zsh_complete.zsh): each offer ends with "@@@@".
  std::vector<std::set<std::string>> offered_by_zsh(const std::vector<std::string>& lines) const {
    const TemporaryDirectory lines_dir{"completion-lines"};
    const std::filesystem::path lines_file = lines_dir.path() / "lines";
    std::string text;
    for (const std::string& line : lines) text += line + '\n';
    clawperator::testing::write_file(lines_file, text);
    // A deadline: the driver waits on a shell on a pseudo-terminal.
    const RunResult result = run_binary("timeout",
                                        {"120", "zsh", "-f", CLAWPERATOR_ZSH_COMPLETE_SCRIPT,
                                         generated.path().string(), lines_file.string()},
                                        in_work());
    INFO("zsh: " << result.err);
    CHECK(result.exit_code == 0);
    std::vector<std::set<std::string>> offers;
    std::string offer;
    std::istringstream out(result.out);
    std::string word;
    while (std::getline(out, word)) {
      if (word == "@@@@") {
        offers.push_back(words_of(offer));
        offer.clear();
      } else {
        offer += word + '\n';
      }
    }
    REQUIRE(offers.size() == lines.size());
    return offers;
  }
};

// A line to complete and what the shell must offer for it: exactly those words, or (`at_least`)
// those among others.
struct ExpectedOffer {
  std::string line;
  std::set<std::string> words;
  bool at_least = false;
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
  std::vector<ExpectedOffer> expected;
  for (const json& command : listing["commands"]) {
    const std::string name = command["name"];
    // The first word: a family's subcommands (skills run, recording compile, evidence verify),
    // press keys, scroll directions, error codes.
    if (!command["actionWords"].empty()) {
      ++families;
      expected.push_back({"clawperator " + name + " ", word_set(command["actionWords"])});
      for (const json& alias : command["aliases"]) {
        expected.push_back(
            {"clawperator " + alias.get<std::string>() + " ", word_set(command["actionWords"])});
      }
    }
    // What a subcommand takes next: words, or a directory.
    for (const auto& [action, next] : command["following"].items()) {
      CAPTURE(name, action);
      if (!next.is_array()) CHECK(next == "<dir>");
      expected.push_back({"clawperator " + name + " " + action + " ",
                          next.is_array() ? word_set(next) : bundle_only});
    }
    // Every option of the command that takes a path.
    for (const json& flag : command["flags"]) {
      if (flag["path"] == "") continue;
      ++path_flags;
      expected.push_back(
          {"clawperator " + name + " " + flag["names"].back().get<std::string>() + " ",
           flag["path"] == "directory" ? bundle_only : notes_and_bundle});
    }
  }
  for (const json& flag : listing["globals"]) {
    if (flag["path"] == "") continue;
    ++path_flags;
    expected.push_back(
        {"clawperator " + flag["names"].back().get<std::string>() + " ", notes_and_bundle});
  }
  // The tables this walks are not empty: the families the issue named and the options a user
  // types paths into.
  CHECK(families >= 12);
  CHECK(path_flags >= 15);

  // A payload file for exec's positional, a partial name narrowed to the file.
  expected.push_back({"clawperator exec no", {"notes.txt"}});
  // After a flag's value and the subcommand, the subcommand's flags again.
  expected.push_back({"clawperator skills --registry notes.txt run --reg", {"--registry"}, true});
  // A value that is not a path offers no file names.
  expected.push_back({"clawperator --output ", {"json", "pretty"}});

  std::vector<std::string> lines;
  for (const ExpectedOffer& each : expected) lines.push_back(each.line);
  const std::vector<std::set<std::string>> offers = bench.offered(shell, lines);
  REQUIRE(offers.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CAPTURE(expected[i].line);
    if (expected[i].at_least) {
      CHECK(std::includes(offers[i].begin(), offers[i].end(), expected[i].words.begin(),
                          expected[i].words.end()));
    } else {
      CHECK(offers[i] == expected[i].words);
    }
  }
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
