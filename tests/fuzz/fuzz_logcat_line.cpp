// The logcat line parser: any line reduces to a message (and a uid) inside the line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "clawperator/transport/logcat_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const auto parsed = clawperator::transport::parse_logcat_line(line);
  // The views must point into the line itself.
  const auto inside = [&](std::string_view view) {
    return view.empty() ||
           (view.data() >= line.data() && view.data() + view.size() <= line.data() + line.size());
  };
  if (!inside(parsed.message) || !inside(parsed.tag) || !inside(parsed.uid)) std::abort();
  return 0;
}
