#include "clawperator/adb/screencap.hpp"

#include <string_view>

namespace clawperator::adb {

Expected<std::string, std::string> capture_screen_png(AdbClient& client, const std::string& serial,
                                                      std::chrono::milliseconds timeout) {
  static constexpr std::string_view kPngSignature = "\x89PNG\r\n\x1a\n";
  process::Completion capture =
      client.exec_out(serial, {"screencap", "-p"}, timeout, kMaxScreencapBytes);
  if (capture.status != process::Completion::Status::Exited || capture.exit_code != 0) {
    return Unexpected("adb exec-out screencap -p failed (" +
                      std::string(process::to_string(capture.status)) + ", exit " +
                      std::to_string(capture.exit_code) + ")");
  }
  if (capture.out_truncated || capture.out.rfind(kPngSignature, 0) != 0) {
    return Unexpected(std::string("screencap returned no PNG image"));
  }
  return std::move(capture.out);
}

}  // namespace clawperator::adb
