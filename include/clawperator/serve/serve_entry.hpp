// The entry clawperator-serve registers for the CLI's `serve` command
// (cli/serve_command.hpp).
#pragma once

#include "clawperator/cli/serve_command.hpp"

namespace clawperator::serve {

// USAGE for a bind beyond loopback without a token; otherwise runs the server until SIGINT or
// SIGTERM and returns its exit code (nothing on stdout).
cli::CommandResult serve_command(const cli::ServeCommand& command,
                                 const cli::GlobalOptions& options);

}  // namespace clawperator::serve
