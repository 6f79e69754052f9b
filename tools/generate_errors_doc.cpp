// Writes docs/errors.md from the error catalog table.
#include <fstream>
#include <iostream>

#include "clawperator/contract/error_catalog.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: generate_errors_doc OUTPUT.md\n";
    return 2;
  }
  std::ofstream(argv[1], std::ios::binary)
      << clawperator::contract::render_error_catalog_markdown();
  return 0;
}
