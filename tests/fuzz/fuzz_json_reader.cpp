// Our fast JSON reader and writer against nlohmann: the same documents accepted,
// equal values, byte-identical output; and json_nesting_depth, the limit checked before a
// caller's JSON is parsed, tells the depth of every document that parses.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "clawperator/json.hpp"

namespace {

std::size_t depth_of(const clawperator::Json& value) {
  if (!value.is_structured()) return 0;
  std::size_t deepest = 0;
  for (const clawperator::Json& item : value) deepest = std::max(deepest, depth_of(item));
  return deepest + 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const clawperator::Json ours = clawperator::parse_json(text);
  const clawperator::Json theirs = clawperator::Json::parse(text, nullptr, false);
  if (ours.is_discarded() != theirs.is_discarded()) std::abort();
  if (ours.is_discarded()) return 0;
  if (ours != theirs) std::abort();
  if (clawperator::json_nesting_depth(text, size) != depth_of(ours)) std::abort();
  const std::string written = clawperator::dump_json(ours);
  if (written != theirs.dump(-1, ' ', false, clawperator::Json::error_handler_t::replace)) {
    std::abort();
  }
  return 0;
}
