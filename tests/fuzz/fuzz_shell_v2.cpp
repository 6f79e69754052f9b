// adb's shell protocol v2 decoder (src/adb/shell_v2.cpp), which reads what an adb server
// relays from a device on every exec's broadcast, fed arbitrary bytes in arbitrary pieces: it
// must keep within its bounds whatever the lengths announce, and never crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "clawperator/adb/shell_v2.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  // The first byte chooses the piece size; the bound is small, so that truncation is reached.
  const std::size_t piece = 1 + data[0] % 61;
  constexpr std::size_t kBound = 256;
  std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  clawperator::adb::ShellV2Decoder decoder(kBound);
  while (!stream.empty()) {
    const std::size_t take = stream.size() < piece ? stream.size() : piece;
    decoder.feed(stream.substr(0, take));
    stream.remove_prefix(take);
    if (decoder.out().size() > kBound || decoder.err().size() > kBound) std::abort();
  }
  if (decoder.exit_status() && (*decoder.exit_status() < 0 || *decoder.exit_status() > 255)) {
    std::abort();
  }
  return 0;
}
