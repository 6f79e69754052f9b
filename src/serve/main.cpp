// clawperator-serve: the clawperator CLI with the HTTP server linked in; `clawperator serve`
// executes it (cli/serve_command.hpp).
#include <iostream>

#include "clawperator/cli/app.hpp"
#include "clawperator/cli/mcp_command.hpp"
#include "clawperator/cli/serve_command.hpp"
#include "clawperator/mcp/host.hpp"
#include "clawperator/serve/serve_entry.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  clawperator::cli::set_serve_entry(&clawperator::serve::serve);
  clawperator::cli::set_mcp_entry(&clawperator::mcp::serve_stdio);
  return clawperator::cli::run(argc, argv, std::cout, std::cerr);
}
