// `clawperator serve`: the flags are the CLI's, the server is not. The HTTP library is linked
// into the `clawperator-serve` executable only, so that every other command starts as fast as
// before; `clawperator serve` executes it with the same arguments but --token / --token-file,
// the token going through a pipe (cli/serve_token.hpp), and it runs the server through the
// entry it registers.
#pragma once

#include <optional>
#include <string>

#include "clawperator/cli/command.hpp"

namespace clawperator::cli {

struct ServeCommand {
  std::string host;
  int port = 0;
  // --token, --token-file, the pipe of `clawperator serve`, else CLAWPERATOR_SERVE_TOKEN; may
  // be empty.
  std::string token;
  bool no_token = false;  // --no-token: none at all (loopback only)
  // --registry: the skills registry of the /skills routes (nullopt: the lookup of
  // docs/skills.md in the server's own environment; a caller never names one).
  std::optional<std::string> skills_registry;
};

using ServeEntry = CommandResult (*)(const ServeCommand& command, const GlobalOptions& options);

// Called by clawperator-serve's main before run().
void set_serve_entry(ServeEntry entry);

// The process's arguments, kept by run() for the exec of clawperator-serve.
void remember_arguments(int argc, const char* const* argv);

}  // namespace clawperator::cli
