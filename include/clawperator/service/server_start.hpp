// What a long-lived front end starts with (`mcp serve`, `serve`): the session its calls share
// and what the server itself needs beside it. Made by the CLI from its global options, handed
// to the server through the program's composition root (src/main.cpp, src/serve/main.cpp), so
// that no front end includes another (docs/architecture.md §1).
#pragma once

#include <optional>
#include <string>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::service {

struct ServerStart {
  Session session;
  std::string log_dir;  // doctor's, and one of the places no result names
  // A policy that did not load: every tool that sends a payload answers with it.
  std::optional<contract::HostError> policy_error;
  // The session's package was named (--operator-package, CLAWPERATOR_OPERATOR_PACKAGE), not
  // the default: `configure` then reports it as chosen.
  bool operator_package_explicit = false;
};

// `serve`'s start: the HTTP server's address and token beside the shared start. The server
// refuses a start whose policy did not load (start.policy_error), before it binds.
struct HttpServerStart {
  ServerStart start;
  std::string host;
  int port = 0;
  // --token, --token-file, the pipe of `clawperator serve`, else CLAWPERATOR_SERVE_TOKEN; may
  // be empty (the server makes one unless no_token).
  std::string token;
  bool no_token = false;  // --no-token: none at all (loopback only)
};

}  // namespace clawperator::service
