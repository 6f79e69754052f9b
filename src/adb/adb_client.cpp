#include "clawperator/adb/adb_client.hpp"

#include "clawperator/io/log.hpp"

namespace clawperator::adb {

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

process::Completion AdbClient::run_logged(process::CommandSpec spec, std::string_view log_form) {
  Json argv = spec.argv;
  if (!log_form.empty()) argv.back() = log_form;
  io::log_event(io::LogLevel::Debug, "adb.command", Json{{"argv", argv}});
  process::Completion completion = runner_.run(spec);
  io::log_event(io::LogLevel::Debug, "adb.complete",
                Json{{"argv", argv},
                     {"status", process::to_string(completion.status)},
                     {"exitCode", completion.exit_code},
                     {"durationMs", completion.elapsed.count()}});
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
  return run_logged({device_argv(serial, {"shell", command}), timeout}, log_form);
}

std::unique_ptr<process::Stream> AdbClient::follow_logcat(const std::string& serial,
                                                          int& spawn_errno) {
  const std::vector<std::string> argv = device_argv(serial, {"logcat", "-v", "time", "-T", "1"});
  io::log_event(io::LogLevel::Debug, "adb.start", Json{{"argv", argv}});
  return runner_.start(argv, spawn_errno);
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
