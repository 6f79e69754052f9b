#include "clawperator/operator_app/setup.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/operator_app/components.hpp"
#include "clawperator/operator_app/permissions.hpp"
#include "clawperator/operator_app/presence.hpp"
#include "clawperator/text.hpp"

namespace clawperator::operator_app {
namespace {

using contract::HostError;

// What is known so far, for the top-level fields of an error (docs/setup.md).
struct Progress {
  Json install = nullptr;
  Json permissions = nullptr;
  Json verification = nullptr;
};

HostError with_progress(HostError error, const std::string& operator_package,
                        const Progress& progress) {
  error.top_level["operatorPackage"] = operator_package;
  if (!progress.install.is_null()) error.top_level["install"] = progress.install;
  if (!progress.permissions.is_null()) error.top_level["permissions"] = progress.permissions;
  if (!progress.verification.is_null()) error.top_level["verification"] = progress.verification;
  return error;
}

// Every failure of an install says whether the APK got installed, in the original's shape:
// until it was, `install: {ok: false, error}` with the failure's message (docs/setup.md).
HostError install_failure(HostError error, const std::string& operator_package, Progress progress) {
  if (progress.install.is_null()) progress.install = Json{{"ok", false}};
  if (!progress.install.value("ok", false)) progress.install["error"] = error.message;
  return with_progress(std::move(error), operator_package, progress);
}

contract::Status check_apk_file(const std::string& path) {
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
  if (problem.empty()) return {};
  Json details = Json::object();
  details["apkPath"] = path;
  details["reason"] = problem;
  return contract::failed(contract::readiness_error(
      "OPERATOR_APK_NOT_FOUND", "APK file not found: " + path + " (" + problem + ")", details));
}

// "Failure [INSTALL_FAILED_VERSION_DOWNGRADE: …]" -> INSTALL_FAILED_VERSION_DOWNGRADE
std::string install_failure_reason(std::string_view text) {
  const auto open = text.find("Failure [");
  if (open == std::string_view::npos) return {};
  std::string_view rest = text.substr(open + 9);
  const auto end = rest.find_first_of(":] ");
  return std::string(rest.substr(0, end));
}

contract::Status install_apk(adb::AdbClient& client, const std::string& serial,
                             const std::string& apk_path, Json& install) {
  const process::Completion completion = client.install(serial, apk_path);
  install = Json{{"ok", false}};
  const std::string output = completion.out + completion.err;
  const bool success = completion.status == process::Completion::Status::Exited &&
                       completion.exit_code == 0 && output.find("Success") != std::string::npos;
  if (success) {
    install["ok"] = true;
    return {};
  }
  contract::Status called = adb::adb_call_failure(completion, client.settings(), "adb install",
                                                  "OPERATOR_INSTALL_FAILED", serial);
  const std::string reason = install_failure_reason(output);
  if (!reason.empty()) install["reason"] = reason;
  // adb's own device errors keep their precise code; everything else is the install's.
  if (!called && called.error().code != "OPERATOR_INSTALL_FAILED" &&
      called.error().code != "DEVICE_SHELL_UNAVAILABLE") {
    return called;
  }
  Json details = Json::object();
  details["apkPath"] = apk_path;
  details["exitCode"] = completion.exit_code;
  details["stdout"] = std::string(trim(completion.out));
  details["stderr"] = std::string(trim(completion.err));
  if (!reason.empty()) details["installFailureReason"] = reason;
  if (completion.status == process::Completion::Status::TimedOut) details["timedOut"] = true;
  const std::string first_words(trim(completion.err.empty() ? completion.out : completion.err));
  HostError failure = contract::readiness_error(
      "OPERATOR_INSTALL_FAILED",
      "adb install failed" + (reason.empty() ? std::string() : " (" + reason + ")") +
          (first_words.empty() ? std::string() : ": " + first_words.substr(0, 400)),
      details);
  if (!called) failure.signal_exit = called.error().signal_exit;
  failure.hint = contract::hint_text(reason == "INSTALL_FAILED_VERSION_DOWNGRADE"
                                         ? contract::HintId::InstallRefusedAsDowngrade
                                         : contract::HintId::InstallFailedSeeAdbOutput);
  return contract::failed(std::move(failure));
}

// The Operator variant to configure: the requested one when explicit, else the
// one installed variant. `error_code` names the failure when it cannot be found.
contract::Outcome<std::string> installed_operator(adb::AdbClient& client, const std::string& serial,
                                                  const SetupRequest& request,
                                                  const char* error_code) {
  const std::string wanted =
      request.operator_package_explicit ? request.operator_package : std::string(kReleasePackage);
  CLAWPERATOR_TRY_ASSIGN(auto variants, installed_variants(client, serial, wanted));
  if (request.operator_package_explicit) {
    if (variants.count(request.operator_package) != 0) return request.operator_package;
    Json details = Json::object();
    details["expectedPackage"] = request.operator_package;
    HostError error = contract::readiness_error(
        error_code,
        "The Operator package " + request.operator_package + " is not installed on " + serial,
        details);
    // The release Operator is published (operator install); another package comes from a file.
    error.hint =
        request.operator_package == kReleasePackage
            ? contract::hint_text(contract::HintId::InstallOperator, {{"serial", serial}})
            : contract::hint_text(contract::HintId::InstallRequestedOperatorPackage,
                                  {{"serial", serial}, {"package", request.operator_package}});
    return contract::failed(std::move(error));
  }
  const bool release = variants.count(std::string(kReleasePackage)) != 0;
  const bool debug = variants.count(std::string(kDebugPackage)) != 0;
  if (release != debug) return std::string(release ? kReleasePackage : kDebugPackage);
  Json details = Json::object();
  details["candidates"] = Json::array({kReleasePackage, kDebugPackage});
  details["installed"] = Json::array();
  if (release) details["installed"].push_back(kReleasePackage);
  if (debug) details["installed"].push_back(kDebugPackage);
  HostError error = contract::readiness_error(
      error_code,
      release ? "Both Operator variants are installed; choose one with --operator-package"
              : "No Operator package (" + std::string(kReleasePackage) + " or " +
                    std::string(kDebugPackage) + ") is installed on " + serial,
      details);
  error.hint = release
                   ? contract::hint_text(
                         contract::HintId::ChooseOperatorVariant,
                         {{"release_package", kReleasePackage}, {"debug_package", kDebugPackage}})
                   : contract::hint_text(contract::HintId::InstallOperator, {{"serial", serial}});
  return contract::failed(std::move(error));
}

}  // namespace

contract::Outcome<Json> install_and_grant(adb::AdbClient& client, const std::string& serial,
                                          const SetupRequest& request,
                                          const std::string& apk_path) {
  std::string operator_package = request.operator_package;
  Progress progress;
  if (auto status = install_apk(client, serial, apk_path, progress.install); !status) {
    return contract::failed(install_failure(status.error(), operator_package, progress));
  }
  auto package = installed_operator(client, serial, request, "OPERATOR_VERIFY_FAILED");
  if (!package) {
    progress.verification = Json{{"ok", false}, {"packageInstalled", false}};
    return contract::failed(install_failure(package.error(), operator_package, progress));
  }
  operator_package = *package;
  progress.verification = Json{{"ok", true}, {"packageInstalled", true}};

  const PermissionReport permissions = grant_permissions(client, serial, operator_package);
  progress.permissions = to_json(permissions);
  if (permissions.error) {
    return contract::failed(install_failure(*permissions.error, operator_package, progress));
  }
  Json document = Json::object();
  document["ok"] = true;
  document["deviceId"] = serial;
  document["operatorPackage"] = operator_package;
  document["install"] = progress.install;
  document["permissions"] = progress.permissions;
  document["verification"] = progress.verification;
  document["message"] = all_already_enabled(permissions)
                            ? "Operator installed. Required permissions were already enabled."
                            : "Operator installed and its permissions enabled.";
  // Installing the same APK again and re-granting change nothing more.
  document["disposition"] = Json{{"delivery", "delivered_verified"}, {"retry", "safe"}};
  io::log_event(io::LogLevel::Info, "operator.setup.success",
                Json{{"deviceId", serial}, {"operatorPackage", operator_package}});
  return document;
}

SetupReport setup_report(contract::Outcome<Json> outcome) {
  if (outcome) return {std::move(*outcome), contract::exit_code::kSuccess};
  const HostError& error = outcome.error();
  io::log_event(io::LogLevel::Warn, "operator.setup.failure",
                Json{{"code", error.code},
                     {"operatorPackage", error.top_level.value("operatorPackage", Json())}});
  return {contract::to_json(error), contract::exit_code_of(error)};
}

SetupReport run_operator_setup(const SetupRequest& request, process::Runner& runner) {
  const auto fail = [&](const HostError& error) {
    return setup_report(
        contract::failed(install_failure(error, request.operator_package, Progress{})));
  };
  if (auto status = check_apk_file(request.apk_path); !status) return fail(status.error());
  adb::AdbClient client(runner, request.adb);
  const contract::Outcome<std::string> resolved = adb::resolve_device(client, request.device);
  if (!resolved) return fail(resolved.error());
  return setup_report(install_and_grant(client, *resolved, request, request.apk_path));
}

SetupReport run_permission_grants(const SetupRequest& request, process::Runner& runner) {
  const auto fail = [](const HostError& error, const std::string& operator_package,
                       const Progress& progress = {}) {
    return setup_report(contract::failed(with_progress(error, operator_package, progress)));
  };
  adb::AdbClient client(runner, request.adb);
  const contract::Outcome<std::string> resolved = adb::resolve_device(client, request.device);
  if (!resolved) return fail(resolved.error(), request.operator_package);
  const std::string& serial = *resolved;
  auto package = installed_operator(client, serial, request, "OPERATOR_NOT_INSTALLED");
  if (!package) return fail(package.error(), request.operator_package);
  const std::string& operator_package = *package;
  const PermissionReport permissions = grant_permissions(client, serial, operator_package);
  if (permissions.error) {
    Progress progress;
    progress.permissions = to_json(permissions);
    return fail(*permissions.error, operator_package, progress);
  }
  Json document = Json::object();
  document["ok"] = true;
  document["deviceId"] = serial;
  document["operatorPackage"] = operator_package;
  const Json grants = to_json(permissions);
  for (const auto& [key, value] : grants.items()) document[key] = value;
  document["message"] = all_already_enabled(permissions)
                            ? "Required permissions were already enabled."
                            : "Operator permissions enabled.";
  document["disposition"] = Json{{"delivery", "delivered_verified"}, {"retry", "safe"}};
  return {std::move(document), contract::exit_code::kSuccess};
}

}  // namespace clawperator::operator_app
