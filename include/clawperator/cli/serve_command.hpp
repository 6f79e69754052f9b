// `clawperator serve`: the flags are the CLI's, the server is not. The HTTP library is linked
// into the `clawperator-serve` executable only, so that every other command starts as fast as
// before; `clawperator serve` executes it with the same arguments but --token / --token-file,
// the token going through a pipe (cli/serve_token.hpp), and it runs the server through the
// entry it registers.
#pragma once

#include <optional>
#include <string>

#include "clawperator/cli/command.hpp"
#include "clawperator/service/server_start.hpp"

namespace clawperator::cli {

// The server's answer: the exit code of a server that ran (or could not bind: it said why on
// stderr), or the failure that stopped it before it started.
using ServeEntry = contract::Outcome<int> (*)(const service::HttpServerStart& start);

// Called by clawperator-serve's main before run().
void set_serve_entry(ServeEntry entry);

// The process's arguments, kept by run() for the exec of clawperator-serve.
void remember_arguments(int argc, const char* const* argv);

}  // namespace clawperator::cli
