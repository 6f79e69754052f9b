#include "clawperator/adb/broadcast.hpp"

#include <cerrno>
#include <cstring>
#include <string_view>

#include "clawperator/adb/adb_errors.hpp"
#include "clawperator/text.hpp"

namespace clawperator::adb {

using process::Completion;

namespace {

bool contains(std::string_view text, std::string_view fragment) {
  return text.find(fragment) != std::string_view::npos;
}

// adb refused the request for its length before any byte of it reached the device: why, or
// empty. Each text is adb 29's (docs/vdevice.md, "The transport packet").
std::string length_refusal(const Completion& completion, std::string_view text,
                           std::size_t command_bytes) {
  if (completion.status == Completion::Status::SpawnFailed && completion.spawn_errno == E2BIG) {
    return "the command line is longer than the kernel lets a program start with "
           "(Argument list too long): adb never ran";
  }
  if (completion.status != Completion::Status::Exited || completion.exit_code == 0) return {};
  // The client checks this itself, before it connects to the server.
  if (contains(text, "bad service name length")) {
    return "the request is longer than adb's client accepts";
  }
  // The length prefix overflowed: the server read a garbled service name that no device
  // service opens. The same words after a short request mean the device closed the stream
  // while opening it, when the shell may already run: not a refusal then.
  if (command_bytes > kMaxServiceStringBytes && contains(text, "error: closed")) {
    return "the request is longer than adb's 65535-byte request limit";
  }
  // The server aborts on a message over the device's packet before writing it to the
  // device. After a request that fits any packet, the same words mean the server died at
  // some point of the call, possibly after the device got the request: uncertain.
  if (command_bytes > kOldDevicePacketCommandBytes && contains(text, "protocol fault") &&
      !contains(text, "failed to check server version")) {
    return "the request is longer than the device's transport packet; the adb server stopped "
           "(older devices take 4096 bytes)";
  }
  return {};
}

}  // namespace

BroadcastClassification classify_broadcast(const Completion& completion,
                                           std::size_t command_bytes) {
  BroadcastClassification out;
  const std::string text(trim(completion.err + "\n" + completion.out));
  out.detail = text.empty() ? "unknown" : text;
  out.refusal = length_refusal(completion, text, command_bytes);
  if (!out.refusal.empty()) {
    if (completion.status == Completion::Status::SpawnFailed) {
      out.detail = std::strerror(completion.spawn_errno);
    }
    out.verdict = BroadcastVerdict::NotSent;
    return out;
  }
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
      if (completion.exit_code != 0) {
        // The client refused its own command line: it never asked its server for anything.
        if (const auto usage = adb_usage_error(text)) {
          out.verdict = BroadcastVerdict::NotSent;
          out.refusal = "adb refused its own command line (" + *usage + ")";
          return out;
        }
        // adb refuses before opening the device service for these (the server that cannot
        // open a USB device included). "protocol fault" is the exception: the server may die
        // after it sent the request on (see length_refusal).
        const auto code = classify_adb_failure(text);
        const bool late_fault =
            contains(text, "protocol fault") && !contains(text, "failed to check server version");
        if (code && !late_fault) {
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
