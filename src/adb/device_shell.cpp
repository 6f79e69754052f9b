#include "clawperator/adb/device_shell.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>

#include "clawperator/adb/adb_errors.hpp"
#include "clawperator/adb/package_list.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::adb {
namespace {

using contract::HostError;
using process::Completion;

constexpr std::size_t kStderrTail = 8192;
constexpr std::size_t kStdoutTail = 2048;

// adb's own log format, `adb W 12-01 14:52:07  1234  1234 network.cpp:150] text`: the prefix
// says nothing to a user. Returns the text after "] ", or nullopt for any other line.
std::optional<std::string_view> adb_log_text(std::string_view line) {
  if (line.size() < 12 || line.substr(0, 4) != "adb " ||
      std::string_view("VDIWEF").find(line[4]) == std::string_view::npos || line[5] != ' ' ||
      !std::isdigit(static_cast<unsigned char>(line[6])) || line[8] != '-') {
    return std::nullopt;
  }
  const auto end = line.find("] ");
  if (end == std::string_view::npos) return std::nullopt;
  return line.substr(end + 2);
}

// The first line worth a message: adb's log-format lines lose their prefix and give way to any
// plain line (the whole text stays in details.stderr).
std::string first_line(std::string_view text) {
  std::optional<std::string> logged;
  while (!text.empty()) {
    const auto end = text.find_first_of("\r\n");
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) continue;
    line.remove_prefix(start);
    if (const auto log_text = adb_log_text(line)) {
      if (!logged && !log_text->empty()) logged = std::string(*log_text);
      continue;
    }
    return std::string(line);
  }
  return logged.value_or("");
}

std::string tail(std::string_view text, std::size_t limit) {
  return std::string(text.size() > limit ? text.substr(text.size() - limit) : text);
}

std::string message_for(std::string_view code, const std::string& serial,
                        std::string_view adb_text) {
  const std::string device = serial.empty() ? "the device" : serial;
  if (code == "NO_DEVICES") return "No connected devices";
  if (code == "DEVICE_NOT_FOUND") return "Device " + device + " not found or not in device state";
  if (code == "DEVICE_UNAUTHORIZED") {
    return "Device " + device + " is unauthorized: accept the USB debugging prompt on the device";
  }
  if (code == "DEVICE_OFFLINE") return "Device " + device + " is offline";
  if (code == "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED") {
    return "Multiple devices are connected; choose one with --device";
  }
  if (code == "ADB_NO_USB_PERMISSIONS") return "adb has no permission to open " + device;
  return "adb failed: " + first_line(adb_text);
}

HostError shell_failure(const ShellCall& call, std::string message, Json details) {
  return contract::readiness_error(call.fallback_code, std::move(message), std::move(details));
}

}  // namespace

std::string with_exit_marker(const std::string& command) {
  return command + "; echo " + std::string(kExitMarker) + "$?";
}

MarkedOutput split_exit_marker(std::string_view stdout_text) {
  MarkedOutput output;
  const auto marker = stdout_text.rfind(kExitMarker);
  if (marker == std::string_view::npos || (marker > 0 && stdout_text[marker - 1] != '\n')) {
    output.text = std::string(stdout_text);
    return output;
  }
  output.text = std::string(stdout_text.substr(0, marker));
  const std::string_view rest = stdout_text.substr(marker + kExitMarker.size());
  // A shell's $? is 0..255; anything longer is not our marker's (and must not overflow).
  int value = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (error == std::errc() && end != rest.data() && value >= 0 && value <= 255) {
    output.exit_code = value;
  }
  return output;
}

contract::Status adb_call_failure(const Completion& completion, const AdbSettings& settings,
                                  std::string_view what, std::string_view fallback_code,
                                  const std::string& serial) {
  Json details = Json::object();
  details["adbCall"] = std::string(what);
  switch (completion.status) {
    case Completion::Status::Exited:
      if (completion.exit_code == 0) return {};
      break;
    case Completion::Status::SpawnFailed: {
      // ECANCELED is the runner's refusal after an interrupt or its token's cancellation.
      if (completion.spawn_errno == ECANCELED) {
        return contract::failed(
            contract::interrupted_error("Interrupted before " + std::string(what),
                                        process::interrupted_signal(), std::move(details)));
      }
      details["adbPath"] = settings.executable;
      details["processErrorCode"] = completion.spawn_errno;
      details["originalMessage"] = std::strerror(completion.spawn_errno);
      if (process::spawn_error_is_not_found(completion.spawn_errno)) {
        return contract::failed(contract::readiness_error(
            "ADB_NOT_FOUND", "ADB command not found at path: " + settings.executable,
            std::move(details)));
      }
      return contract::failed(contract::readiness_error(
          "ADB_SERVER_FAILED",
          "Could not start adb: " + std::string(std::strerror(completion.spawn_errno)),
          std::move(details)));
    }
    case Completion::Status::Cancelled:
      return contract::failed(contract::interrupted_error("Interrupted during " + std::string(what),
                                                          process::interrupted_signal(),
                                                          std::move(details)));
    case Completion::Status::TimedOut:
      details["timedOut"] = true;
      details["elapsedMs"] = completion.elapsed.count();
      break;
    case Completion::Status::Signaled:
      details["signal"] = completion.signal;
      break;
  }
  details["exitCode"] = completion.exit_code;
  details["stderr"] = tail(completion.err, kStderrTail);
  if (!completion.out.empty()) details["stdout"] = tail(completion.out, kStdoutTail);
  const std::string adb_text = completion.err + "\n" + completion.out;
  const auto classified = classify_adb_failure(adb_text);
  const std::string code = classified.value_or(std::string(fallback_code));
  std::string message =
      classified ? message_for(code, serial, adb_text)
      : completion.status == Completion::Status::TimedOut
          ? std::string(what) + " did not finish within " +
                std::to_string(completion.elapsed.count()) + " ms"
          : std::string(what) + " failed (exit " + std::to_string(completion.exit_code) + ")" +
                (first_line(completion.err).empty() ? std::string()
                                                    : ": " + first_line(completion.err));
  return contract::failed(contract::readiness_error(code, std::move(message), std::move(details)));
}

contract::Outcome<ShellOutput> run_device_shell(AdbClient& client, const std::string& serial,
                                                const ShellCall& call) {
  const Completion completion = client.shell(serial, with_exit_marker(call.command), call.timeout);
  if (auto status =
          adb_call_failure(completion, client.settings(), call.what, call.fallback_code, serial);
      !status) {
    return contract::failed(std::move(status.error()));
  }
  MarkedOutput marked = split_exit_marker(completion.out);
  if (!marked.exit_code) {
    Json details = Json::object();
    details["adbCall"] = call.what;
    details["exitCode"] = nullptr;
    details["stderr"] = tail(completion.err, kStderrTail);
    return contract::failed(
        shell_failure(call, "The device shell closed before " + call.what + " finished", details));
  }
  return ShellOutput{std::move(marked.text), completion.err, *marked.exit_code};
}

namespace {

// A command that ran but exited non-zero is the call's failure.
contract::Outcome<ShellOutput> require_exit_zero(const ShellCall& call,
                                                 contract::Outcome<ShellOutput> output) {
  if (!output || output->exit_code == 0) return output;
  Json details = Json::object();
  details["adbCall"] = call.what;
  details["exitCode"] = output->exit_code;
  details["stderr"] = tail(output->err, kStderrTail);
  return contract::failed(shell_failure(
      call, call.what + " failed on the device (exit " + std::to_string(output->exit_code) + ")",
      details));
}

}  // namespace

contract::Outcome<ShellOutput> run_device_shell_checked(AdbClient& client,
                                                        const std::string& serial,
                                                        const ShellCall& call) {
  return require_exit_zero(call, run_device_shell(client, serial, call));
}

namespace {

std::string package_listing(std::string_view flags, std::string_view filter) {
  std::string command = "pm list packages";
  if (!flags.empty()) command.append(" ").append(flags);
  if (!filter.empty()) command += " " + quote_for_device_shell(std::string(filter));
  return command;
}

contract::Outcome<ShellOutput> run_package_listing(AdbClient& client, const std::string& serial,
                                                   std::string_view flags,
                                                   std::string_view filter) {
  return run_device_shell_checked(client, serial,
                                  {package_listing(flags, filter), "pm list packages"});
}

}  // namespace

contract::Outcome<std::set<std::string>> list_packages(AdbClient& client, const std::string& serial,
                                                       std::string_view flags,
                                                       std::string_view filter) {
  CLAWPERATOR_TRY_ASSIGN(auto output, run_package_listing(client, serial, flags, filter));
  return parse_package_list(output.out);
}

contract::Outcome<std::map<std::string, std::vector<std::string>>> list_package_uids(
    AdbClient& client, const std::string& serial, std::string_view filter) {
  const ShellCall call{package_listing("-U", filter), "pm list packages"};
  auto output = run_device_shell(client, serial, call);
  if (output && output->exit_code != 0 &&
      (output->out.find("Unknown option") != std::string::npos ||
       output->err.find("Unknown option") != std::string::npos)) {
    // A package manager older than Android 8 knows no -U ("Error: Unknown option: -U"): the
    // names without uids then, as before (docs/guardrails.md §7: the result stays unproven).
    output = run_package_listing(client, serial, {}, filter);
  } else {
    output = require_exit_zero(call, std::move(output));
  }
  if (!output) return contract::failed(std::move(output).error());
  return parse_package_uids(output->out);
}

}  // namespace clawperator::adb
