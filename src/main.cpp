#include <iostream>

#include "clawperator/cli/app.hpp"
#include "clawperator/cli/mcp_command.hpp"
#include "clawperator/mcp/host.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  clawperator::cli::set_mcp_entry(&clawperator::mcp::serve_stdio);
  return clawperator::cli::run(argc, argv, std::cout, std::cerr);
}
