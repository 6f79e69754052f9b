#include "clawperator/adb/server_endpoint.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/io/atomic_file.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::adb {
namespace {

constexpr int kDefaultServerPort = 5037;

std::optional<int> parse_port(std::string_view text) {
  int port = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (port < 1 || port > 65535) return std::nullopt;
  return port;
}

std::optional<LoopbackTcpServer::Family> loopback_family(std::string_view host) {
  using Family = LoopbackTcpServer::Family;
  if (host == "localhost") return Family::Any;
  if (host == "127.0.0.1") return Family::IPv4;
  if (host == "::1" || host == "[::1]") return Family::IPv6;
  return std::nullopt;
}

std::optional<ServerEndpoint> tcp_endpoint(const std::optional<std::string>& host, int port) {
  if (host && host->empty()) return std::nullopt;
  ServerEndpoint endpoint;
  endpoint.spec =
      host ? "tcp:" + *host + ":" + std::to_string(port) : "tcp:" + std::to_string(port);
  endpoint.loopback = parse_loopback_tcp_spec(endpoint.spec);
  return endpoint;
}

// Every loopback TCP address reaches this host's adb server alike: one name for all of them.
constexpr std::string_view kLoopback = "loopback";

std::string lower_case(std::string_view text) {
  std::string lowered(text);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lowered;
}

// 127.0.0.0/8, and 0.0.0.0: Linux connects a TCP socket to an unspecified destination on the
// loopback (as BSD did), so it reaches the same server.
bool ipv4_loopback(const in_addr& address) {
  const std::uint32_t host_order = ntohl(address.s_addr);
  return (host_order >> 24) == 127 || host_order == 0;
}

// A numeric address in one spelling: kLoopback for any loopback address (IPv4, IPv6 ::1 or ::,
// an IPv4-mapped loopback), inet_ntop's text otherwise, an IPv6 one in brackets (with its zone
// when it has one). nullopt when `host` is not a numeric literal (a name): no system call here,
// so a literal costs nothing.
std::optional<std::string> numeric_address(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  const std::string text(host);
  in_addr v4{};
  if (::inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    if (ipv4_loopback(v4)) return std::string(kLoopback);
    char out[INET_ADDRSTRLEN];
    return std::string(::inet_ntop(AF_INET, &v4, out, sizeof out));
  }
  const std::size_t percent = text.find('%');
  const std::string address = text.substr(0, percent);
  in6_addr v6{};
  if (::inet_pton(AF_INET6, address.c_str(), &v6) != 1) return std::nullopt;
  if (IN6_IS_ADDR_LOOPBACK(&v6) || IN6_IS_ADDR_UNSPECIFIED(&v6)) return std::string(kLoopback);
  if (IN6_IS_ADDR_V4MAPPED(&v6)) {
    std::memcpy(&v4, &v6.s6_addr[12], sizeof v4);
    if (ipv4_loopback(v4)) return std::string(kLoopback);
    char out[INET_ADDRSTRLEN];
    return std::string(::inet_ntop(AF_INET, &v4, out, sizeof out));
  }
  char out[INET6_ADDRSTRLEN];
  std::string canonical = "[" + std::string(::inet_ntop(AF_INET6, &v6, out, sizeof out));
  if (percent != std::string::npos) canonical += lower_case(text.substr(percent));
  return canonical + "]";
}

// A TCP host as canonical_server names it.
std::string canonical_host(std::string_view host, const HostResolver& resolve) {
  if (std::optional<std::string> numeric = numeric_address(host)) return *numeric;
  std::string name = lower_case(host);
  // "localhost." is "localhost": a fully qualified name ends with the root's empty label.
  if (name.size() > 1 && name.back() == '.') name.pop_back();
  if (name == "localhost") return std::string(kLoopback);
  if (resolve) {
    if (const std::optional<std::string> address = resolve(name)) {
      if (std::optional<std::string> numeric = numeric_address(*address)) return *numeric;
    }
  }
  return name;
}

}  // namespace

std::optional<std::string> resolve_host_address(const std::string& name) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;  // as adb's network_connect asks
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(name.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) {
    return std::nullopt;
  }
  const std::unique_ptr<addrinfo, void (*)(addrinfo*)> owned(found, ::freeaddrinfo);
  char text[NI_MAXHOST];
  if (::getnameinfo(found->ai_addr, found->ai_addrlen, text, sizeof text, nullptr, 0,
                    NI_NUMERICHOST) != 0) {
    return std::nullopt;
  }
  return std::string(text);
}

std::string canonical_server(std::string_view spec, const HostResolver& resolve) {
  constexpr std::string_view kTcp = "tcp:";
  if (spec.substr(0, kTcp.size()) == kTcp) {
    const std::string_view rest = spec.substr(kTcp.size());
    // adb's parse_tcp_socket_spec: "tcp:PORT" is the loopback; else HOST:PORT, an IPv6 host in
    // brackets (or, as parse_loopback_tcp_spec reads it, up to the last colon).
    if (const std::optional<int> port = parse_port(rest)) {
      return std::string(kTcp) + std::string(kLoopback) + ":" + std::to_string(*port);
    }
    const std::size_t colon = rest.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return std::string(spec);
    const std::optional<int> port = parse_port(rest.substr(colon + 1));
    // A spec adb refuses: every call fails alike, so it is its own key.
    if (!port) return std::string(spec);
    return std::string(kTcp) + canonical_host(rest.substr(0, colon), resolve) + ":" +
           std::to_string(*port);
  }
  // adb's host side reads "local:" as "localfilesystem:" (socket_spec.cpp, kLocalSocketTypes).
  for (const std::string_view prefix :
       {std::string_view("localfilesystem:"), std::string_view("local:")}) {
    if (spec.substr(0, prefix.size()) != prefix) continue;
    // A relative path is the adb client's working directory's, which is ours.
    std::error_code error;
    const std::filesystem::path path =
        std::filesystem::absolute(std::filesystem::path(spec.substr(prefix.size())), error);
    std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
    if (error) canonical = path.lexically_normal();
    return "localfilesystem:" + canonical.string();
  }
  return std::string(spec);
}

std::string device_key(const AdbSettings& settings, std::string_view serial,
                       const RawEnvironment& environment, const HostResolver& resolve) {
  const std::optional<ServerEndpoint> endpoint = resolve_server_endpoint(settings, environment);
  const std::string server = endpoint ? canonical_server(endpoint->spec, resolve) : "unresolved";
  std::string key = io::escape_file_name(server) + "+" + io::escape_file_name(serial);
  if (key.size() <= kMaxDeviceKeyBytes) return key;
  transport::Sha256 hash;
  hash.update(key);
  return "sha256-" + hash.finish_hex();
}

const char* raw_process_environment(const char* name) {
  return std::getenv(name);
}

std::optional<LoopbackTcpServer> parse_loopback_tcp_spec(std::string_view spec) {
  constexpr std::string_view kTcp = "tcp:";
  if (spec.substr(0, kTcp.size()) != kTcp) return std::nullopt;
  spec.remove_prefix(kTcp.size());
  const std::size_t colon = spec.rfind(':');
  const std::string_view host =
      colon == std::string_view::npos ? "localhost" : spec.substr(0, colon);
  const std::optional<int> port =
      parse_port(colon == std::string_view::npos ? spec : spec.substr(colon + 1));
  const std::optional<LoopbackTcpServer::Family> family = loopback_family(host);
  if (!port || !family) return std::nullopt;
  return LoopbackTcpServer{*family, *port};
}

std::optional<ServerEndpoint> resolve_server_endpoint(const AdbSettings& settings,
                                                      const RawEnvironment& environment) {
  if (!settings.server_host && !settings.server_port) {
    if (const char* socket = environment("ADB_SERVER_SOCKET"); socket != nullptr) {
      if (*socket == '\0') return std::nullopt;
      return ServerEndpoint{socket, parse_loopback_tcp_spec(socket)};
    }
  }
  std::optional<std::string> host = settings.server_host;
  if (!host) {
    if (const char* address = environment("ANDROID_ADB_SERVER_ADDRESS"); address != nullptr) {
      host = address;
    }
  }
  int port = kDefaultServerPort;
  if (settings.server_port) {
    port = *settings.server_port;
  } else if (const char* text = environment("ANDROID_ADB_SERVER_PORT");
             text != nullptr && *text != '\0') {
    const std::optional<int> parsed = parse_port(text);
    if (!parsed) return std::nullopt;
    port = *parsed;
  }
  return tcp_endpoint(host, port);
}

}  // namespace clawperator::adb
