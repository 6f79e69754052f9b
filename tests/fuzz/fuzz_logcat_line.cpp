// The logcat line parser: any line reduces to a message inside the line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "clawperator/transport/logcat_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const auto parsed = clawperator::transport::parse_logcat_line(line);
  // The views must point into the line itself.
  if (!parsed.message.empty() &&
      (parsed.message.data() < line.data() ||
       parsed.message.data() + parsed.message.size() > line.data() + line.size())) {
    std::abort();
  }
  return 0;
}
