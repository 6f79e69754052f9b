#include "clawperator/webview/device_endpoints.hpp"

#include <charconv>

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/text.hpp"

namespace clawperator::webview {
namespace {

constexpr std::chrono::milliseconds kForwardTimeout{5000};
// The removal also runs after Ctrl-C; short, so that an interrupted command still ends soon.
constexpr std::chrono::milliseconds kRemoveForwardTimeout{3000};

}  // namespace

contract::Outcome<DevtoolsListing> list_device_sockets(adb::AdbClient& client,
                                                       const std::string& serial) {
  adb::ShellCall call;
  call.command = std::string(kListCommand);
  call.what = "the DevTools socket listing (/proc/net/unix, ps)";
  CLAWPERATOR_TRY_ASSIGN(const adb::ShellOutput output,
                         adb::run_device_shell(client, serial, call));
  return parse_devtools_listing(output.out);
}

std::optional<int> parse_forward_port(std::string_view out) {
  out = trim(out);
  int port = 0;
  const auto [end, error] = std::from_chars(out.data(), out.data() + out.size(), port);
  if (out.empty() || error != std::errc() || end != out.data() + out.size() || port < 1 ||
      port > 65535) {
    return std::nullopt;
  }
  return port;
}

contract::Outcome<ForwardedPort> ForwardedPort::open(adb::AdbClient& client,
                                                     const std::string& serial,
                                                     const std::string& socket_name,
                                                     const adb::ForwardRegistry* registry) {
  const process::Completion forwarded =
      client.forward_abstract(serial, socket_name, client.within_deadline(kForwardTimeout));
  CLAWPERATOR_TRY(adb::adb_call_failure(forwarded, client.settings(), "adb forward",
                                        "DEVICE_SHELL_UNAVAILABLE", serial));
  const std::optional<int> port = parse_forward_port(forwarded.out);
  if (!port) {
    return contract::failed(
        contract::readiness_error("WEBVIEW_PROTOCOL_ERROR", "adb forward printed no local port",
                                  Json{{"deviceId", serial}, {"socket", socket_name}}));
  }
  if (registry != nullptr) registry->record(*port);
  ForwardedPort opened(client, serial, *port, registry);
  // The forward ran to its end despite an interrupt (AdbClient::forward_abstract); with its port
  // known, `opened` removes it on the way out.
  if (client.cancelled()) {
    return contract::failed(contract::interrupted_error("Interrupted during adb forward",
                                                        process::interrupted_signal()));
  }
  return opened;
}

ForwardedPort::ForwardedPort(ForwardedPort&& other) noexcept
    : client_(other.client_),
      serial_(std::move(other.serial_)),
      port_(other.port_),
      registry_(other.registry_) {
  other.port_ = 0;
}

ForwardedPort::~ForwardedPort() {
  if (port_ == 0) return;
  const process::Completion removed =
      client_->remove_forward(serial_, port_, kRemoveForwardTimeout);
  // Gone either way when adb no longer knows it; otherwise the next run sweeps it.
  const bool gone =
      (removed.status == process::Completion::Status::Exited && removed.exit_code == 0) ||
      removed.err.find("not found") != std::string::npos;
  if (gone && registry_ != nullptr) registry_->forget(port_);
  if (!gone) {
    io::warn(
        "adb forward --remove tcp:{} failed; remove it with `adb -s {} forward --remove tcp:{}`",
        port_, serial_, port_);
  }
}

void sweep_stale_forwards(adb::AdbClient& client, const adb::ForwardRegistry& registry) {
  // Every recorded port of a dead owner that adb still forwards to an abstract socket: the
  // records are this CLI's webview forwards alone (the registry's device key says so).
  registry.sweep_stale(client, "");
}

}  // namespace clawperator::webview
