#include "clawperator/adb/adb_client.hpp"

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

process::Completion AdbClient::devices() {
  std::vector<std::string> argv = base_argv();
  argv.insert(argv.end(), {"devices", "-l"});
  return runner_.run({argv, kDevicesTimeout});
}

process::Completion AdbClient::shell(const std::string& serial, const std::string& command,
                                     std::chrono::milliseconds timeout) {
  return runner_.run({device_argv(serial, {"shell", command}), timeout});
}

std::unique_ptr<process::Stream> AdbClient::follow_logcat(const std::string& serial,
                                                          int& spawn_errno) {
  return runner_.start(device_argv(serial, {"logcat", "-v", "time", "-T", "1"}), spawn_errno);
}

process::Completion AdbClient::exec_out(const std::string& serial,
                                        const std::vector<std::string>& args,
                                        std::chrono::milliseconds timeout,
                                        std::size_t max_output_bytes) {
  std::vector<std::string> argv = {"exec-out"};
  argv.insert(argv.end(), args.begin(), args.end());
  return runner_.run({device_argv(serial, argv), timeout, max_output_bytes});
}

}  // namespace clawperator::adb
