#include "emulator_errors.hpp"

#include <thread>

#include "clawperator/process/interrupt.hpp"

namespace clawperator::emulator {

namespace {

// Enough of a tool's stderr to say why it failed; a runaway tool's does not fill the result.
constexpr std::size_t kStderrTail = 4096;

std::string tail(const std::string& text) {
  return text.size() <= kStderrTail ? text : text.substr(text.size() - kStderrTail);
}

}  // namespace

contract::HostError emulator_error(std::string code, std::string message, Json details) {
  return contract::readiness_error(std::move(code), std::move(message), std::move(details));
}

contract::Status tool_failure(const process::Completion& completion, std::string_view tool,
                              std::string_view what, std::string code, Json details) {
  using Status = process::Completion::Status;
  if (completion.status == Status::Exited && completion.exit_code == 0) return {};
  if (completion.status == Status::Cancelled) {
    return contract::failed(contract::interrupted_error(
        std::string(what) + " was interrupted", process::interrupted_signal(), std::move(details)));
  }
  if (completion.status == Status::SpawnFailed &&
      process::spawn_error_is_not_found(completion.spawn_errno)) {
    details["missingTools"] = Json::array({std::string(tool)});
    return contract::failed(emulator_error(
        "ANDROID_SDK_TOOL_MISSING", "Required Android SDK tools are missing: " + std::string(tool),
        std::move(details)));
  }
  std::string why;
  if (completion.status == Status::TimedOut) {
    why = "timed out after " + std::to_string(completion.elapsed.count()) + " ms";
  } else if (completion.status == Status::SpawnFailed) {
    why = "could not be started (errno " + std::to_string(completion.spawn_errno) + ")";
  } else if (completion.status == Status::Signaled) {
    why = "was killed by signal " + std::to_string(completion.signal);
  } else {
    why = "exited with code " + std::to_string(completion.exit_code);
  }
  details["exitCode"] = completion.exit_code;
  details["stderr"] = tail(completion.err);
  if (completion.status == Status::TimedOut) details["timedOut"] = true;
  std::string message = std::string(what) + " " + why;
  const std::string last_words = tail(completion.err.empty() ? completion.out : completion.err);
  if (!last_words.empty()) {
    const std::size_t end = last_words.find_last_not_of(" \r\n");
    message += ": " + last_words.substr(0, end == std::string::npos ? 0 : end + 1);
  }
  return contract::failed(emulator_error(std::move(code), std::move(message), std::move(details)));
}

contract::Status pause(EmulatorHost& host, std::chrono::milliseconds duration) {
  const auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until) {
    if (host.runner.cancelled()) {
      return contract::failed(contract::interrupted_error(
          "Interrupted while waiting for the emulator", process::interrupted_signal()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {};
}

}  // namespace clawperator::emulator
