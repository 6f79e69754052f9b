// Fetching over HTTPS with libcurl (docs/operator.md, "What install checks"): TLS verified
// against the system's store or CURL_CA_BUNDLE, proxies from the usual environment
// (https_proxy, no_proxy, …), a redirect only ever to https, a bound on the size and a deadline
// on silence. libcurl is loaded and initialised on the first fetch, never at start
// (docs/performance.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "clawperator/expected.hpp"

namespace clawperator::download {

struct FetchLimits {
  std::uint64_t max_bytes = 0;
  // No byte for this long (connecting included): the fetch fails.
  std::chrono::milliseconds stall_timeout{30000};
};

enum class FetchErrorKind {
  Unavailable,  // libcurl could not be loaded
  Refused,      // the address may not be fetched (check_url)
  Network,      // DNS, connection, TLS, a redirect refused, the transfer cut off
  HttpStatus,   // the server answered with a status other than 2xx
  TooLarge,     // more than max_bytes
  Stalled,      // nothing arrived for stall_timeout
  Interrupted,  // SIGINT or SIGTERM
  Write,        // the sink refused the bytes
};

struct FetchError {
  FetchErrorKind kind = FetchErrorKind::Network;
  std::string message;
  long http_status = 0;  // HttpStatus
  int signal = 0;        // Interrupted
};

// "http_status", "too_large", …: the details.reason of an error.
std::string_view to_string(FetchErrorKind kind);

// Receives the body as it arrives; false stops the fetch (Write).
using ByteSink = std::function<bool(std::string_view bytes)>;

// A progress bar on stderr, for a person at a terminal: "[clawperator] NAME  3.1/12.0 MB  26%".
struct ProgressDisplay {
  bool enabled = false;
  std::string label;
};

// Fetches `url` into `sink`; the number of bytes received.
Expected<std::uint64_t, FetchError> fetch(std::string_view url, const FetchLimits& limits,
                                          const ByteSink& sink,
                                          const ProgressDisplay& progress = {});

// A small body, whole.
Expected<std::string, FetchError> fetch_text(std::string_view url, const FetchLimits& limits);

}  // namespace clawperator::download
