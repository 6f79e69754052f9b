// One function per adb operation we use, each building its argv here and
// nowhere else (the scrcpy habit). Every call has a deadline; none uses a shell
// on the host.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::adb {

class ServerRelay;

struct AdbSettings {
  std::string executable = "adb";
  std::optional<std::string> server_host;  // --adb-server HOST:PORT -> -H HOST -P PORT
  std::optional<int> server_port;
  // Route the logcat follower through a ServerRelay when the server is on this host's TCP
  // loopback (server_relay.hpp).
  bool relay_logcat = false;
  // follow_logcat tells whether a loopback server was running (server_stopped()), at the
  // cost of one connect when there is no relay. Both are off by default so that scripted
  // tests see exactly the calls they script whatever runs on the machine; the CLI turns them
  // on.
  bool probe_local_server = false;
};

// Deadlines of the short adb calls; long enough for a cold adb server start.
inline constexpr std::chrono::milliseconds kDevicesTimeout{15000};
inline constexpr std::chrono::milliseconds kShellTimeout{15000};
inline constexpr std::chrono::milliseconds kVersionTimeout{5000};
// An APK of tens of MB over a slow USB 2 link, plus the device's verification.
inline constexpr std::chrono::milliseconds kInstallTimeout{180000};

class AdbClient {
 public:
  AdbClient(process::Runner& runner, AdbSettings settings);
  // Ctrl-C, SIGTERM or the runner's token: what is still to run would be stopped.
  bool cancelled() const noexcept { return runner_.cancelled(); }

  // adb devices -l
  process::Completion devices();
  // adb version (no server needed)
  process::Completion version();
  // adb start-server / adb kill-server
  process::Completion start_server();
  process::Completion kill_server();
  // adb -s SERIAL install -r APK
  process::Completion install(const std::string& serial, const std::string& apk_path);
  // adb -s SERIAL shell COMMAND (COMMAND is one argument, parsed by the device sh).
  // `log_form` replaces COMMAND in the log when it carries a payload.
  process::Completion shell(const std::string& serial, const std::string& command,
                            std::chrono::milliseconds timeout = kShellTimeout,
                            std::string_view log_form = {});
  // adb -s SERIAL push LOCAL DEVICE_PATH (a file of any size: adb splits it into packets the
  // device takes).
  process::Completion push(const std::string& serial, const std::string& local_path,
                           const std::string& device_path,
                           std::chrono::milliseconds timeout = kShellTimeout);
  // adb -s SERIAL pull DEVICE_PATH LOCAL_PATH (adb writes LOCAL_PATH itself, streaming: a file
  // of any size in bounded memory here).
  process::Completion pull(const std::string& serial, const std::string& device_path,
                           const std::string& local_path, std::chrono::milliseconds timeout);
  // adb -s SERIAL emu ARGS… (an emulator's console: `avd name`, `kill`).
  process::Completion emu(const std::string& serial, const std::vector<std::string>& args,
                          std::chrono::milliseconds timeout);
  // adb -s SERIAL forward tcp:0 localabstract:NAME (stdout: the local port adb chose); runs to
  // its end despite an interrupt, which the caller checks with cancelled() after recording it.
  process::Completion forward_abstract(const std::string& serial, const std::string& name,
                                       std::chrono::milliseconds timeout);
  // adb -s SERIAL forward --remove tcp:PORT, also after Ctrl-C (CommandSpec::despite_interrupt).
  process::Completion remove_forward(const std::string& serial, int port,
                                     std::chrono::milliseconds timeout);
  // adb forward --list: "SERIAL tcp:PORT localabstract:NAME" lines, every device's.
  process::Completion list_forwards(std::chrono::milliseconds timeout);
  // adb -s SERIAL logcat -v time -v uid -T 1: follows from the newest line, destroys nothing;
  // each line shows its writer's uid (docs/guardrails.md).
  // With relay_logcat, the child reaches the server through a relay that lives as long as
  // the returned stream.
  process::Started follow_logcat(const std::string& serial);
  // adb -s SERIAL exec-out ARGS… (binary-safe stdout, e.g. screencap -p)
  process::Completion exec_out(const std::string& serial, const std::vector<std::string>& args,
                               std::chrono::milliseconds timeout, std::size_t max_output_bytes);

  // After follow_logcat with probe_local_server: nothing accepted connections on the loopback
  // server's port, so the follower is about to start a server. Another adb
  // call started now would race it for the port, and the loser fails ("could not install
  // *smartsocket* listener: Address already in use"): wait for the follower to attach first.
  bool server_stopped() const { return server_stopped_; }
  // Whether the loopback server accepts connections now (true when it is not on the loopback).
  bool local_server_accepts() const;
  // Called once the logcat follower attached: from now on shell() speaks to the server itself
  // (server_shell.hpp) when the follower's relay saw this adb executable ask that server for
  // shell protocol v2 for the device; otherwise it has no effect. Any refusal before the
  // command starts falls back to the adb client (docs/wire-protocol.md §2.7).
  void allow_shell_via_server();
  // follow_logcat started its follower through a relay (relay_logcat and a loopback server).
  bool relays_logcat() const { return relayed_server_.has_value(); }
  // The server shell() speaks to once allowed, for another client of the same execution (the
  // presence check's, on its own thread); nullopt otherwise.
  std::optional<LoopbackTcpServer> shell_server() const;
  // shell() speaks to `server`, as the client that was allowed to does.
  void use_shell_server(LoopbackTcpServer server);

  const AdbSettings& settings() const { return settings_; }
  // argv of a call for a device, e.g. for "adb -s X shell …" in diagnostics.
  std::vector<std::string> device_argv(const std::string& serial,
                                       const std::vector<std::string>& args) const;
  // argv of a call to the adb server itself ("adb [-H H] [-P P] ARGS…").
  std::vector<std::string> base_argv() const;
  // Runs any argv built above, with the call logged (doctor --fix steps).
  process::Completion run(std::vector<std::string> argv, std::chrono::milliseconds timeout);

  // The command's wall-clock budget (--timeout): from now on no call outlives `until`, whatever
  // its own timeout (at least 1 ms, so a call past it still fails as timed out).
  void set_deadline(std::chrono::steady_clock::time_point until) { deadline_ = until; }
  std::optional<std::chrono::steady_clock::time_point> deadline() const { return deadline_; }
  // `timeout`, shortened to what is left before the deadline.
  std::chrono::milliseconds within_deadline(std::chrono::milliseconds timeout) const;

 private:
  process::Completion run_logged(process::CommandSpec spec, std::string_view log_form = {});
  std::unique_ptr<ServerRelay> relay_if_server_runs();
  // The server adb will reach, when it is TCP on this host's loopback.
  std::optional<LoopbackTcpServer> loopback_server() const;

  process::Runner& runner_;
  AdbSettings settings_;
  bool server_stopped_ = false;
  // Set by follow_logcat when it relayed: the server and what its relay saw.
  std::optional<LoopbackTcpServer> relayed_server_;
  std::shared_ptr<const std::atomic<bool>> relay_saw_shell_v2_;
  bool shell_via_server_ = false;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

}  // namespace clawperator::adb
