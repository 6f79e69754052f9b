#include "vdevice/adb/connection.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <utility>
#include <vector>

#include "vdevice/buffer_compaction.hpp"

namespace clawperator::vdevice::adb {
namespace {

// What a host that sends maxdata 0 means: the original protocol's payload size.
constexpr std::size_t kLegacyMaxPayload = 4096;
constexpr std::size_t kAuthTokenSize = 20;

std::string random_token() {
  std::string token(kAuthTokenSize, '\0');
  std::uint64_t seed = 0;
  try {
    std::random_device device;
    seed = (std::uint64_t{device()} << 32) | device();
  } catch (...) {
    // No entropy source: the token only has to differ from the previous one.
  }
  seed ^= static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::mt19937_64 engine(seed);
  for (char& byte : token) byte = static_cast<char>(engine() & 0xffU);
  return token;
}

OutputFraming framing_for(const ServiceRequest& request) {
  if (request.kind != ServiceKind::ShellV2) return OutputFraming::Raw;
  return request.pty ? OutputFraming::ShellV2Pty : OutputFraming::ShellV2;
}

}  // namespace

AdbConnection::AdbConnection(Device& device) : device_(device) {}

AdbConnection::~AdbConnection() {
  end_sessions();
}

void AdbConnection::on_bytes(std::string_view bytes) {
  if (stopped()) return;
  decoder_.feed(bytes);
  while (!stopped()) {
    std::optional<Message> message = decoder_.next();
    if (!message) break;
    handle(*message);
  }
  if (!stopped() && decoder_.error() != MessageDecoder::Error::None) {
    fail("protocol error: " + std::string(to_string(decoder_.error())));
  }
}

void AdbConnection::handle(const Message& message) {
  switch (message.command) {
    case kCnxn:
      on_connect(message);
      return;
    case kAuth:
      on_auth(message);
      return;
    default:
      break;
  }
  // Before the handshake completes the host has no streams: anything else is stale.
  if (state_ != State::Online) return;
  switch (message.command) {
    case kOpen:
      on_open(message);
      return;
    case kWrte:
      on_write(message);
      return;
    case kOkay:
      on_okay(message);
      return;
    case kClse:
      on_close(message);
      return;
    default:
      // SYNC and newer commands (STLS) are not spoken by adb 29 over TCP: ignore them rather
      // than break a connection the host believes healthy.
      return;
  }
}

void AdbConnection::on_connect(const Message& message) {
  // A CNXN on a live connection is the host starting over: its old streams are gone.
  if (state_ != State::AwaitingConnect) end_sessions();
  state_ = State::AwaitingConnect;
  const std::size_t host_max = message.arg1 == 0 ? kLegacyMaxPayload : message.arg1;
  ConnectionMode mode = ConnectionMode::Normal;
  std::string banner;
  std::size_t device_max = kMaxPayload;
  try {
    mode = device_.connection_mode();
    if (mode == ConnectionMode::Normal) banner = device_.banner();
    device_max =
        std::clamp(device_.max_payload().value_or(kMaxPayload), kLegacyMaxPayload, kMaxPayload);
  } catch (...) {
    fail("the device failed to describe itself");
    return;
  }
  max_payload_ = std::min(host_max, device_max);
  decoder_.set_max_payload(max_payload_);
  if (stopped()) return;
  switch (mode) {
    case ConnectionMode::Offline:
      fail("offline mode");
      return;
    case ConnectionMode::Unauthorized:
      state_ = State::Authenticating;
      send_auth_token();
      return;
    case ConnectionMode::Normal:
      break;
  }
  send(kCnxn, kProtocolVersion, static_cast<std::uint32_t>(max_payload_), banner);
  state_ = State::Online;
}

void AdbConnection::on_auth(const Message& message) {
  if (state_ != State::Authenticating) return;
  // Refusing every signature makes the host offer its public key (AUTH type 3), which a real
  // device would show in a dialog; leaving that unanswered lists the device `unauthorized`.
  if (message.arg0 == kAuthSignature) send_auth_token();
}

void AdbConnection::on_open(const Message& message) {
  const std::uint32_t remote_id = message.arg0;
  if (remote_id == 0) return;
  std::string_view service = message.payload;
  while (!service.empty() && service.back() == '\0') service.remove_suffix(1);
  const ServiceRequest request = parse_service(service);
  // An empty command asks for an interactive shell, which the simulated device has not got.
  if (request.kind == ServiceKind::Unknown ||
      (request.command.empty() && request.kind != ServiceKind::Sync)) {
    send(kClse, 0, remote_id);
    return;
  }

  const std::uint32_t local_id = allocate_id();
  auto output = std::make_unique<StreamOutput>(
      framing_for(request), std::max(max_payload_, kShellHeaderSize + 1) - kShellHeaderSize);
  std::unique_ptr<ServiceSession> session;
  try {
    session = open_service(request, *output);
  } catch (...) {
    session.reset();
  }
  if (abandoned_) return;  // the device dropped every connection while starting the service
  if (!session) {
    output->close();
    send(kClse, 0, remote_id);
    return;
  }
  Stream stream;
  stream.remote_id = remote_id;
  stream.shell_v2 = request.kind == ServiceKind::ShellV2;
  stream.output = std::move(output);
  stream.session = std::move(session);
  streams_.emplace(local_id, std::move(stream));
  // Queued before any WRTE of this stream: pump() runs after this returns.
  send(kOkay, local_id, remote_id);
}

std::unique_ptr<ServiceSession> AdbConnection::open_service(const ServiceRequest& request,
                                                            ServiceOutput& output) {
  switch (request.kind) {
    case ServiceKind::Exec:
      return device_.open_exec(request.command, output);
    case ServiceKind::Sync:
      return device_.open_sync(output);
    case ServiceKind::LocalAbstract:
      // Nothing listening: CLSE, as adbd answers a failed connect().
      return device_.open_local_abstract(request.command, output);
    case ServiceKind::ShellV2:
    case ServiceKind::ShellRaw:
      return device_.open_shell(request.command, output);
    case ServiceKind::Unknown:
      break;
  }
  return nullptr;
}

void AdbConnection::on_write(const Message& message) {
  const auto stream = streams_.find(message.arg1);
  if (stream == streams_.end()) return;
  // Input is consumed synchronously, so the host may send more right away.
  send(kOkay, stream->first, stream->second.remote_id);
  deliver_input(stream, message.payload);
}

void AdbConnection::deliver_input(Streams::iterator stream, std::string_view bytes) {
  Stream& s = stream->second;
  // After exit() the session is finished; it only waits for its output to drain.
  if (s.output->exit_requested()) return;
  try {
    if (!s.shell_v2) {
      s.session->on_input(bytes);
      return;
    }
    s.stdin_decoder.feed(bytes);
    while (!abandoned_) {
      std::optional<ShellPacket> packet = s.stdin_decoder.next();
      if (!packet) break;
      // Window-size packets have no meaning for a device without a pty.
      if (packet->id == kShellStdin) s.session->on_input(packet->payload);
      if (packet->id == kShellCloseStdin) s.session->on_input_closed();
    }
    if (abandoned_ || !s.stdin_decoder.error()) return;
  } catch (...) {
    if (abandoned_) return;
  }
  // Undecodable stdin or a session that threw: end the stream rather than guess.
  end_stream(stream, true);
}

void AdbConnection::on_okay(const Message& message) {
  const auto stream = streams_.find(message.arg1);
  if (stream != streams_.end()) stream->second.awaiting_ack = false;
}

void AdbConnection::on_close(const Message& message) {
  const auto stream = streams_.find(message.arg1);
  if (stream != streams_.end()) end_stream(stream, true);
}

void AdbConnection::pump() {
  if (stopped() || state_ != State::Online) return;
  std::vector<std::uint32_t> finished;
  for (auto& [local_id, stream] : streams_) {
    if (stream.awaiting_ack) continue;
    const std::string_view pending = stream.output->pending();
    if (!pending.empty()) {
      const std::size_t size = std::min(pending.size(), max_payload_);
      send(kWrte, local_id, stream.remote_id, pending.substr(0, size));
      stream.output->consume(size);
      stream.awaiting_ack = true;
    } else if (stream.output->exit_requested()) {
      // Only after the host acknowledged the last WRTE: nothing can be lost in its queues.
      finished.push_back(local_id);
    }
  }
  for (const std::uint32_t local_id : finished) {
    const auto stream = streams_.find(local_id);
    if (stream != streams_.end()) end_stream(stream, false);
  }
}

void AdbConnection::end_stream(Streams::iterator stream, bool tell_session) {
  const std::uint32_t local_id = stream->first;
  Stream ended = std::move(stream->second);
  streams_.erase(stream);
  ended.output->close();
  send(kClse, local_id, ended.remote_id);
  if (tell_session) {
    try {
      ended.session->on_host_close();
    } catch (...) {
      // The stream is gone whatever the session thinks of it.
    }
  }
  ended.session.reset();
}

void AdbConnection::consume_output(std::size_t count) noexcept {
  out_head_ = std::min(out_head_ + count, out_.size());
  if (out_head_ == out_.size()) {
    out_.clear();
    out_head_ = 0;
  } else if (out_head_ >= kCompactThreshold && out_head_ >= out_.size() / 2) {
    out_.erase(0, out_head_);
    out_head_ = 0;
  }
}

void AdbConnection::abandon() noexcept {
  abandoned_ = true;
  for (auto& entry : streams_) entry.second.output->close();
  std::string().swap(out_);
  out_head_ = 0;
}

void AdbConnection::end_sessions() noexcept {
  Streams ended;
  ended.swap(streams_);
  for (auto& entry : ended) entry.second.output->close();
  for (auto& entry : ended) {
    try {
      entry.second.session->on_host_close();
    } catch (...) {
      // Shutting down regardless.
    }
    entry.second.session.reset();
  }
}

void AdbConnection::send(std::uint32_t command, std::uint32_t arg0, std::uint32_t arg1,
                         std::string_view payload) {
  if (abandoned_) return;
  append_message(out_, command, arg0, arg1, payload);
}

void AdbConnection::send_auth_token() {
  send(kAuth, kAuthToken, 0, random_token());
}

std::uint32_t AdbConnection::allocate_id() {
  // Ids are never reused while the host may still refer to them; wrap-around skips 0 and
  // ids in use.
  for (;;) {
    const std::uint32_t id = next_id_++;
    if (id != 0 && !streams_.contains(id)) return id;
  }
}

void AdbConnection::fail(std::string reason) {
  if (close_reason_.empty()) close_reason_ = std::move(reason);
}

}  // namespace clawperator::vdevice::adb
