// The MCP lifecycle (docs/mcp.md "Lifecycle"): initialize with protocol-version negotiation,
// then the initialized notification; ping at any time. Pure.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/json.hpp"

namespace clawperator::mcp {

// Newest first: a client asking for another version gets the newest.
inline constexpr std::array<std::string_view, 4> kProtocolVersions = {"2025-11-25", "2025-06-18",
                                                                      "2025-03-26", "2024-11-05"};

// The one version with JSON-RPC batches: 2025-03-26 added them ("MUST support receiving"),
// 2025-06-18 removed them.
inline constexpr std::string_view kBatchProtocolVersion = "2025-03-26";

// The version to answer initialize with: the client's when we speak it, else our newest.
std::string negotiate_protocol_version(const Json& initialize_params);

// initialize's result: version, capabilities (tools only), serverInfo, instructions.
Json initialize_result(std::string_view protocol_version);

struct Refusal {
  int code = 0;
  std::string message;
};

class Lifecycle {
 public:
  // Whether a request with this method may be handled now (ping always may; initialize once;
  // everything else after initialize).
  std::optional<Refusal> admit(std::string_view method) const;
  // initialize was answered with `version`.
  void initialized(std::string version);
  // The client's notifications/initialized arrived.
  void ready() { ready_ = true; }
  bool is_ready() const { return ready_; }
  // The negotiated version; empty before initialize.
  const std::string& protocol_version() const { return version_; }

 private:
  std::string version_;
  bool ready_ = false;
};

}  // namespace clawperator::mcp
