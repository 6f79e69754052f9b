// The shell completions and the man page that generate_cli_docs writes from
// build_cli(): every command, alias and flag is there, and the shells and man
// accept the files; docs/commands.md names every command and flag too.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
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

const std::string kGenerator = GENERATE_CLI_DOCS_BINARY;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The words of a file: runs of letters, digits, '_' and '-' ("--payload", "read-kv").
std::set<std::string> words_of(const std::string& text) {
  std::set<std::string> words;
  std::string word;
  for (const char c : text + ' ') {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_') {
      word += c;
    } else if (!word.empty()) {
      words.insert(word);
      word.clear();
    }
  }
  return words;
}

// The program's path on $PATH, or empty.
std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

// What build_cli() defines, as the generator read it.
json cli_listing() {
  const RunResult result = run_binary(kGenerator, {"--list"});
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  const json listing = json::parse(result.out, nullptr, false);
  REQUIRE_FALSE(listing.is_discarded());
  REQUIRE(listing["commands"].size() > 10);
  return listing;
}

// Runs the generator into `directory`; its path.
const std::filesystem::path& generate(const TemporaryDirectory& directory) {
  const RunResult result = run_binary(kGenerator, {directory.path().string()});
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  return directory.path();
}

const json& command_named(const json& listing, const std::string& name) {
  for (const json& command : listing["commands"]) {
    if (command["name"] == name) return command;
  }
  FAIL("no command " << name);
  return listing;
}

// Every flag name of the command and the global flags.
std::vector<std::string> flags_of(const json& listing, const std::string& command) {
  std::vector<std::string> names;
  for (const json* flags : {&listing["globals"], &command_named(listing, command)["flags"]}) {
    for (const json& flag : *flags) {
      for (const json& name : flag["names"]) names.push_back(name.get<std::string>());
    }
  }
  return names;
}

const std::vector<std::string> kCompletions = {"clawperator.bash", "_clawperator",
                                               "clawperator.fish"};
const std::vector<std::string> kSampleCommands = {"exec", "click", "screenshot", "scroll-until"};

}  // namespace

TEST_CASE("every command and alias is in each completion file", "[docs]") {
  const json listing = cli_listing();
  const TemporaryDirectory generated("docs");
  const std::filesystem::path& dir = generate(generated);
  for (const std::string& file : kCompletions) {
    const std::set<std::string> words = words_of(read_text(dir / file));
    for (const json& command : listing["commands"]) {
      std::vector<std::string> names = {command["name"].get<std::string>()};
      for (const json& alias : command["aliases"]) names.push_back(alias.get<std::string>());
      for (const std::string& name : names) {
        INFO(file << ": " << name);
        CHECK(words.count(name) == 1);
      }
    }
  }
  CHECK(command_named(listing, "exec")["aliases"].size() >= 1);
}

TEST_CASE("the flags of a few commands are in each completion file", "[docs]") {
  const json listing = cli_listing();
  const TemporaryDirectory generated("docs");
  const std::filesystem::path& dir = generate(generated);
  const std::set<std::string> bash = words_of(read_text(dir / "clawperator.bash"));
  const std::set<std::string> zsh = words_of(read_text(dir / "_clawperator"));
  const std::string fish = read_text(dir / "clawperator.fish");
  for (const std::string& command : kSampleCommands) {
    for (const std::string& flag : flags_of(listing, command)) {
      INFO(command << " " << flag);
      CHECK(bash.count(flag) == 1);
      CHECK(zsh.count(flag) == 1);
      const std::string fish_flag =
          flag.rfind("--", 0) == 0 ? " -l " + flag.substr(2) + " " : " -s " + flag.substr(1) + " ";
      CHECK(fish.find(fish_flag) != std::string::npos);
    }
  }
  // File arguments complete file names.
  CHECK(fish.find(" -l payload -r -F ") != std::string::npos);
  CHECK(read_text(dir / "_clawperator").find("'--payload[") != std::string::npos);
}

TEST_CASE("the shells parse the completion files", "[docs][may-skip]") {
  const TemporaryDirectory generated("docs");
  const std::filesystem::path& dir = generate(generated);
  const RunResult bash = run_binary("bash", {"-n", (dir / "clawperator.bash").string()});
  INFO("bash: " << bash.err);
  CHECK(bash.exit_code == 0);
  CHECK(bash.err.empty());
  if (find_program("fish").empty()) {
    clawperator::testing::note_skip(
        "fish not installed: clawperator.fish not checked with fish --no-execute");
  } else {
    const RunResult fish =
        run_binary("fish", {"--no-execute", (dir / "clawperator.fish").string()});
    INFO("fish: " << fish.err);
    CHECK(fish.exit_code == 0);
  }
}

TEST_CASE("the man page has the usual sections and renders cleanly", "[docs][may-skip]") {
  const TemporaryDirectory generated("docs");
  const std::filesystem::path& dir = generate(generated);
  const std::string page = read_text(dir / "clawperator.1");
  CHECK(page.find(".TH CLAWPERATOR 1 ") != std::string::npos);
  for (const std::string section :
       {"NAME", "SYNOPSIS", "COMMANDS", "\"EXIT STATUS\"", "\"GLOBAL OPTIONS\""}) {
    INFO(section);
    CHECK(page.find("\n.SH " + section + "\n") != std::string::npos);
  }
  // The exit-code table of the help footer.
  for (const std::string code : {"0", "1", "2", "3", "4", "70", "130"}) {
    CHECK(page.find("\n.B " + code + "\n") != std::string::npos);
  }
  const std::string path = (dir / "clawperator.1").string();
  if (find_program("groff").empty()) {
    clawperator::testing::note_skip(
        "groff not installed: clawperator.1 not checked with groff -ww");
  } else {
    const RunResult groff = run_binary("groff", {"-man", "-ww", "-z", path});
    INFO("groff: " << groff.err);
    CHECK(groff.exit_code == 0);
    CHECK(groff.err.empty());
  }
  if (find_program("man").empty()) {
    clawperator::testing::note_skip("man not installed: clawperator.1 not rendered with man -l");
  } else {
    RunOptions options;
    options.extra_env = {{"MANWIDTH", "80"}, {"LC_ALL", "C.UTF-8"}};
    const RunResult man = run_binary("man", {"--warnings", "-l", path}, options);
    INFO("man: " << man.err);
    CHECK(man.exit_code == 0);
    CHECK(man.err.empty());
    CHECK(man.out.find("EXIT STATUS") != std::string::npos);
  }
}

TEST_CASE("bash completes the action words of operator and packages", "[docs]") {
  const TemporaryDirectory generated("docs");
  const std::filesystem::path& dir = generate(generated);
  // What bash offers for the last word of a command line, with the generated function.
  const auto offered = [&dir](const std::string& words) {
    const RunResult result = run_binary(
        "bash", {"-c",
                 "source \"$1\"; COMP_WORDS=($2 ''); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                 "_clawperator; echo \"${COMPREPLY[*]}\"",
                 "bash", (dir / "clawperator.bash").string(), words});
    INFO(result.err);
    CHECK(result.exit_code == 0);
    return result.out;
  };
  CHECK(offered("clawperator operator") == "setup install\n");
  CHECK(offered("clawperator --device emulator-5554 packages") == "list\n");
  // After the action word, the command's flags again.
  CHECK(offered("clawperator operator setup").find("--apk") != std::string::npos);
  const std::string zsh = read_text(dir / "_clawperator");
  CHECK(zsh.find("'1:action:(setup install)'") != std::string::npos);
  CHECK(read_text(dir / "clawperator.fish").find("-a 'setup install'") != std::string::npos);
}

TEST_CASE("docs/commands.md documents every command and flag", "[docs]") {
  const json listing = cli_listing();
  const std::string doc = read_text(std::filesystem::path(CLAWPERATOR_DOCS_DIR) / "commands.md");
  REQUIRE_FALSE(doc.empty());
  for (const json& command : listing["commands"]) {
    const std::string name = command["name"];
    CAPTURE(name);
    CHECK(doc.find("`" + name) != std::string::npos);
    for (const json& flag : command["flags"]) {
      for (const json& flag_name : flag["names"]) {
        const std::string text = flag_name;
        if (text == "-h" || text == "--help") continue;
        CAPTURE(text);
        CHECK(doc.find("`" + text) != std::string::npos);
      }
    }
  }
  for (const json& flag : listing["globals"]) {
    for (const json& flag_name : flag["names"]) {
      const std::string text = flag_name;
      if (text == "-h") continue;
      CAPTURE(text);
      CHECK(doc.find("`" + text) != std::string::npos);
    }
  }
}
