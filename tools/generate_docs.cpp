// Writes the generated parts of docs/: errors.md from the error catalog table, and the action
// table section of payload.md from the action table (between its BEGIN/END markers).
#include <fstream>
#include <iostream>
#include <sstream>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/error_catalog.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: generate_docs DOCS_DIR\n";
    return 2;
  }
  const std::string dir = argv[1];
  std::ofstream(dir + "/errors.md", std::ios::binary)
      << clawperator::contract::render_error_catalog_markdown();

  std::stringstream payload;
  payload << std::ifstream(dir + "/payload.md", std::ios::binary).rdbuf();
  const auto updated = clawperator::contract::with_generated_action_table(payload.str());
  if (!updated) {
    std::cerr << "generate_docs: payload.md has no action table markers\n";
    return 1;
  }
  std::ofstream(dir + "/payload.md", std::ios::binary) << *updated;
  return 0;
}
