#include "clawperator/adb/server_shell.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <optional>
#include <string_view>

#include "clawperator/adb/loopback_connect.hpp"
#include "clawperator/adb/shell_v2.hpp"
#include "clawperator/adb/smart_socket.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/poll_timeout.hpp"

namespace clawperator::adb {

using process::UniqueFd;

namespace {

using Clock = std::chrono::steady_clock;

// A FAIL's message is a few dozen bytes ("device offline"); a longer one is not adb's.
constexpr std::size_t kMaxFailMessage = 4096;
constexpr std::size_t kShellReadSize = std::size_t{64} << 10;

enum class ServerWait { Ready, TimedOut, Cancelled, Failed };

// Waits until `fd` is ready for `events`, the deadline passes, or a stop is asked for.
ServerWait wait_on_server(int fd, short events, Clock::time_point deadline,
                          const process::CancelToken& token) {
  for (;;) {
    if (process::stop_requested(token)) return ServerWait::Cancelled;
    std::array<pollfd, 3> fds{pollfd{fd, events, 0}, pollfd{token.fd(), POLLIN, 0},
                              pollfd{process::interrupt_fd(), POLLIN, 0}};
    const int rc = poll(fds.data(), fds.size(), process::poll_timeout_ms(deadline, Clock::now()));
    if (rc < 0) {
      if (errno == EINTR) continue;
      return ServerWait::Failed;
    }
    if (fds[0].revents != 0) return ServerWait::Ready;
    if (rc == 0 && Clock::now() >= deadline) return ServerWait::TimedOut;
  }
}

bool send_to_server(int fd, std::string_view bytes, Clock::time_point deadline,
                    const process::CancelToken& token) {
  while (!bytes.empty()) {
    const ssize_t n = send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (wait_on_server(fd, POLLOUT, deadline, token) != ServerWait::Ready) return false;
      continue;
    }
    return false;
  }
  return true;
}

// Exactly `size` bytes, or nullopt (closed, timed out, stopped).
std::optional<std::string> read_from_server(int fd, std::size_t size, Clock::time_point deadline,
                                            const process::CancelToken& token) {
  std::string bytes(size, '\0');
  std::size_t have = 0;
  while (have < size) {
    const ssize_t n = recv(fd, bytes.data() + have, size - have, 0);
    if (n > 0) {
      have += static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) return std::nullopt;
    if (errno == EINTR) continue;
    if ((errno == EAGAIN || errno == EWOULDBLOCK) &&
        wait_on_server(fd, POLLIN, deadline, token) == ServerWait::Ready) {
      continue;
    }
    return std::nullopt;
  }
  return bytes;
}

// OKAY, or the refusal in the server's words.
Expected<void, ServerShellError> ask_server(int fd, std::string_view text,
                                            Clock::time_point deadline,
                                            const process::CancelToken& token) {
  // Four hex digits of length: a longer request (a serial of 64 KiB) is not adb's to send.
  if (text.size() > kMaxSmartSocketRequest)
    return Unexpected(ServerShellError{"the request is too long"});
  if (!send_to_server(fd, smart_socket_request(text), deadline, token)) {
    return Unexpected(ServerShellError{"closed"});
  }
  const std::optional<std::string> status = read_from_server(fd, 4, deadline, token);
  // adb 29's words when the status is missing or not adb's (adb-facts).
  if (!status) return Unexpected(ServerShellError{"protocol fault (couldn't read status)"});
  if (*status == "OKAY") return {};
  if (*status != "FAIL") return Unexpected(ServerShellError{"protocol fault (status)"});
  const std::optional<std::string> length = read_from_server(fd, 4, deadline, token);
  std::size_t size = 0;
  if (!length || std::from_chars(length->data(), length->data() + 4, size, 16).ec != std::errc{} ||
      size > kMaxFailMessage) {
    return Unexpected(ServerShellError{"FAIL"});
  }
  const std::optional<std::string> message = read_from_server(fd, size, deadline, token);
  return Unexpected(ServerShellError{message ? *message : std::string("FAIL")});
}

}  // namespace

Expected<process::Completion, ServerShellError> shell_via_server(const LoopbackTcpServer& server,
                                                                 const std::string& serial,
                                                                 const std::string& command,
                                                                 std::chrono::milliseconds timeout,
                                                                 const process::CancelToken& token,
                                                                 std::size_t max_output_bytes) {
  // The service string adb 29 sends for `adb shell COMMAND` (adb-facts: TERM=xterm, raw).
  const std::string service = "shell,v2,TERM=xterm,raw:" + command;
  if (service.size() > kMaxServerShellRequest) {
    return Unexpected(ServerShellError{"the command is longer than one packet"});
  }
  const Clock::time_point started = Clock::now();
  const Clock::time_point deadline = started + timeout;
  UniqueFd fd = connect_to_loopback_server(server, deadline);
  if (!fd.valid()) return Unexpected(ServerShellError{"cannot connect to the adb server"});
  CLAWPERATOR_TRY(ask_server(fd.get(), "host:transport:" + serial, deadline, token));
  // From the service request on, the device may have started the command, even when the
  // server then refuses it (the device dropped the connection on OPEN, as a broadcast that
  // takes the transport down does): never a refusal to retry with the adb client, but the
  // outcome, in the words adb 29 prints for it (`error: MESSAGE`, exit 1; adb-facts).
  process::Completion completion;
  completion.status = process::Completion::Status::Exited;
  completion.exit_code = 0;
  if (auto opened = ask_server(fd.get(), service, deadline, token); !opened) {
    if (process::stop_requested(token)) {
      completion.status = process::Completion::Status::Cancelled;
      completion.exit_code = -1;
    } else if (Clock::now() >= deadline) {
      completion.status = process::Completion::Status::TimedOut;
      completion.exit_code = -1;
    } else {
      completion.exit_code = 1;
      completion.err = "error: " + opened.error().reason + "\n";
    }
    completion.elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    return completion;
  }

  ShellV2Decoder decoder(max_output_bytes);
  // A command that already ended may have closed our stdin's side: what it printed is still
  // there to read, so a failed close-stdin ends nothing.
  (void)send_to_server(fd.get(), shell_v2_packet(ShellV2Id::CloseStdin), deadline, token);
  bool ended = false;
  std::string buffer(kShellReadSize, '\0');
  while (!ended && !decoder.exit_status() && !decoder.malformed()) {
    const ssize_t n = recv(fd.get(), buffer.data(), buffer.size(), 0);
    if (n > 0) {
      decoder.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
      continue;
    }
    if (n == 0) break;  // closed without an exit packet: adb exits 0 (adb-facts)
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) break;
    switch (wait_on_server(fd.get(), POLLIN, deadline, token)) {
      case ServerWait::Ready:
        break;
      case ServerWait::TimedOut:
        completion.status = process::Completion::Status::TimedOut;
        ended = true;
        break;
      case ServerWait::Cancelled:
        completion.status = process::Completion::Status::Cancelled;
        ended = true;
        break;
      case ServerWait::Failed:
        ended = true;
        break;
    }
  }
  if (decoder.exit_status()) completion.exit_code = *decoder.exit_status();
  if (completion.status != process::Completion::Status::Exited) completion.exit_code = -1;
  completion.out = decoder.out();
  completion.err = decoder.err();
  completion.out_truncated = decoder.out_truncated();
  completion.err_truncated = decoder.err_truncated();
  if (decoder.malformed()) {
    completion.exit_code = 1;
    completion.err += "error: protocol fault (a shell packet longer than adb sends)\n";
  }
  completion.elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  return completion;
}

}  // namespace clawperator::adb
