// The ServiceOutput of one adb stream: queues what a session writes, already framed for the
// stream's service, until the connection's flow control lets it go out as WRTE messages.
// The connection destroys it only after the session bound to it, so a session may call it at
// any time of its life: once the stream has ended every call is a no-op.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "vdevice/device.hpp"

namespace clawperator::vdevice::adb {

enum class OutputFraming {
  ShellV2,     // stdout/stderr/exit as shell v2 packets
  ShellV2Pty,  // the same, but a terminal has a single output: stderr goes out as stdout
  Raw,         // `shell:` and `exec:`: bare bytes, stderr merged, the exit code is lost
};

class StreamOutput final : public ServiceOutput {
 public:
  // Shell v2 packets carry at most `max_packet_payload` bytes each, so that a WRTE of the
  // negotiated size holds whole packets when the queue is full.
  StreamOutput(OutputFraming framing, std::size_t max_packet_payload) noexcept;

  // No-ops after exit() or close(): a session may still hold this after its stream ended.
  void write_stdout(std::string_view bytes) override;
  void write_stderr(std::string_view bytes) override;
  void exit(int code) override;
  std::size_t queued_bytes() const noexcept override { return pending().size(); }

  // Transport side.
  std::string_view pending() const noexcept { return std::string_view(queue_).substr(head_); }
  void consume(std::size_t count) noexcept;
  bool exit_requested() const noexcept { return exited_; }
  // The stream is gone: drops the queue and ignores every later call.
  void close() noexcept;
  bool closed() const noexcept { return closed_; }

 private:
  void append_packets(std::uint8_t id, std::string_view bytes);

  OutputFraming framing_;
  std::size_t max_packet_payload_;
  std::string queue_;
  std::size_t head_ = 0;  // sent prefix of queue_, dropped lazily
  bool exited_ = false;
  bool closed_ = false;
};

}  // namespace clawperator::vdevice::adb
