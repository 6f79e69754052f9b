// The device side of one adb host connection, without sockets: bytes from the host go in,
// bytes for the host come out. Handles the CNXN/AUTH handshake and the OPEN/OKAY/WRTE/CLSE
// streams, each bound to a ServiceSession of the Device.
//
// Re-entrancy: sessions and the Device may call abandon() (through drop_all_connections)
// from inside any callback this class makes; everything else is called by the event loop only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "vdevice/adb/message.hpp"
#include "vdevice/adb/shell_protocol.hpp"
#include "vdevice/adb/stream_output.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::adb {

class AdbConnection {
 public:
  enum class State { AwaitingConnect, Authenticating, Online };

  explicit AdbConnection(Device& device);
  // Ends the sessions still open (end_sessions()).
  ~AdbConnection();
  AdbConnection(const AdbConnection&) = delete;
  AdbConnection& operator=(const AdbConnection&) = delete;

  // Handles bytes from the host; replies accumulate in output().
  void on_bytes(std::string_view bytes);
  // Turns queued session output into WRTE messages as the host's flow control allows (one
  // unacknowledged WRTE per stream) and closes streams whose exit has been sent.
  void pump();

  // Wire bytes for the host, in order.
  std::string_view output() const noexcept { return std::string_view(out_).substr(out_head_); }
  void consume_output(std::size_t count) noexcept;

  // Set when the connection must be closed now (protocol error, Offline mode), without
  // flushing output().
  bool wants_close() const noexcept { return !close_reason_.empty(); }
  const std::string& close_reason() const noexcept { return close_reason_; }

  // The socket is gone: later session writes are dropped and host bytes ignored. Sessions are
  // not told yet (the caller may be one of them); end_sessions() does that.
  void abandon() noexcept;
  bool abandoned() const noexcept { return abandoned_; }
  // Tells every open session that the host went away, then destroys it.
  void end_sessions() noexcept;

  State state() const noexcept { return state_; }
  std::size_t stream_count() const noexcept { return streams_.size(); }
  // The negotiated payload limit (valid once Online): the smaller of the host's and the
  // device's (Device::max_payload()).
  std::size_t max_payload() const noexcept { return max_payload_; }

 private:
  struct Stream {
    std::uint32_t remote_id = 0;
    bool shell_v2 = false;
    bool awaiting_ack = false;  // a WRTE is out and the host's OKAY has not come back
    ShellPacketDecoder stdin_decoder;
    // Declared before the session so that it is destroyed after it: the session holds a
    // reference to it until its own destructor has run.
    std::unique_ptr<StreamOutput> output;
    std::unique_ptr<ServiceSession> session;
  };
  using Streams = std::map<std::uint32_t, Stream>;

  void handle(const Message& message);
  void on_connect(const Message& message);
  void on_auth(const Message& message);
  void on_open(const Message& message);
  std::unique_ptr<ServiceSession> open_service(const ServiceRequest& request,
                                               ServiceOutput& output);
  void on_write(const Message& message);
  void on_okay(const Message& message);
  void on_close(const Message& message);
  void deliver_input(Streams::iterator stream, std::string_view bytes);
  // Removes the stream; tells its session when the host (not the service) ended it.
  void end_stream(Streams::iterator stream, bool tell_session);
  void send(std::uint32_t command, std::uint32_t arg0, std::uint32_t arg1,
            std::string_view payload = {});
  void send_auth_token();
  std::uint32_t allocate_id();
  void fail(std::string reason);
  bool stopped() const noexcept { return abandoned_ || wants_close(); }

  Device& device_;
  State state_ = State::AwaitingConnect;
  std::size_t max_payload_ = kMaxPayload;
  MessageDecoder decoder_;
  std::string out_;
  std::size_t out_head_ = 0;
  Streams streams_;
  std::uint32_t next_id_ = 1;
  std::string close_reason_;
  bool abandoned_ = false;
};

}  // namespace clawperator::vdevice::adb
