// A request to the adb server, framed as the adb client frames it (adb's OVERVIEW.TXT, "smart
// sockets"): four lowercase hex digits of the text's length, then the text. The server shell
// (src/adb/server_shell.cpp) and the virtual emulator's registration
// (src/vdevice/emulator/adb_registration.cpp) both speak it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace clawperator::adb {

// Four hex digits hold no longer text; a caller refuses a longer request before framing it.
inline constexpr std::size_t kMaxSmartSocketRequest = 0xffff;

// `text` must be at most kMaxSmartSocketRequest bytes.
inline std::string smart_socket_request(std::string_view text) {
  std::array<char, 5> length{};
  std::snprintf(length.data(), length.size(), "%04zx", text.size());
  return std::string(length.data(), 4) + std::string(text);
}

}  // namespace clawperator::adb
