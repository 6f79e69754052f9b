// The layering rule of docs/architecture.md §1, checked over the sources: a front end (cli/,
// mcp/, serve/) is included by no other folder, and the service layer (service/) by all three,
// so that a capability is decided once. The edges that break the rule today are listed, each
// one to be removed by the service layer's steps (issue 45); a new one fails here, and so does a
// listed one that is gone, so the list only shrinks.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "test_locations.hpp"

namespace {

namespace fs = std::filesystem;

// "file -> header" as the sources spell them, both relative to the repository.
const std::set<std::string> kKnownEdges = {
    // The composition roots: each program's main wires its front ends together.
    "src/main.cpp -> clawperator/cli/app.hpp",
    "src/serve/main.cpp -> clawperator/cli/app.hpp",
    "src/main.cpp -> clawperator/cli/mcp_command.hpp",
    "src/main.cpp -> clawperator/mcp/host.hpp",
    "src/serve/main.cpp -> clawperator/cli/mcp_command.hpp",
    "src/serve/main.cpp -> clawperator/mcp/host.hpp",
    // serve's entry hook names the CLI's serve command (cli/serve_command.hpp).
    "include/clawperator/serve/serve_entry.hpp -> clawperator/cli/serve_command.hpp",
};

// The folder a source or header belongs to: src/<folder>/… or include/clawperator/<folder>/….
std::string folder_of(const fs::path& relative) {
  auto part = relative.begin();
  if (part == relative.end()) return "";
  const bool header = *part == "include";
  ++part;
  if (header && part != relative.end()) ++part;                                // past "clawperator"
  if (part == relative.end() || std::next(part) == relative.end()) return "";  // a top file
  return part->string();
}

}  // namespace

TEST_CASE("no folder includes a front end's headers but the front end itself", "[architecture]") {
  const fs::path root = CLAWPERATOR_SOURCE_DIR;
  const std::regex include(R"re(^\s*#\s*include\s+"(clawperator/(cli|mcp|serve)/[^"]+)")re");
  std::set<std::string> found;
  std::size_t files = 0;
  for (const char* top : {"src", "include"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      const std::string extension = entry.path().extension().string();
      if (!entry.is_regular_file() || (extension != ".cpp" && extension != ".hpp")) continue;
      ++files;
      const fs::path relative = entry.path().lexically_relative(root);
      const std::string folder = folder_of(relative);
      std::ifstream in(entry.path(), std::ios::binary);
      for (std::string line; std::getline(in, line);) {
        std::smatch match;
        if (!std::regex_search(line, match, include) || match[2] == folder) continue;
        found.insert(relative.generic_string() + " -> " + match[1].str());
      }
    }
  }
  CHECK(files > 300);
  for (const std::string& edge : found) {
    INFO("a new include of a front end from outside it: route it through the service layer");
    CHECK(kKnownEdges.count(edge) == 1);
    CAPTURE(edge);
  }
  for (const std::string& edge : kKnownEdges) {
    CAPTURE(edge);
    INFO("gone: take it off kKnownEdges, so that it cannot come back");
    CHECK(found.count(edge) == 1);
  }
}
