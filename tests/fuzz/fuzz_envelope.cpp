// The strict envelope parser, and its output written back.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/json.hpp"
#include "clawperator/transport/envelope.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto envelope = clawperator::transport::parse_envelope(text);
  if (envelope) (void)clawperator::dump_json(clawperator::transport::to_json(*envelope));
  return 0;
}
