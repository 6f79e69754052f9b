// Our fast JSON reader and writer against nlohmann: the same documents accepted,
// equal values, byte-identical output.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "clawperator/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const clawperator::Json ours = clawperator::parse_json(text);
  const clawperator::Json theirs = clawperator::Json::parse(text, nullptr, false);
  if (ours.is_discarded() != theirs.is_discarded()) std::abort();
  if (ours.is_discarded()) return 0;
  if (ours != theirs) std::abort();
  const std::string written = clawperator::dump_json(ours);
  if (written != theirs.dump(-1, ' ', false, clawperator::Json::error_handler_t::replace)) {
    std::abort();
  }
  return 0;
}
