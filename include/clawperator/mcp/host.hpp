// `mcp serve`'s tools over the service layer (docs/mcp.md): every tool calls what the CLI's
// command calls, through src/service/, with the session the CLI's global options made.
#pragma once

#include "clawperator/service/server_start.hpp"

namespace clawperator::mcp {

// Serves MCP on stdin and stdout until stdin ends or a signal; the process's exit code.
int serve_stdio(const service::ServerStart& start);

}  // namespace clawperator::mcp
