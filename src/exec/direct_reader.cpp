#include "direct_reader.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/poll_timeout.hpp"
#include "clawperator/text.hpp"
#include "trace.hpp"

namespace clawperator::exec {
namespace {

using process::Completion;

constexpr std::chrono::milliseconds kPrepareTimeout{5000};
constexpr std::chrono::milliseconds kForwardTimeout{5000};
constexpr std::chrono::milliseconds kRemoveForwardTimeout{2000};
constexpr std::chrono::milliseconds kTimingWait{1000};
constexpr std::size_t kReadChunk = std::size_t{1} << 20;

std::string adb_words(const Completion& completion) {
  std::string words(trim(completion.err + "\n" + completion.out));
  if (words.empty()) words = std::string(process::to_string(completion.status));
  return words;
}

std::optional<int> parse_port(std::string_view text) {
  text = trim(text);
  int port = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (error != std::errc() || end != text.data() + text.size() || port < 1 || port > 65535) {
    return std::nullopt;
  }
  return port;
}

}  // namespace

DirectReader::DirectReader(adb::AdbClient& client, std::string serial,
                           const ForwardRegistry& forwards, std::string session_id,
                           transport::DirectSessionIds ids)
    : client_(client),
      serial_(std::move(serial)),
      forwards_(forwards),
      session_id_(std::move(session_id)),
      frames_(std::move(ids)) {}

DirectReader::~DirectReader() {
  if (fd_ >= 0) ::close(fd_);
  if (!port_) return;
  const Completion removed = client_.remove_forward(serial_, *port_, kRemoveForwardTimeout);
  // Gone either way when adb no longer knows it; otherwise the next run sweeps it.
  if ((removed.status == Completion::Status::Exited && removed.exit_code == 0) ||
      removed.err.find("not found") != std::string::npos) {
    forwards_.forget(*port_);
  }
}

void DirectReader::note(std::string event, Json extra) {
  extra["event"] = std::move(event);
  extra["atMs"] = millis_since(started_);
  timeline_.push_back(std::move(extra));
}

Json DirectReader::details() const {
  Json out = Json::object();
  out["sessionId"] = session_id_;
  out["port"] = port_ ? Json(*port_) : Json(nullptr);
  out["framesReceived"] = frames_.frames();
  if (frames_.expected_bytes() > 0) {
    out["expectedBytes"] = frames_.expected_bytes();
    out["receivedBytes"] = frames_.received_bytes();
  }
  if (frames_.failed()) out["failure"] = frames_.failure();
  if (!io_error_.empty()) out["socketError"] = io_error_;
  if (frames_.android_write_ms()) out["androidResultWriteMs"] = *frames_.android_write_ms();
  if (frames_.android_ack_round_trip_ms()) {
    out["androidResultAckRoundTripMs"] = *frames_.android_ack_round_trip_ms();
  }
  out["timeline"] = timeline_;
  return out;
}

DirectReader::Io DirectReader::read_some(Clock::time_point deadline) {
  for (;;) {
    if (process::interrupted_signal() != 0) return Io::Cancelled;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) return Io::TimedOut;
    pollfd fds[2] = {{fd_, POLLIN, 0}, {process::interrupt_fd(), POLLIN, 0}};
    const int ready = ::poll(fds, 2, process::poll_timeout_ms(deadline, now));
    if (ready < 0) {
      if (errno == EINTR) continue;
      io_error_ = std::strerror(errno);
      return Io::Error;
    }
    if (ready == 0 || (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    std::string chunk(kReadChunk, '\0');
    const ssize_t n = ::recv(fd_, chunk.data(), chunk.size(), 0);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == ECONNRESET) {
        io_error_ = std::strerror(errno);
        frames_.end_of_stream();
        return Io::Closed;
      }
      io_error_ = std::strerror(errno);
      return Io::Error;
    }
    if (n == 0) {
      note("closed");
      frames_.end_of_stream();
      return Io::Closed;
    }
    chunk.resize(static_cast<std::size_t>(n));
    frames_.feed(chunk);
    return Io::Progress;
  }
}

bool DirectReader::send_frame(std::string_view json_text) {
  const std::string frame = transport::encode_frame(json_text);
  std::size_t sent = 0;
  while (sent < frame.size()) {
    const ssize_t n = ::send(fd_, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      io_error_ = std::strerror(errno);
      return false;
    }
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

Expected<std::unique_ptr<DirectReader>, DirectReader::SetupError> DirectReader::open(
    adb::AdbClient& client, const std::string& serial, const ExecutionTrace& trace,
    const ForwardRegistry& forwards, std::chrono::milliseconds lifetime,
    std::chrono::milliseconds setup_timeout) {
  const std::string session_id = io::random_uuid();
  std::unique_ptr<DirectReader> reader(
      new DirectReader(client, serial, forwards, session_id,
                       {session_id, trace.operator_package, trace.command_id, trace.task_id}));
  const Clock::time_point deadline = reader->started_ + setup_timeout;
  const auto failure = [&](std::string message, bool interrupted = false) {
    return Unexpected<SetupError>{{std::move(message), reader->details(), interrupted}};
  };

  // 1. The Operator listens on its abstract socket before am broadcast answers.
  Json request = Json::object();
  request["protocol"] = 1;
  request["sessionId"] = session_id;
  request["commandId"] = trace.command_id;
  request["taskId"] = trace.task_id;
  request["lifetimeMs"] = lifetime.count();
  const Completion prepared = client.shell(
      serial, adb::prepare_result_connection_command(trace.operator_package, dump_json(request)),
      kPrepareTimeout);
  if (prepared.status == Completion::Status::Cancelled) {
    return failure("Interrupted during the prepare broadcast", true);
  }
  if (prepared.status != Completion::Status::Exited || prepared.exit_code != 0 ||
      prepared.out.find("Broadcast completed") == std::string::npos) {
    return failure("the prepare broadcast failed: " + adb_words(prepared));
  }
  reader->note("prepared");

  // 2. adb forward tcp:0 localabstract:<package>.result.<session>
  const Completion forwarded = client.forward_abstract(
      serial, trace.operator_package + ".result." + session_id, kForwardTimeout);
  if (forwarded.status == Completion::Status::Cancelled) {
    return failure("Interrupted during adb forward", true);
  }
  const std::optional<int> port =
      forwarded.status == Completion::Status::Exited && forwarded.exit_code == 0
          ? parse_port(forwarded.out)
          : std::nullopt;
  if (!port) return failure("adb forward failed: " + adb_words(forwarded));
  reader->port_ = *port;
  forwards.record(*port);
  reader->note("forwarded", Json{{"port", *port}});

  // 3. The connection; the adb server opens the device stream behind it.
  reader->fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(*port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (reader->fd_ < 0 ||
      ::connect(reader->fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    reader->io_error_ = std::strerror(errno);
    return failure("could not connect to the forwarded port " + std::to_string(*port) + ": " +
                   reader->io_error_);
  }
  reader->note("connected");

  // 4. ready, then ping and pong.
  const auto await = [&](auto received, const char* what) -> std::optional<Unexpected<SetupError>> {
    while (!received() && !reader->frames_.failed()) {
      switch (reader->read_some(deadline)) {
        case Io::Progress:
        case Io::Closed:
          break;
        case Io::TimedOut:
          return failure(std::string("no ") + what + " within " +
                         std::to_string(setup_timeout.count()) + " ms");
        case Io::Cancelled:
          return failure(std::string("Interrupted while waiting for the ") + what, true);
        case Io::Error:
          return failure("the result socket failed: " + reader->io_error_);
      }
    }
    if (reader->frames_.failed()) return failure(reader->frames_.failure());
    reader->note(what);
    return std::nullopt;
  };
  if (auto failed = await([&] { return reader->frames_.ready_received(); }, "ready")) {
    return *failed;
  }
  if (!reader->send_frame(R"({"type":"ping"})")) {
    return failure("could not send the ping: " + reader->io_error_);
  }
  reader->frames_.ping_sent();
  if (auto failed = await([&] { return reader->frames_.pong_received(); }, "pong")) {
    return *failed;
  }
  return reader;
}

DirectReader::Wait DirectReader::wait_result(Clock::time_point deadline) {
  while (!frames_.result_verified()) {
    if (frames_.failed()) return Wait::Failed;
    switch (read_some(deadline)) {
      case Io::Progress:
      case Io::Closed:
        break;
      case Io::TimedOut:
        note("deadline_reached");
        return Wait::TimedOut;
      case Io::Cancelled:
        return Wait::Cancelled;
      case Io::Error:
        return Wait::Failed;
    }
  }
  line_ = frames_.take_result_line();
  note("result", Json{{"bytes", line_.size()}});
  // The result is verified: the ack and the timing frame are courtesy, not conditions.
  Json ack = Json::object();
  ack["type"] = "ack";
  ack["sessionId"] = session_id_;
  if (send_frame(dump_json(ack))) note("ack_sent");
  const Clock::time_point timing_until = std::min(deadline, Clock::now() + kTimingWait);
  while (frames_.stage() == transport::DirectFrameReader::Stage::Timing) {
    if (read_some(timing_until) != Io::Progress) break;
  }
  if (frames_.android_write_ms()) note("timing");
  return Wait::Result;
}

}  // namespace clawperator::exec
