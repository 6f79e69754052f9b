// `mcp serve`'s way into the MCP server without cli/ including mcp/ (docs/architecture.md §1):
// the program's main sets the entry, as clawperator-serve sets serve's (cli/serve_command.hpp).
#pragma once

#include "clawperator/service/server_start.hpp"

namespace clawperator::cli {

using McpEntry = int (*)(const service::ServerStart& start);
void set_mcp_entry(McpEntry entry);

}  // namespace clawperator::cli
