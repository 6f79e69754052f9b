// `clawperator serve`: the HTTP + SSE server's lifecycle (docs/serve.md). Listens until
// SIGINT or SIGTERM, then stops accepting, cancels in-flight executions through the
// process-wide interrupt, closes the event streams and returns.
#pragma once

#include <filesystem>
#include <string>

#include "clawperator/contract/redaction.hpp"
#include "clawperator/serve/backend.hpp"
#include "clawperator/serve/connection_gate.hpp"

namespace clawperator::serve {

struct ServerSettings {
  std::string host = "127.0.0.1";
  int port = 3000;
  std::string token;                 // empty: none (--no-token, loopback only)
  bool print_token = false;          // the server made it: the startup line's URL carries it
  std::filesystem::path token_file;  // where scripts find it (for the log)
  BackendSettings backend;
  // Every JSON body and event goes through it: no host path, no adb output (docs/serve.md §4).
  contract::HostRedaction redaction;
  GateLimits limits;
  std::size_t workers = 16;      // requests handled at once (executions included)
  std::size_t sse_clients = 16;  // event streams at once
};

// 0 after a clean shutdown; 1 when the port could not be bound (a line on stderr says why).
int run_server(ServerSettings settings);

}  // namespace clawperator::serve
