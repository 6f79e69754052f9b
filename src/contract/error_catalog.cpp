#include "clawperator/contract/error_catalog.hpp"

#include <algorithm>
#include <cctype>

namespace clawperator::contract {

const CatalogEntry* find_error(std::string_view code) {
  const auto rows = error_catalog();
  const auto it = std::find_if(rows.begin(), rows.end(),
                               [code](const CatalogEntry& row) { return row.code == code; });
  return it == rows.end() ? nullptr : &*it;
}

std::string derived_label(std::string_view code) {
  std::string label;
  label.reserve(code.size());
  for (const char c : code) {
    label.push_back(c == '_' ? ' '
                             : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (!label.empty()) {
    label.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(label.front())));
  }
  return label;
}

std::string_view to_string(Delivery delivery) {
  switch (delivery) {
    case Delivery::NotDelivered:
      return "not_delivered";
    case Delivery::DeliveryUncertain:
      return "delivery_uncertain";
    case Delivery::DeliveredUnverified:
      return "delivered_unverified";
    case Delivery::DeliveredVerified:
      return "delivered_verified";
    case Delivery::Unknown:
      break;
  }
  return "unknown";
}

Retry default_retry(Delivery delivery) {
  switch (delivery) {
    case Delivery::NotDelivered:
      return Retry::Safe;
    case Delivery::DeliveryUncertain:
    case Delivery::DeliveredUnverified:
    case Delivery::DeliveredVerified:
      return Retry::Unsafe;
    case Delivery::Unknown:
      break;
  }
  return Retry::Unknown;
}

std::string_view to_string(Retry retry) {
  switch (retry) {
    case Retry::Safe:
      return "safe";
    case Retry::Unsafe:
      return "unsafe";
    case Retry::Unknown:
      break;
  }
  return "unknown";
}

std::string_view to_string(RecoveryStrategy strategy) {
  switch (strategy) {
    case RecoveryStrategy::SelectDevice:
      return "select_device_then_retry_original";
    case RecoveryStrategy::RepairEnvironment:
      return "repair_environment_then_retry_original";
    case RecoveryStrategy::WaitThenRetry:
      return "wait_then_retry_original";
    case RecoveryStrategy::RefreshSnapshot:
      return "refresh_snapshot_then_retry_original";
    case RecoveryStrategy::None:
      break;
  }
  return "";
}

}  // namespace clawperator::contract
