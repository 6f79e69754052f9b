#include "clawperator/mcp/lifecycle.hpp"

#include <algorithm>

#include "clawperator/mcp/jsonrpc.hpp"

namespace clawperator::mcp {

std::string negotiate_protocol_version(const Json& initialize_params) {
  const auto requested = initialize_params.find("protocolVersion");
  if (requested != initialize_params.end() && requested->is_string()) {
    const std::string version = requested->get<std::string>();
    if (std::find(kProtocolVersions.begin(), kProtocolVersions.end(), version) !=
        kProtocolVersions.end()) {
      return version;
    }
  }
  return std::string(kProtocolVersions.front());
}

Json initialize_result(std::string_view protocol_version) {
  Json result = Json::object();
  result["protocolVersion"] = std::string(protocol_version);
  result["capabilities"] = {{"tools", {{"listChanged", false}}}};
  result["serverInfo"] = {{"name", "clawperator"}, {"version", CLAWPERATOR_VERSION}};
  result["instructions"] =
      "Drive an Android device through the Clawperator Operator. Every result carries "
      "disposition: retry a failed call only when disposition.retry is \"safe\"; when it is "
      "\"unsafe\", take a snapshot first (docs/mcp.md).";
  return result;
}

std::optional<Refusal> Lifecycle::admit(std::string_view method) const {
  if (method == "ping") return std::nullopt;
  if (method == "initialize") {
    if (!version_.empty()) {
      return Refusal{rpc_error::kInvalidRequest, "Invalid Request: already initialized"};
    }
    return std::nullopt;
  }
  if (version_.empty()) {
    return Refusal{rpc_error::kInvalidRequest, "Invalid Request: the server is not initialized"};
  }
  return std::nullopt;
}

void Lifecycle::initialized(std::string version) {
  version_ = std::move(version);
}

}  // namespace clawperator::mcp
