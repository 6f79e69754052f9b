// The HTTP server's request bodies: any bytes end in a parsed body or a route-local error
// (INVALID_JSON, INVALID_BODY, MISSING_EXECUTION, INVALID_DEVICE_ID), never a crash; a
// matcher that passes is run against a small hierarchy, and the access guard reads the
// same bytes as headers. The same bytes are also a connection's stream for the request framer,
// fed in pieces the first byte sizes, under small limits: it ends Complete with a prefix of
// the input no larger than the limits allow, or Refused with 400, 413 or 431, never more.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/http_status.hpp"
#include "clawperator/serve/node_query.hpp"
#include "clawperator/serve/request_body.hpp"
#include "clawperator/serve/request_framer.hpp"

namespace {

constexpr std::string_view kHierarchy =
    R"(<hierarchy><node class="A" resource-id="r" text="t" content-desc="d" bounds="[0,0][1,1]">)"
    R"(<node class="B" resource-id="s" text="u" content-desc="" bounds="[0,0][1,1]"/></node>)"
    R"(</hierarchy>)";

void frame(std::string_view text) {
  using clawperator::serve::RequestFramer;
  clawperator::serve::RequestLimits limits;
  limits.max_head_bytes = 512;
  limits.max_header_lines = 8;
  limits.max_body_bytes = 256;
  limits.max_framing_bytes = 64;
  RequestFramer framer(limits);
  const std::size_t piece = text.empty() ? 1 : 1 + static_cast<unsigned char>(text[0]) % 32;
  RequestFramer::State state = RequestFramer::State::NeedMore;
  for (std::size_t at = 0; at < text.size() && state == RequestFramer::State::NeedMore;
       at += piece) {
    state = framer.feed(text.substr(at, piece));
  }
  if (state == RequestFramer::State::Complete) {
    const std::string_view request = framer.request();
    const std::size_t most =
        limits.max_head_bytes + limits.max_body_bytes + limits.max_framing_bytes;
    if (request.size() > most || text.substr(0, request.size()) != request) __builtin_trap();
  } else if (state == RequestFramer::State::Refused) {
    const int status = framer.refusal().status;
    if (status != 400 && status != 413 && status != 431) __builtin_trap();
  }
}

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
  (void)serve::check_access(
      policy, {"/execute", half, text.substr(half.size()), text, text.size() % 2 == 1});
  frame(text);
  return 0;
}
