// The direct result transport's frame reader fed arbitrary bytes in arbitrary pieces, with
// the host's ping at an arbitrary moment: it must settle on verified bytes or a failure for
// any stream, never grow past its limits, and never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/transport/direct_frames.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first byte chooses the piece size, the second when the ping goes out.
  const std::size_t piece = 1 + data[0] % 97;
  const std::size_t ping_after = data[1] % 8;
  std::string_view stream(reinterpret_cast<const char*>(data) + 2, size - 2);
  clawperator::transport::DirectFrameReader reader({"s1", "com.clawperator.operator", "c1", "t1"});
  std::size_t pieces = 0;
  while (!stream.empty()) {
    if (pieces++ == ping_after) reader.ping_sent();
    const std::size_t take = stream.size() < piece ? stream.size() : piece;
    reader.feed(stream.substr(0, take));
    stream.remove_prefix(take);
  }
  reader.end_of_stream();
  if (reader.result_verified()) {
    (void)clawperator::transport::direct_result(reader.take_result_line(), "c1", "t1");
  }
  return 0;
}
