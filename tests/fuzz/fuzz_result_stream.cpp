// The logcat reader's decoder fed arbitrary bytes in arbitrary pieces: chunk
// reassembly, envelope parsing and snapshot blocks must hold for any stream.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/transport/result_stream.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  // The first byte chooses the piece size, so splits are explored too.
  const std::size_t piece = 1 + data[0] % 97;
  std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
  clawperator::transport::ResultStreamDecoder decoder("c1", "t1");
  // Odd piece sizes read as the Operator's uid known (docs/guardrails.md §7), even ones unknown.
  if (piece % 2 == 1) decoder.expect_writer({"10123", "1010123"});
  decoder.begin_capture();
  while (!stream.empty()) {
    const std::size_t take = stream.size() < piece ? stream.size() : piece;
    decoder.feed(stream.substr(0, take));
    stream.remove_prefix(take);
  }
  decoder.finish();
  (void)decoder.correlated_lines();
  (void)decoder.foreign_lines();
  return 0;
}
