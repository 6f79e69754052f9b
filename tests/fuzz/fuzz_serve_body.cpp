// The HTTP server's request bodies: any bytes end in a parsed body or a route-local error
// (INVALID_JSON, INVALID_BODY, MISSING_EXECUTION, INVALID_DEVICE_ID), never a crash; a
// matcher that passes is run against a small hierarchy, and the access guard reads the
// same bytes as headers.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/http_status.hpp"
#include "clawperator/serve/node_query.hpp"
#include "clawperator/serve/request_body.hpp"

namespace {

constexpr std::string_view kHierarchy =
    R"(<hierarchy><node class="A" resource-id="r" text="t" content-desc="d" bounds="[0,0][1,1]">)"
    R"(<node class="B" resource-id="s" text="u" content-desc="" bounds="[0,0][1,1]"/></node>)"
    R"(</hierarchy>)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace clawperator;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto body = serve::parse_body(text, {"execution", "deviceId", "operatorPackage", "matcher"});
  if (!body) {
    (void)serve::http_status_of(contract::to_json(body.error()));
  } else {
    (void)serve::read_target(*body);
    if (auto execution = serve::read_execution(*body)) {
      (void)contract::validate_execution(*execution);
    }
    if (auto matcher = serve::read_matcher(*body)) {
      (void)serve::query_nodes(kHierarchy, *matcher);
    }
  }
  const serve::AccessPolicy policy{"0.0.0.0", 3000, "token"};
  const std::string_view half = text.substr(0, text.size() / 2);
  (void)serve::check_access(policy, {"/execute", half, text.substr(half.size()), text});
  return 0;
}
