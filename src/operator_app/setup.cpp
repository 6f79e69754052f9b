#include "clawperator/operator_app/setup.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <variant>

#include "clawperator/adb/package_list.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/exec/preflight.hpp"
#include "clawperator/exec/trace.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/operator_app/components.hpp"
#include "clawperator/operator_app/permissions.hpp"
#include "clawperator/text.hpp"

namespace clawperator::operator_app {
namespace {

using contract::HostError;

// What is known so far, for the top-level fields of an error (inventory 7.5).
struct Progress {
  Json install = nullptr;
  Json permissions = nullptr;
  Json verification = nullptr;
};

SetupReport error_report(const HostError& error, const exec::ExecutionTrace& trace,
                         const Progress& progress) {
  Json document = contract::to_json(error);
  document["operatorPackage"] = trace.operator_package;
  if (!progress.install.is_null()) document["install"] = progress.install;
  if (!progress.permissions.is_null()) document["permissions"] = progress.permissions;
  if (!progress.verification.is_null()) document["verification"] = progress.verification;
  io::log_event(io::LogLevel::Warn, "operator.setup.failure",
                Json{{"code", error.code}, {"operatorPackage", trace.operator_package}});
  return {std::move(document), contract::exit_code_of(error)};
}

exec::ExecutionTrace setup_trace(const SetupRequest& request, const char* task) {
  exec::ExecutionTrace trace;
  trace.task_id = task;
  trace.operator_package = request.operator_package;
  trace.started_at = io::utc_timestamp(std::chrono::system_clock::now());
  return trace;
}

std::optional<HostError> check_apk_file(const std::string& path,
                                        const exec::ExecutionTrace& trace) {
  struct stat info {};
  std::string problem;
  if (path.empty()) {
    problem = "no APK path given";
  } else if (::stat(path.c_str(), &info) != 0) {
    problem = std::strerror(errno);
  } else if (!S_ISREG(info.st_mode)) {
    problem = "not a regular file";
  } else if (::access(path.c_str(), R_OK) != 0) {
    problem = std::strerror(errno);
  }
  if (problem.empty()) return std::nullopt;
  Json details = Json::object();
  details["apkPath"] = path;
  details["reason"] = problem;
  HostError error = trace.fail("OPERATOR_APK_NOT_FOUND",
                               "APK file not found: " + path + " (" + problem + ")", details);
  error.hint = "Check the path and rerun 'clawperator operator setup --apk <path>'.";
  return error;
}

// "Failure [INSTALL_FAILED_VERSION_DOWNGRADE: …]" -> INSTALL_FAILED_VERSION_DOWNGRADE
std::string install_failure_reason(std::string_view text) {
  const auto open = text.find("Failure [");
  if (open == std::string_view::npos) return {};
  std::string_view rest = text.substr(open + 9);
  const auto end = rest.find_first_of(":] ");
  return std::string(rest.substr(0, end));
}

std::optional<HostError> install_apk(adb::AdbClient& client, const std::string& serial,
                                     const std::string& apk_path, const exec::ExecutionTrace& trace,
                                     Json& install) {
  const process::Completion completion = client.install(serial, apk_path);
  install = Json{{"ok", false}};
  const std::string output = completion.out + completion.err;
  const bool success = completion.status == process::Completion::Status::Exited &&
                       completion.exit_code == 0 && output.find("Success") != std::string::npos;
  if (success) {
    install["ok"] = true;
    return std::nullopt;
  }
  std::optional<HostError> error = exec::adb_call_failure(completion, trace, client.settings(),
                                                          "adb install", "OPERATOR_INSTALL_FAILED");
  const std::string reason = install_failure_reason(output);
  if (!reason.empty()) install["reason"] = reason;
  // adb's own device errors keep their precise code; everything else is the install's.
  if (error && error->code != "OPERATOR_INSTALL_FAILED" &&
      error->code != "DEVICE_SHELL_UNAVAILABLE") {
    return error;
  }
  Json details = Json::object();
  details["apkPath"] = apk_path;
  details["exitCode"] = completion.exit_code;
  details["stdout"] = std::string(trim(completion.out));
  details["stderr"] = std::string(trim(completion.err));
  if (!reason.empty()) details["installFailureReason"] = reason;
  if (completion.status == process::Completion::Status::TimedOut) details["timedOut"] = true;
  const std::string first_words(trim(completion.err.empty() ? completion.out : completion.err));
  HostError failure =
      trace.fail("OPERATOR_INSTALL_FAILED",
                 "adb install failed" + (reason.empty() ? std::string() : " (" + reason + ")") +
                     (first_words.empty() ? std::string() : ": " + first_words.substr(0, 400)),
                 details);
  if (error) failure.signal_exit = error->signal_exit;
  failure.hint = reason == "INSTALL_FAILED_VERSION_DOWNGRADE"
                     ? "The device has a newer Operator; uninstall it first or install a newer APK."
                     : "Read the adb output in details, fix the cause, and rerun operator setup.";
  return failure;
}

// The Operator variant to configure: the requested one when explicit, else the
// one installed variant. `error_code` names the failure when it cannot be found.
std::variant<std::string, HostError> installed_operator(adb::AdbClient& client,
                                                        const std::string& serial,
                                                        const SetupRequest& request,
                                                        const exec::ExecutionTrace& trace,
                                                        const char* error_code) {
  // The filter is a substring match: the release name lists both variants.
  const std::string filter =
      request.operator_package_explicit ? request.operator_package : std::string(kReleasePackage);
  const process::Completion completion = client.shell(
      serial, exec::with_exit_marker("pm list packages " + adb::quote_for_device_shell(filter)));
  if (auto error = exec::adb_call_failure(completion, trace, client.settings(), "pm list packages",
                                          "DEVICE_SHELL_UNAVAILABLE")) {
    return std::move(*error);
  }
  const exec::ShellOutput output = exec::split_exit_marker(completion.out);
  if (output.exit_code != 0) {
    HostError error =
        trace.fail("DEVICE_SHELL_UNAVAILABLE", "The device could not list its packages");
    error.hint = "Run 'clawperator doctor' to check the device shell, then retry.";
    return error;
  }
  const std::set<std::string> packages = adb::parse_package_list(output.text);
  if (request.operator_package_explicit) {
    const bool found = packages.count(request.operator_package) != 0;
    if (found) return request.operator_package;
    Json details = Json::object();
    details["expectedPackage"] = request.operator_package;
    HostError error = trace.fail(
        error_code,
        "The Operator package " + request.operator_package + " is not installed on " + serial,
        details);
    error.hint = "Install it with 'clawperator operator setup --apk <operator.apk> --device " +
                 serial + " --operator-package " + request.operator_package + "'.";
    return error;
  }
  const bool release = packages.count(std::string(kReleasePackage)) != 0;
  const bool debug = packages.count(std::string(kDebugPackage)) != 0;
  if (release != debug) return std::string(release ? kReleasePackage : kDebugPackage);
  Json details = Json::object();
  details["candidates"] = Json::array({kReleasePackage, kDebugPackage});
  details["installed"] = Json::array();
  if (release) details["installed"].push_back(kReleasePackage);
  if (debug) details["installed"].push_back(kDebugPackage);
  HostError error = trace.fail(
      error_code,
      release ? "Both Operator variants are installed; choose one with --operator-package"
              : "No Operator package (" + std::string(kReleasePackage) + " or " +
                    std::string(kDebugPackage) + ") is installed on " + serial,
      details);
  error.hint = release ? "Pass --operator-package " + std::string(kReleasePackage) + " or " +
                             std::string(kDebugPackage) + "."
                       : "Install it with 'clawperator operator setup --apk <operator.apk> "
                         "--device " +
                             serial + "'.";
  return error;
}

}  // namespace

SetupReport run_operator_setup(const SetupRequest& request, process::Runner& runner) {
  exec::ExecutionTrace trace = setup_trace(request, "operator-setup");
  Progress progress;
  if (auto error = check_apk_file(request.apk_path, trace)) {
    return error_report(exec::without_execution_fields(*error), trace, progress);
  }
  adb::AdbClient client(runner, request.adb);
  auto resolved = exec::resolve_device(client, request.device, trace);
  if (auto* error = std::get_if<HostError>(&resolved)) {
    return error_report(exec::without_execution_fields(*error), trace, progress);
  }
  const std::string serial = std::get<std::string>(resolved);

  if (auto error = install_apk(client, serial, request.apk_path, trace, progress.install)) {
    return error_report(exec::without_execution_fields(*error), trace, progress);
  }
  auto package = installed_operator(client, serial, request, trace, "OPERATOR_VERIFY_FAILED");
  if (auto* error = std::get_if<HostError>(&package)) {
    progress.verification = Json{{"ok", false}, {"packageInstalled", false}};
    return error_report(exec::without_execution_fields(*error), trace, progress);
  }
  trace.operator_package = std::get<std::string>(package);
  progress.verification = Json{{"ok", true}, {"packageInstalled", true}};

  const PermissionReport permissions = grant_permissions(client, serial, trace);
  progress.permissions = to_json(permissions);
  if (permissions.error) {
    return error_report(exec::without_execution_fields(*permissions.error), trace, progress);
  }
  Json document = Json::object();
  document["ok"] = true;
  document["deviceId"] = serial;
  document["operatorPackage"] = trace.operator_package;
  document["install"] = progress.install;
  document["permissions"] = progress.permissions;
  document["verification"] = progress.verification;
  document["message"] = all_already_enabled(permissions)
                            ? "Operator installed. Required permissions were already enabled."
                            : "Operator installed and its permissions enabled.";
  // Installing the same APK again and re-granting change nothing more.
  document["disposition"] = Json{{"delivery", "delivered_verified"}, {"retry", "safe"}};
  io::log_event(io::LogLevel::Info, "operator.setup.success",
                Json{{"deviceId", serial}, {"operatorPackage", trace.operator_package}});
  return {std::move(document), contract::exit_code::kSuccess};
}

SetupReport run_permission_grants(const SetupRequest& request, process::Runner& runner) {
  exec::ExecutionTrace trace = setup_trace(request, "grant-device-permissions");
  Progress progress;
  adb::AdbClient client(runner, request.adb);
  auto resolved = exec::resolve_device(client, request.device, trace);
  if (auto* error = std::get_if<HostError>(&resolved)) {
    return error_report(exec::without_execution_fields(*error), trace, progress);
  }
  const std::string serial = std::get<std::string>(resolved);
  auto package = installed_operator(client, serial, request, trace, "OPERATOR_NOT_INSTALLED");
  if (auto* error = std::get_if<HostError>(&package)) {
    return error_report(exec::without_execution_fields(*error), trace, progress);
  }
  trace.operator_package = std::get<std::string>(package);
  const PermissionReport permissions = grant_permissions(client, serial, trace);
  if (permissions.error) {
    progress.permissions = to_json(permissions);
    return error_report(exec::without_execution_fields(*permissions.error), trace, progress);
  }
  Json document = Json::object();
  document["ok"] = true;
  document["deviceId"] = serial;
  document["operatorPackage"] = trace.operator_package;
  const Json grants = to_json(permissions);
  for (const auto& [key, value] : grants.items()) document[key] = value;
  document["message"] = all_already_enabled(permissions)
                            ? "Required permissions were already enabled."
                            : "Operator permissions enabled.";
  document["disposition"] = Json{{"delivery", "delivered_verified"}, {"retry", "safe"}};
  return {std::move(document), contract::exit_code::kSuccess};
}

}  // namespace clawperator::operator_app
