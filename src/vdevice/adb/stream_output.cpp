#include "vdevice/adb/stream_output.hpp"

#include <algorithm>

#include "vdevice/adb/shell_protocol.hpp"
#include "vdevice/buffer_compaction.hpp"

namespace clawperator::vdevice::adb {

StreamOutput::StreamOutput(OutputFraming framing, std::size_t max_packet_payload) noexcept
    : framing_(framing), max_packet_payload_(std::max<std::size_t>(max_packet_payload, 1)) {}

void StreamOutput::write_stdout(std::string_view bytes) {
  if (closed_ || exited_ || bytes.empty()) return;
  if (framing_ == OutputFraming::Raw) {
    queue_.append(bytes);
  } else {
    append_packets(kShellStdout, bytes);
  }
}

void StreamOutput::write_stderr(std::string_view bytes) {
  if (closed_ || exited_ || bytes.empty()) return;
  if (framing_ == OutputFraming::ShellV2) {
    append_packets(kShellStderr, bytes);
  } else {
    write_stdout(bytes);
  }
}

void StreamOutput::exit(int code) {
  if (closed_ || exited_) return;
  if (framing_ != OutputFraming::Raw) {
    // The wire has one byte: sh reports 256 as 0 and -1 as 255 the same way.
    const char status = static_cast<char>(static_cast<unsigned>(code) & 0xffU);
    append_shell_packet(queue_, kShellExit, std::string_view(&status, 1));
  }
  exited_ = true;
}

void StreamOutput::consume(std::size_t count) noexcept {
  head_ = std::min(head_ + count, queue_.size());
  if (head_ == queue_.size()) {
    queue_.clear();
    head_ = 0;
  } else if (head_ >= kCompactThreshold && head_ >= queue_.size() / 2) {
    queue_.erase(0, head_);
    head_ = 0;
  }
}

void StreamOutput::close() noexcept {
  closed_ = true;
  std::string().swap(queue_);
  head_ = 0;
}

void StreamOutput::append_packets(std::uint8_t id, std::string_view bytes) {
  while (!bytes.empty()) {
    const std::size_t size = std::min(bytes.size(), max_packet_payload_);
    append_shell_packet(queue_, id, bytes.substr(0, size));
    bytes.remove_prefix(size);
  }
}

}  // namespace clawperator::vdevice::adb
