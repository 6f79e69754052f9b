#include "clawperator/adb/broadcast.hpp"

#include <cstring>

#include "clawperator/adb/adb_errors.hpp"
#include "clawperator/text.hpp"

namespace clawperator::adb {

using process::Completion;

BroadcastClassification classify_broadcast(const Completion& completion) {
  BroadcastClassification out;
  const std::string text(trim(completion.err + "\n" + completion.out));
  out.detail = text.empty() ? "unknown" : text;
  if (text.find("Target package not found") != std::string::npos ||
      text.find("does not exist") != std::string::npos) {
    out.verdict = BroadcastVerdict::Refused;
    return out;
  }
  switch (completion.status) {
    case Completion::Status::SpawnFailed:
      out.verdict = BroadcastVerdict::NotSent;
      out.detail = std::strerror(completion.spawn_errno);
      return out;
    case Completion::Status::Exited:
      // An adb stream cut by a dropped connection exits 0 too: only the
      // Operator's acknowledgement counts.
      if (completion.exit_code == 0 &&
          completion.out.find("Broadcast completed") != std::string::npos) {
        out.verdict = BroadcastVerdict::Acknowledged;
        return out;
      }
      // adb refuses before opening the device service for these.
      if (completion.exit_code != 0) {
        const auto code = classify_adb_failure(text);
        if (code && *code != "ADB_NO_USB_PERMISSIONS") {
          out.verdict = BroadcastVerdict::NotSent;
          return out;
        }
      }
      break;
    default:
      break;
  }
  out.verdict = BroadcastVerdict::Uncertain;
  return out;
}

}  // namespace clawperator::adb
