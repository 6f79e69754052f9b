#include "clawperator/adb/adb_client.hpp"

#include <algorithm>

#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/adb/server_relay.hpp"
#include "clawperator/adb/server_shell.hpp"
#include "clawperator/io/log.hpp"

namespace clawperator::adb {
namespace {

// The follower and the relay it talks through.
class RelayedStream final : public process::Stream {
 public:
  RelayedStream(std::unique_ptr<ServerRelay> relay, std::unique_ptr<process::Stream> follower)
      : relay_(std::move(relay)), follower_(std::move(follower)) {}

  process::StreamEvent wait(std::chrono::milliseconds timeout) override {
    return follower_->wait(timeout);
  }
  void terminate() override { follower_->terminate(); }
  int pid() const override { return follower_->pid(); }
  void watch(process::CancelToken token) override { follower_->watch(std::move(token)); }

 private:
  // Declared in this order so that the follower is stopped first: the relay must outlive
  // every byte the follower still reads.
  std::unique_ptr<ServerRelay> relay_;
  std::unique_ptr<process::Stream> follower_;
};

// -H/-P on the command line would make adb ignore ADB_SERVER_SOCKET, and rewriting the argv
// is not ours to do: with --adb-server the follower goes to the server directly.
bool may_relay(const AdbSettings& settings) {
  return settings.relay_logcat && !settings.server_host && !settings.server_port;
}

// A call's argv as the log shows it: `log_form` in place of a command that carries a payload.
Json logged_argv(const process::CommandSpec& spec, std::string_view log_form) {
  Json argv = spec.argv;
  if (!log_form.empty()) argv.back() = log_form;
  return argv;
}

// The adb.command and adb.complete lines of one call; `via` names how it was made when it was
// not an adb process ("server", wire-protocol §2.7).
Json call_event(const Json& argv, std::string_view via) {
  Json event{{"argv", argv}};
  if (!via.empty()) event["via"] = via;
  return event;
}

void log_completion(Json event, const process::Completion& completion) {
  event["status"] = process::to_string(completion.status);
  event["exitCode"] = completion.exit_code;
  event["durationMs"] = completion.elapsed.count();
  io::log_event(io::LogLevel::Debug, "adb.complete", event);
}

}  // namespace

AdbClient::AdbClient(process::Runner& runner, AdbSettings settings)
    : runner_(runner), settings_(std::move(settings)) {}

std::vector<std::string> AdbClient::base_argv() const {
  std::vector<std::string> argv = {settings_.executable};
  if (settings_.server_host) {
    argv.insert(argv.end(), {"-H", *settings_.server_host});
  }
  if (settings_.server_port) {
    argv.insert(argv.end(), {"-P", std::to_string(*settings_.server_port)});
  }
  return argv;
}

std::vector<std::string> AdbClient::device_argv(const std::string& serial,
                                                const std::vector<std::string>& args) const {
  std::vector<std::string> argv = base_argv();
  argv.insert(argv.end(), {"-s", serial});
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::chrono::milliseconds AdbClient::within_deadline(std::chrono::milliseconds timeout) const {
  if (!deadline_) return timeout;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      *deadline_ - std::chrono::steady_clock::now());
  return std::clamp(left, std::chrono::milliseconds(1),
                    std::max(timeout, std::chrono::milliseconds(1)));
}

process::Completion AdbClient::run_logged(process::CommandSpec spec, std::string_view log_form) {
  spec.timeout = within_deadline(spec.timeout);
  const Json event = call_event(logged_argv(spec, log_form), {});
  io::log_event(io::LogLevel::Debug, "adb.command", event);
  process::Completion completion = runner_.run(spec);
  log_completion(event, completion);
  return completion;
}

process::Completion AdbClient::devices() {
  std::vector<std::string> argv = base_argv();
  argv.insert(argv.end(), {"devices", "-l"});
  return run_logged({argv, kDevicesTimeout});
}

process::Completion AdbClient::version() {
  std::vector<std::string> argv = base_argv();
  argv.push_back("version");
  return run_logged({argv, kVersionTimeout});
}

process::Completion AdbClient::start_server() {
  std::vector<std::string> argv = base_argv();
  argv.push_back("start-server");
  return run_logged({argv, kDevicesTimeout});
}

process::Completion AdbClient::kill_server() {
  std::vector<std::string> argv = base_argv();
  argv.push_back("kill-server");
  return run_logged({argv, kDevicesTimeout});
}

process::Completion AdbClient::install(const std::string& serial, const std::string& apk_path) {
  return run_logged({device_argv(serial, {"install", "-r", apk_path}), kInstallTimeout});
}

process::Completion AdbClient::run(std::vector<std::string> argv,
                                   std::chrono::milliseconds timeout) {
  return run_logged({std::move(argv), timeout});
}

process::Completion AdbClient::shell(const std::string& serial, const std::string& command,
                                     std::chrono::milliseconds timeout, std::string_view log_form) {
  process::CommandSpec spec{device_argv(serial, {"shell", command}), timeout};
  if (!shell_via_server_ || runner_.cancelled()) return run_logged(std::move(spec), log_form);
  const Json event = call_event(logged_argv(spec, log_form), "server");
  io::log_event(io::LogLevel::Debug, "adb.command", event);
  auto direct = shell_via_server(*relayed_server_, serial, command, within_deadline(spec.timeout),
                                 runner_.cancel_token(), spec.max_output_bytes);
  if (!direct) {
    // Nothing ran on the device: the adb client runs it, and says in its own words what the
    // server refused (a device gone offline, …), as every other call does.
    Json refused = event;
    refused["reason"] = direct.error().reason;
    io::log_event(io::LogLevel::Debug, "adb.server_refused", refused);
    return run_logged(std::move(spec), log_form);
  }
  log_completion(event, *direct);
  return std::move(*direct);
}

void AdbClient::allow_shell_via_server() {
  // A client given a proven server (use_shell_server) keeps it.
  shell_via_server_ = shell_via_server_ || (relayed_server_ && relay_saw_shell_v2_ &&
                                            relay_saw_shell_v2_->load(std::memory_order_acquire));
}

std::optional<LoopbackTcpServer> AdbClient::shell_server() const {
  return shell_via_server_ ? relayed_server_ : std::nullopt;
}

void AdbClient::use_shell_server(LoopbackTcpServer server) {
  relayed_server_ = server;
  shell_via_server_ = true;
}

process::Completion AdbClient::emu(const std::string& serial, const std::vector<std::string>& args,
                                   std::chrono::milliseconds timeout) {
  std::vector<std::string> call{"emu"};
  call.insert(call.end(), args.begin(), args.end());
  return run_logged({device_argv(serial, call), timeout});
}

process::Completion AdbClient::push(const std::string& serial, const std::string& local_path,
                                    const std::string& device_path,
                                    std::chrono::milliseconds timeout) {
  return run_logged({device_argv(serial, {"push", local_path, device_path}), timeout});
}

process::Completion AdbClient::pull(const std::string& serial, const std::string& device_path,
                                    const std::string& local_path,
                                    std::chrono::milliseconds timeout) {
  return run_logged({device_argv(serial, {"pull", device_path, local_path}), timeout});
}

process::Completion AdbClient::forward_abstract(const std::string& serial, const std::string& name,
                                                std::chrono::milliseconds timeout) {
  process::CommandSpec spec{device_argv(serial, {"forward", "tcp:0", "localabstract:" + name}),
                            timeout};
  // The local port is known only once adb prints it: stopped midway, the forward could exist
  // with no name to remove it by. It runs to its (short) end; the caller then sees cancelled().
  spec.despite_interrupt = true;
  return run_logged(std::move(spec));
}

process::Completion AdbClient::remove_forward(const std::string& serial, int port,
                                              std::chrono::milliseconds timeout) {
  process::CommandSpec spec{
      device_argv(serial, {"forward", "--remove", "tcp:" + std::to_string(port)}), timeout};
  spec.despite_interrupt = true;  // a forward must not outlive the run, Ctrl-C or not
  return run_logged(std::move(spec));
}

process::Completion AdbClient::list_forwards(std::chrono::milliseconds timeout) {
  std::vector<std::string> argv = base_argv();
  argv.insert(argv.end(), {"forward", "--list"});
  return run_logged({argv, timeout});
}

process::Started AdbClient::follow_logcat(const std::string& serial) {
  process::StreamSpec spec{device_argv(serial, {"logcat", "-v", "time", "-v", "uid", "-T", "1"}),
                           {}};
  std::unique_ptr<ServerRelay> relay = relay_if_server_runs();
  Json event{{"argv", spec.argv}};
  if (relay) {
    spec.environment.push_back("ADB_SERVER_SOCKET=" + relay->socket_spec());
    event["relay"] = relay->socket_spec();
  }
  io::log_event(io::LogLevel::Debug, "adb.start", event);
  process::Started follower = runner_.start(spec);
  if (!follower || !relay) return follower;
  relay_saw_shell_v2_ = relay->shell_v2_requested();
  return std::unique_ptr<process::Stream>(
      std::make_unique<RelayedStream>(std::move(relay), std::move(*follower)));
}

std::optional<LoopbackTcpServer> AdbClient::loopback_server() const {
  const std::optional<ServerEndpoint> endpoint =
      resolve_server_endpoint(settings_, raw_process_environment);
  return endpoint ? endpoint->loopback : std::nullopt;
}

std::unique_ptr<ServerRelay> AdbClient::relay_if_server_runs() {
  server_stopped_ = false;
  const std::optional<LoopbackTcpServer> server = loopback_server();
  if (!server) return nullptr;
  std::unique_ptr<ServerRelay> relay = may_relay(settings_) ? ServerRelay::start(*server) : nullptr;
  if (relay != nullptr) relayed_server_ = *server;
  if (relay == nullptr && settings_.probe_local_server) {
    server_stopped_ = !loopback_server_accepts(*server);
  }
  return relay;
}

bool AdbClient::local_server_accepts() const {
  const std::optional<LoopbackTcpServer> server = loopback_server();
  return !server || loopback_server_accepts(*server);
}

process::Completion AdbClient::exec_out(const std::string& serial,
                                        const std::vector<std::string>& args,
                                        std::chrono::milliseconds timeout,
                                        std::size_t max_output_bytes) {
  std::vector<std::string> argv = {"exec-out"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_logged({device_argv(serial, argv), timeout, max_output_bytes});
}

}  // namespace clawperator::adb
