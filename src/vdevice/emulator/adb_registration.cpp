#include "vdevice/emulator/adb_registration.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "clawperator/adb/smart_socket.hpp"
#include "clawperator/process/unique_fd.hpp"

namespace clawperator::vdevice::emulator {
namespace {

constexpr std::uint16_t kDefaultAdbServerPort = 5037;

Unexpected<Problem> registration_failure(const char* what, std::uint16_t port, int error) {
  return Unexpected(Problem{"", std::string(what) + " the adb server on 127.0.0.1:" +
                                    std::to_string(port) + ": " + std::strerror(error)});
}

}  // namespace

std::string emulator_registration_request(std::uint16_t adb_port) {
  return adb::smart_socket_request("host:emulator:" + std::to_string(adb_port));
}

Expected<void, Problem> register_with_adb_server(std::uint16_t server_port,
                                                 std::uint16_t adb_port) {
  process::UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return registration_failure("no socket for", server_port, errno);
  // A server that accepts but never reads must not hold the emulator's start up.
  timeval limit{2, 0};
  (void)setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(server_port);
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    return registration_failure("cannot connect to", server_port, errno);
  }
  const std::string request = emulator_registration_request(adb_port);
  std::size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = ::send(fd.get(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return registration_failure("cannot write to", server_port, errno);
    sent += static_cast<std::size_t>(n);
  }
  return {};
}

Expected<std::uint16_t, Problem> adb_server_port(std::optional<std::uint16_t> flag,
                                                 const char* environment) {
  if (flag) return *flag;
  if (environment == nullptr || *environment == '\0') return kDefaultAdbServerPort;
  char* end = nullptr;
  errno = 0;
  const long port = std::strtol(environment, &end, 10);
  if (errno != 0 || end == environment || *end != '\0' || port < 1 || port > 65535) {
    // The variable is the subject of the sentence, not a path before a colon.
    return Unexpected(Problem{"", "ANDROID_ADB_SERVER_PORT must be a number in 1..65535, not \"" +
                                      std::string(environment) + "\""});
  }
  return static_cast<std::uint16_t>(port);
}

}  // namespace clawperator::vdevice::emulator
