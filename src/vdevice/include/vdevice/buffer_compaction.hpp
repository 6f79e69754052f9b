// The virtual device reads its byte buffers from the front, an index past the bytes consumed:
// the decoders of src/vdevice/adb/ and android/operator/result_frames.cpp, and the output queues of
// adb/connection.cpp and adb/stream_output.cpp.
#pragma once

#include <cstddef>

namespace clawperator::vdevice {

// A buffer's consumed front is erased once it is this long (or the whole buffer): compacting
// only past this much keeps the copy cost proportional to the bytes consumed.
inline constexpr std::size_t kCompactThreshold = std::size_t{64} << 10;

}  // namespace clawperator::vdevice
