// Every command's --help, walked from the CLI definition (build_cli, subcommands of
// subcommands included), has the one layout of docs/commands.md "Help": the usage line with the
// program's name and the command's path, the description, the arguments and option groups,
// then the footer's sections in their order, the Budget exactly for the commands that take
// --timeout, and the pointer to the global options last; one blank line between blocks.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
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
    const std::string help = app->help();
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

    if (app == root.get()) {
      CHECK(blocks[0] == "Usage: clawperator [OPTIONS] [COMMAND]");
      CHECK(blocks.back() == "Run 'clawperator errors' for the catalog of error codes.");
      continue;
    }
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
    CHECK(has_examples);
    bool takes_timeout = false;
    for (const Command& command : commands) {
      if (command.app == app) takes_timeout = command.takes_timeout;
    }
    CHECK(has_budget == takes_timeout);
    // What --timeout means is said once, in the Budget block.
    CHECK(help.find("sets the execution timeout") == std::string::npos);
    CHECK(help.find("overrides the execution timeout") == std::string::npos);
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
