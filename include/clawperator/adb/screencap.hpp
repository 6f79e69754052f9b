// The device's screen as a PNG, through `adb exec-out screencap -p`: the one capture the
// `screenshot` step (src/exec/pipeline.cpp), an evidence bundle (src/evidence/capture.cpp) and a
// search for text on the screen (src/service/visual_text.cpp) all take.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/expected.hpp"

namespace clawperator::adb {

inline constexpr std::chrono::milliseconds kScreencapTimeout{30000};
// A 4K screen's PNG is far below this; a stream that never ends is cut here.
inline constexpr std::size_t kMaxScreencapBytes = std::size_t{64} << 20;

// The PNG, or why there is none ("adb exec-out screencap -p failed (timeout, exit -1)",
// "screencap returned no PNG image"); within the client's deadline too.
Expected<std::string, std::string> capture_screen_png(
    AdbClient& client, const std::string& serial,
    std::chrono::milliseconds timeout = kScreencapTimeout);

}  // namespace clawperator::adb
