#include "clawperator/operator_app/permissions.hpp"

#include "clawperator/adb/device_settings.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/operator_app/components.hpp"
#include "clawperator/text.hpp"

namespace clawperator::operator_app {
namespace {

using contract::HostError;

// `cmd notification allow_listener` exists from Android 8.1 (API 27); older
// releases only read the secure setting.
constexpr int kAllowListenerSdk = 27;

struct ShellAnswer {
  std::optional<HostError> error;  // adb itself failed
  int exit_code = -1;              // the device command's status (-1: unknown)
  std::string out;
  std::string err;
};

ShellAnswer run_shell(adb::AdbClient& client, const std::string& serial,
                      const std::string& command) {
  contract::Outcome<adb::ShellOutput> output =
      adb::run_device_shell(client, serial, {command, command});
  ShellAnswer answer;
  if (!output) {
    answer.error = std::move(output).error();
    return answer;
  }
  answer.exit_code = output->exit_code;
  answer.out = std::move(output->out);
  answer.err = std::move(output->err);
  return answer;
}

std::string device_words(const ShellAnswer& answer) {
  std::string words(trim(answer.err));
  const std::string_view out = trim(answer.out);
  if (!out.empty()) words += (words.empty() ? "" : " ") + std::string(out);
  return words;
}

// The service exists but answers no shell command (not: it refused, it is missing).
bool lacks_shell_command(const ShellAnswer& answer) {
  const std::string words = device_words(answer);
  return words.find("No shell command implementation") != std::string::npos ||
         words.find("Unknown command: allow_listener") != std::string::npos;
}

HostError grant_failure(const std::string& package, const std::string& grant,
                        const std::string& what, const ShellAnswer& answer) {
  Json details = Json::object();
  details["grant"] = grant;
  details["exitCode"] = answer.exit_code;
  details["deviceOutput"] = device_words(answer);
  HostError error =
      contract::readiness_error("OPERATOR_GRANT_FAILED",
                                "Could not enable " + what + " for " + package +
                                    (details["deviceOutput"].get<std::string>().empty()
                                         ? std::string()
                                         : ": " + details["deviceOutput"].get<std::string>()),
                                details);
  error.hint = contract::hint_text(grant == "accessibility"
                                       ? contract::HintId::EnableAccessibilityInSettings
                                       : contract::HintId::EnableNotificationsInSettings);
  return error;
}

// Reads a secure setting; nullopt value for unset. The error is adb's or the device's.
contract::Status read_secure(adb::AdbClient& client, const std::string& serial,
                             const std::string& key, const std::string& package,
                             const std::string& grant, const std::string& what,
                             std::optional<std::string>& value) {
  const ShellAnswer answer = run_shell(client, serial, "settings get secure " + key);
  if (answer.error) return contract::failed(*answer.error);
  if (answer.exit_code != 0) return contract::failed(grant_failure(package, grant, what, answer));
  value = adb::parse_setting_value(answer.out);
  return {};
}

contract::Status grant_accessibility(adb::AdbClient& client, const std::string& serial,
                                     const std::string& package, GrantOutcome& outcome) {
  const std::string what = "the accessibility service";
  const std::string component = accessibility_component(package);
  outcome.method = "settings";
  std::optional<std::string> services;
  CLAWPERATOR_TRY(read_secure(client, serial, "enabled_accessibility_services", package,
                              "accessibility", what, services));
  std::optional<std::string> master;
  CLAWPERATOR_TRY(
      read_secure(client, serial, "accessibility_enabled", package, "accessibility", what, master));
  const bool listed = services && adb::component_list_contains(*services, component);
  if (listed && master == "1") {
    outcome.ok = true;
    outcome.already_enabled = true;
    return {};
  }
  std::string command;
  if (!listed) {
    command = "settings put secure enabled_accessibility_services " +
              adb::quote_for_device_shell(adb::component_list_with(services, component)) + " && ";
  }
  command += "settings put secure accessibility_enabled 1";
  const ShellAnswer answer = run_shell(client, serial, command);
  if (answer.error) return contract::failed(*answer.error);
  if (answer.exit_code != 0)
    return contract::failed(grant_failure(package, "accessibility", what, answer));
  // Android can refuse the write silently (a managed profile's allow-list): read it back.
  std::optional<std::string> after;
  CLAWPERATOR_TRY(read_secure(client, serial, "enabled_accessibility_services", package,
                              "accessibility", what, after));
  if (!after || !adb::component_list_contains(*after, component)) {
    ShellAnswer refused;
    refused.exit_code = 0;
    refused.out = "enabled_accessibility_services does not list " + component + " after the write";
    return contract::failed(grant_failure(package, "accessibility", what, refused));
  }
  outcome.ok = true;
  return {};
}

contract::Status grant_notification(adb::AdbClient& client, const std::string& serial,
                                    const std::string& package, GrantOutcome& outcome) {
  outcome.method = "pm grant";
  const ShellAnswer answer = run_shell(client, serial,
                                       "pm grant " + adb::quote_for_device_shell(package) +
                                           " android.permission.POST_NOTIFICATIONS");
  if (answer.error) return contract::failed(*answer.error);
  if (answer.exit_code == 0) {
    outcome.ok = true;
    return {};
  }
  if (grant_is_not_applicable(answer.err + "\n" + answer.out)) {
    outcome.ok = true;
    outcome.skipped = true;
    outcome.detail = device_words(answer);
    return {};
  }
  return contract::failed(
      grant_failure(package, "notification", "the notification permission", answer));
}

contract::Status grant_listener(adb::AdbClient& client, const std::string& serial,
                                const std::string& package, GrantOutcome& outcome) {
  const std::string what = "the notification listener";
  const std::string component = notification_listener_component(package);
  std::optional<std::string> listeners;
  CLAWPERATOR_TRY(read_secure(client, serial, "enabled_notification_listeners", package,
                              "notificationListener", what, listeners));
  if (listeners && adb::component_list_contains(*listeners, component)) {
    outcome.ok = true;
    outcome.already_enabled = true;
    outcome.method = "settings";
    return {};
  }
  const ShellAnswer sdk = run_shell(client, serial, "getprop ro.build.version.sdk");
  if (sdk.error) return contract::failed(*sdk.error);
  const std::optional<int> level = adb::parse_sdk_level(sdk.out);
  bool allowed = false;
  if (level && *level >= kAllowListenerSdk) {
    outcome.method = "cmd notification";
    const ShellAnswer answer =
        run_shell(client, serial,
                  "cmd notification allow_listener " + adb::quote_for_device_shell(component));
    if (answer.error) return contract::failed(*answer.error);
    // Some builds' notification service has no shell commands: only there the setting is
    // written instead. A refusal, or no service at all, is a failure.
    if (answer.exit_code != 0 && !lacks_shell_command(answer)) {
      return contract::failed(grant_failure(package, "notificationListener", what, answer));
    }
    allowed = answer.exit_code == 0;
  }
  if (!allowed) {
    outcome.method = "settings";
    const ShellAnswer answer =
        run_shell(client, serial,
                  "settings put secure enabled_notification_listeners " +
                      adb::quote_for_device_shell(adb::component_list_with(listeners, component)));
    if (answer.error) return contract::failed(*answer.error);
    if (answer.exit_code != 0)
      return contract::failed(grant_failure(package, "notificationListener", what, answer));
  }
  outcome.ok = true;
  return {};
}

Json grant_to_json(const GrantOutcome& outcome, bool with_skipped) {
  Json out = Json::object();
  out["ok"] = outcome.ok;
  if (with_skipped) {
    out["skipped"] = outcome.skipped;
  } else {
    out["alreadyEnabled"] = outcome.already_enabled;
  }
  out["method"] = outcome.method;
  if (!outcome.detail.empty()) out["detail"] = outcome.detail;
  return out;
}

}  // namespace

bool grant_is_not_applicable(std::string_view pm_output) {
  const std::string text = lowercase(pm_output);
  for (const char* phrase : {"unknown permission", "not a changeable permission type",
                             "already granted", "has not requested permission"}) {
    if (text.find(phrase) != std::string::npos) return true;
  }
  return false;
}

PermissionReport grant_permissions(adb::AdbClient& client, const std::string& serial,
                                   const std::string& package) {
  PermissionReport report;
  report.accessibility.emplace();
  if (auto status = grant_accessibility(client, serial, package, *report.accessibility); !status) {
    report.error = std::move(status).error();
    return report;
  }
  report.notification.emplace();
  if (auto status = grant_notification(client, serial, package, *report.notification); !status) {
    report.error = std::move(status).error();
    return report;
  }
  report.notification_listener.emplace();
  if (auto status = grant_listener(client, serial, package, *report.notification_listener);
      !status) {
    report.error = std::move(status).error();
  }
  return report;
}

Json to_json(const PermissionReport& report) {
  Json out = Json::object();
  if (report.accessibility) out["accessibility"] = grant_to_json(*report.accessibility, false);
  if (report.notification) out["notification"] = grant_to_json(*report.notification, true);
  if (report.notification_listener) {
    out["notificationListener"] = grant_to_json(*report.notification_listener, false);
  }
  return out;
}

bool all_already_enabled(const PermissionReport& report) {
  return report.accessibility && report.accessibility->already_enabled &&
         report.notification_listener && report.notification_listener->already_enabled &&
         report.notification && !report.notification->skipped;
}

}  // namespace clawperator::operator_app
