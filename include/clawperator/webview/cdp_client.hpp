// The Chrome DevTools Protocol spoken to one endpoint on this host (a forwarded port, or a
// headless Chromium's own): `GET /json/list` over HTTP and one page's WebSocket. Synchronous,
// each call with a deadline and watching the cancellation token (Ctrl-C, SIGTERM, a server's
// cancelled call: process/cancel.hpp). Boost.Beast stays behind this header, in
// src/webview/cdp_client.cpp alone, so that nothing else compiles it (docs/webview.md).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/cancel.hpp"

namespace clawperator::webview {

using Deadline = std::chrono::steady_clock::time_point;

// A message or an HTTP body larger than this is refused (a screenshot of a large screen as
// base64 is a few MB).
inline constexpr std::size_t kMaxMessageBytes = std::size_t{32} << 20;

struct CdpFailure {
  enum class Kind {
    Unreachable,   // nothing accepted the connection
    Disconnected,  // the connection or the page went away mid-call
    TimedOut,      // the deadline passed
    Cancelled,     // the token or an interrupt stopped it
    Protocol,      // an answer that is not what the protocol says, or a DevTools error
  };
  Kind kind = Kind::Protocol;
  std::string message;
  Json details = Json::object();  // a DevTools error's {cdpCode, cdpMessage}
};

template <typename T>
using CdpResult = Expected<T, CdpFailure>;

struct Endpoint {
  std::string host = "127.0.0.1";
  int port = 0;
};

// GET `target` (/json/list): the body of a 200 answer.
CdpResult<std::string> http_get(const Endpoint& endpoint, std::string_view target,
                                Deadline deadline, const process::CancelToken& cancel);

// One page's DevTools session. Events are read past and dropped; Inspector.detached (the page
// closed or was taken by another client) ends the session as Disconnected.
class CdpSession {
 public:
  static CdpResult<std::unique_ptr<CdpSession>> connect(const Endpoint& endpoint,
                                                        const std::string& path, Deadline deadline,
                                                        process::CancelToken cancel);
  ~CdpSession();
  CdpSession(const CdpSession&) = delete;
  CdpSession& operator=(const CdpSession&) = delete;

  // Sends {id, method, params} and returns the `result` of the answer with the same id.
  CdpResult<Json> call(std::string_view method, const Json& params, Deadline deadline);

  struct Impl;

 private:
  explicit CdpSession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace clawperator::webview
