// `clawperator serve`: the HTTP + SSE server's lifecycle (docs/serve.md). Listens until
// SIGINT or SIGTERM, then stops accepting, cancels in-flight executions through the
// process-wide interrupt, closes the event streams and returns.
#pragma once

#include <filesystem>
#include <string>

#include "clawperator/contract/redaction.hpp"
#include "clawperator/process/unique_fd.hpp"
#include "clawperator/serve/backend.hpp"
#include "clawperator/serve/connection_gate.hpp"

namespace clawperator::serve {

struct ServerSettings {
  std::string host = "127.0.0.1";
  int port = 3000;
  int listen_fd = -1;        // bound and listening on host:port (listen_socket); not closed here
  std::string token;         // empty: none (--no-token, loopback only)
  bool print_token = false;  // the server made it: the URL printed carries it (#token=)
  std::filesystem::path token_file;  // where scripts find it (for the log)
  // The server's controlling terminal, when it started in its foreground: the approver link
  // (BackendSettings::approver in its fragment) is written there, and nowhere else (not on
  // stdout or stderr, which whoever started the server may read). Closed once written.
  process::UniqueFd approver_terminal;
  BackendSettings backend;
  // Every JSON body and event goes through it: no host path, no adb output (docs/serve.md §4).
  contract::HostRedaction redaction;
  GateLimits limits;
  std::size_t workers = 16;      // requests handled at once (executions included)
  std::size_t sse_clients = 16;  // event streams at once
};

// A socket listening on host:port (getaddrinfo: a name or an address, v4 or v6), close-on-exec;
// -1 with errno. Bound before the server writes anything of its own (serve_entry.cpp): a
// second server on a port in use must fail before it could touch the first one's files.
int listen_socket(const std::string& host, int port);

// Serves on settings.listen_fd until SIGINT or SIGTERM: 0 after a clean shutdown, 1 when the
// signal handlers cannot be installed (a line on stderr says why). The caller closes the
// socket, after removing what must go while the port is still ours.
int run_server(ServerSettings settings);

}  // namespace clawperator::serve
