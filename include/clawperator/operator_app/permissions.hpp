// Enabling what the Operator needs on the device (docs/setup.md): its
// accessibility service, the notification permission and its notification
// listener. Each grant reads the current state first, so running it again
// changes nothing and reports alreadyEnabled.
#pragma once

#include <optional>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::operator_app {

struct GrantOutcome {
  bool ok = false;
  bool already_enabled = false;
  bool skipped = false;  // the permission does not exist on this Android version
  std::string method;    // how it was granted ("settings", "cmd notification", "pm grant")
  std::string detail;    // the device's words when it refused or skipped
};

struct PermissionReport {
  std::optional<GrantOutcome> accessibility;
  std::optional<GrantOutcome> notification;
  std::optional<GrantOutcome> notification_listener;
  std::optional<contract::HostError> error;  // OPERATOR_GRANT_FAILED or an adb failure
};

// Runs the three grants in order, stopping at the first failure.
PermissionReport grant_permissions(adb::AdbClient& client, const std::string& serial,
                                   const std::string& operator_package);

// {accessibility:{ok, alreadyEnabled}, notification:{ok, skipped}, notificationListener:{…}}
// with only the grants that ran.
Json to_json(const PermissionReport& report);
bool all_already_enabled(const PermissionReport& report);

// `pm grant` output that means "nothing to grant here" rather than a failure.
bool grant_is_not_applicable(std::string_view pm_output);

}  // namespace clawperator::operator_app
