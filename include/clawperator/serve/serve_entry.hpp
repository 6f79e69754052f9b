// The entry clawperator-serve's main registers for the CLI's `serve` command: the CLI makes the
// start (service::HttpServerStart) from its flags, so that serve/ includes nothing of cli/
// (docs/architecture.md §1).
#pragma once

#include <string>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/service/server_start.hpp"

namespace clawperator::serve {

// The token file of the server on `port` in the state directory: "serve-3000.token".
std::string token_file_name(int port);

// USAGE for --no-token beyond loopback or beside a token; the policy's error when it did not
// load; STATE_DIRECTORY_UNSAFE without a private state directory (the token file and the
// screenshots live there); exit 1 with a line on stderr when the port cannot be bound, before
// anything is written; otherwise writes the
// token file, runs the server until SIGINT or SIGTERM and returns its exit code (nothing on
// stdout), removing the token file only while it still holds this server's token. Without a
// token given or --no-token, the server makes one (256 random bits) and prints the inspector's
// URL with it in the fragment. Started in the foreground of a controlling terminal, it also makes
// an approver credential and writes the approver link on that terminal only (docs/serve.md §7).
contract::Outcome<int> serve(const service::HttpServerStart& start);

}  // namespace clawperator::serve
