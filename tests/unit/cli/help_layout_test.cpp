// Every command's --help, walked from the CLI definition (build_cli, subcommands of
// subcommands included), has the one layout of docs/commands.md "Help": the usage line with the
// program's name and the command's path, the description, the arguments and option groups,
// then the footer's sections in their order, the Budget exactly for the commands that take
// --timeout, and the pointer to the global options last; one blank line between blocks.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/cli/app.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"

using namespace clawperator::cli;

namespace {

struct Walked {
  const CLI::App* app;
  std::string path;  // "clawperator mcp serve"
};

void walk(const CLI::App* app, const std::string& path, std::vector<Walked>& out) {
  out.push_back({app, path});
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name().empty()) continue;  // an option group, not a command
    walk(sub, path + " " + sub->get_name(), out);
  }
}

std::vector<std::string> blocks_of(const std::string& text) {
  std::vector<std::string> blocks;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = text.find("\n\n", at);
    blocks.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 2;
  }
  return blocks;
}

std::string first_line(const std::string& block) {
  return block.substr(0, block.find('\n'));
}

// The footer's sections, in the one order they may come in.
const std::vector<std::string> kFooterSections = {"Words:", "Notes:", "Examples:", "Budget:"};

int footer_rank(const std::string& header) {
  for (std::size_t i = 0; i < kFooterSections.size(); ++i) {
    if (kFooterSections[i] == header) return static_cast<int>(i);
  }
  return -1;
}

bool takes_timeout(const std::vector<Command>& commands, const CLI::App* app) {
  for (const Command& command : commands) {
    if (command.app == app) return command.takes_timeout;
  }
  return false;
}

// The one layout (docs/commands.md "Help") of a command's page or an action word's, whose usage
// line starts with `path`.
void check_layout(const std::string& help, const std::string& path, bool with_budget,
                  bool with_examples) {
  INFO(help);
  REQUIRE(help.size() > 2);
  CHECK(help.back() == '\n');
  CHECK(help.find("\n\n\n") == std::string::npos);  // never two blank lines
  const std::vector<std::string> blocks = blocks_of(help.substr(0, help.size() - 1));
  REQUIRE(blocks.size() >= 3);
  CHECK(blocks[0].rfind("Usage: " + path, 0) == 0);
  CHECK(blocks[0].find('\n') == std::string::npos);
  CHECK_FALSE(blocks[1].empty());  // the description
  CHECK(blocks[1].find(':') != 0);
  CHECK(blocks.back() == kGlobalOptionsPointer);
  // Arguments, then option groups, then the footer's sections in their order.
  int last_rank = -1;
  bool in_footer = false;
  bool has_examples = false;
  bool has_budget = false;
  for (std::size_t i = 2; i + 1 < blocks.size(); ++i) {
    const std::string header = first_line(blocks[i]);
    CAPTURE(header);
    CHECK(header.back() == ':');
    CHECK(header.front() != ' ');
    if (header == "Arguments:") CHECK(i == 2);
    const int rank = footer_rank(header);
    if (rank < 0) {
      CHECK_FALSE(in_footer);  // an option group after a footer section
      continue;
    }
    in_footer = true;
    CHECK(rank > last_rank);
    last_rank = rank;
    has_examples = has_examples || header == "Examples:";
    has_budget = has_budget || header == "Budget:";
    // A section's lines are indented under its header.
    std::size_t line = blocks[i].find('\n');
    CHECK(line != std::string::npos);
    while (line != std::string::npos) {
      CHECK(blocks[i].compare(line + 1, 2, "  ") == 0);
      line = blocks[i].find('\n', line + 1);
    }
  }
  if (with_examples) CHECK(has_examples);
  CHECK(has_budget == with_budget);
  // What --timeout means is said once, in the Budget block.
  CHECK(help.find("sets the execution timeout") == std::string::npos);
  CHECK(help.find("overrides the execution timeout") == std::string::npos);
}

}  // namespace

TEST_CASE("every command's help has the one layout", "[cli][help]") {
  RawGlobalFlags raw;
  std::vector<Command> commands;
  const std::unique_ptr<CLI::App> root = build_cli(raw, commands);
  std::vector<Walked> walked;
  walk(root.get(), "clawperator", walked);
  REQUIRE(walked.size() > 30);
  REQUIRE(walked.back().path == "clawperator mcp serve");  // nested commands are walked too

  for (const auto& [app, path] : walked) {
    CAPTURE(path);
    if (app == root.get()) {
      const std::string help = app->help();
      const std::vector<std::string> blocks = blocks_of(help.substr(0, help.size() - 1));
      CHECK(blocks[0] == "Usage: clawperator [OPTIONS] [COMMAND]");
      CHECK(blocks.back() == "Run 'clawperator errors' for the catalog of error codes.");
      continue;
    }
    check_layout(app->help(), path, takes_timeout(commands, app), true);
  }
}

TEST_CASE("exec's help states its default budget", "[cli][help]") {
  RawGlobalFlags raw;
  std::vector<Command> commands;
  const std::unique_ptr<CLI::App> root = build_cli(raw, commands);
  const std::string help = root->get_subcommand("exec")->help();
  CHECK(help.find("Usage: clawperator exec [OPTIONS] [payload]\n") == 0);
  CHECK(help.find("--timeout MS bounds the whole command (default the payload's timeoutMs)") !=
        std::string::npos);
  const std::string click = root->get_subcommand("click")->help();
  CHECK(click.find("Usage: clawperator click [OPTIONS]\n") == 0);
  CHECK(click.find("(default 30 s)") != std::string::npos);
}

namespace {

// The action words a command's "action" argument lists ("a|b|c", "a | b DIR", "setup (alias:
// install)"), read from its help as a user sees it.
std::vector<std::string> action_words(const CLI::App* app) {
  std::vector<std::string> words;
  for (const CLI::Option* option : app->get_options([](const CLI::Option* candidate) {
         return candidate->get_positional() && candidate->get_name(true, false) == "action";
       })) {
    std::string text = option->get_description();
    text = text.substr(0, text.find(" ("));
    std::size_t at = 0;
    while (at <= text.size()) {
      const std::size_t bar = std::min(text.find('|', at), text.size());
      std::string piece = text.substr(at, bar - at);
      piece.erase(0, piece.find_first_not_of(' '));
      words.push_back(piece.substr(0, piece.find(' ')));
      at = bar + 1;
    }
  }
  return words;
}

}  // namespace

TEST_CASE("every action word has its own page in the one layout", "[cli][help]") {
  RawGlobalFlags raw;
  std::vector<Command> commands;
  const std::unique_ptr<CLI::App> root = build_cli(raw, commands);
  std::size_t pages = 0;
  for (const Command& command : commands) {
    for (const std::string& action : action_words(command.app)) {
      const std::string path = "clawperator " + command.app->get_name() + " " + action;
      CAPTURE(path);
      const std::optional<std::string> page = action_help(*command.app, action);
      REQUIRE(page);
      ++pages;
      check_layout(*page, path, command.takes_timeout, false);
      CHECK(page->find("  -h,--help") != std::string::npos);
      CHECK(page->find(" [action]") == std::string::npos);
      // Every example it keeps uses the word.
      const std::size_t examples = page->find("\nExamples:\n");
      if (examples != std::string::npos) {
        const std::string block =
            page->substr(examples + 11, page->find("\n\n", examples + 1) - examples - 11);
        std::size_t line = 0;
        while (line < block.size()) {
          const std::size_t end = std::min(block.find('\n', line), block.size());
          CHECK(block.substr(line, end - line).find(path) != std::string::npos);
          line = end + 1;
        }
      }
    }
    CHECK_FALSE(action_help(*command.app, "no-such-action"));
  }
  CHECK(pages >= 25);  // skills 10, recording 7, emulator 8, evidence 3, operator, packages
}

TEST_CASE("an action word's page has its options and the common ones, not the others",
          "[cli][help]") {
  RawGlobalFlags raw;
  std::vector<Command> commands;
  const std::unique_ptr<CLI::App> root = build_cli(raw, commands);
  const auto page = [&](const char* command, const char* action) {
    return *action_help(*root->get_subcommand(command), action);
  };
  const auto has = [](const std::string& text, const std::string& option) {
    return text.find("\n  " + option + " ") != std::string::npos;
  };
  const std::string run = page("skills", "run");
  CHECK(run.rfind("Usage: clawperator skills run [OPTIONS] [target]\n", 0) == 0);
  CHECK(has(run, "--expect-contains"));
  CHECK(has(run, "--skip-validate"));
  CHECK(has(run, "--registry"));  // every action's
  CHECK_FALSE(has(run, "--artifact"));
  CHECK_FALSE(has(run, "--keyword"));
  CHECK(run.find("clawperator skills run com.example.app.check") != std::string::npos);
  CHECK(run.find("clawperator skills list") == std::string::npos);

  const std::string pull = page("recording", "pull");
  CHECK(has(pull, "--out"));  // "pull: …; parse, compile, export: …"
  CHECK(has(pull, "--force"));
  CHECK(has(pull, "--session-id"));
  CHECK_FALSE(has(pull, "--input"));
  CHECK_FALSE(has(pull, "--baseline"));
  CHECK(has(page("recording", "compile"), "--out"));

  const std::string video = page("evidence", "video");
  CHECK(has(video, "--recorder"));
  CHECK(has(video, "--label"));  // "capture, video start: …"
  CHECK_FALSE(has(video, "--output-dir"));

  CHECK(has(page("operator", "setup"), "--apk"));
  CHECK(page("operator", "install").rfind("Usage: clawperator operator install", 0) == 0);

  // The rule on its own: a description names actions only through a prefix of known words.
  const std::vector<std::string> actions = {"list", "run", "pull", "parse", "video"};
  CHECK(option_applies_to_action("The registry file", "run", actions));
  CHECK(option_applies_to_action("run: skip the gate", "run", actions));
  CHECK_FALSE(option_applies_to_action("run: skip the gate", "list", actions));
  CHECK(option_applies_to_action("pull: a; parse, list: b", "list", actions));
  CHECK_FALSE(option_applies_to_action("pull: a; parse, list: b", "run", actions));
  CHECK(option_applies_to_action("video start: a", "video", actions));
  CHECK(option_applies_to_action("Note: not an action", "run", actions));
  CHECK(option_applies_to_action("The level (default 35); list and run judge it", "run", actions));
}
