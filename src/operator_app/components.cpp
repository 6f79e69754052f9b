#include "clawperator/operator_app/components.hpp"

namespace clawperator::operator_app {

std::string accessibility_component(std::string_view package) {
  return std::string(package) +
         "/clawperator.operator.accessibilityservice.OperatorAccessibilityService";
}

std::string notification_listener_component(std::string_view package) {
  return std::string(package) + "/action.notification.NotificationListenerService";
}

}  // namespace clawperator::operator_app
