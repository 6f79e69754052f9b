#include "clawperator/adb/server_endpoint.hpp"

#include <charconv>
#include <cstdlib>

#include "clawperator/adb/adb_client.hpp"

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

}  // namespace

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
