// The Operator app as the host sees it: its two build variants and the
// services Android must have enabled for it to work.
#pragma once

#include <string>
#include <string_view>

namespace clawperator::operator_app {

inline constexpr std::string_view kReleasePackage = "com.clawperator.operator";
inline constexpr std::string_view kDebugPackage = "com.clawperator.operator.dev";

// "<package>/clawperator.operator.accessibilityservice.OperatorAccessibilityService"
std::string accessibility_component(std::string_view package);
// "<package>/action.notification.NotificationListenerService"
std::string notification_listener_component(std::string_view package);

}  // namespace clawperator::operator_app
