// The public error catalog: the one table that says what every code means.
// Codes never change meaning; rows are only ever added (docs/contract.md §8).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace clawperator::contract {

// May the caller assume the request took effect? (docs/contract.md §5)
enum class Delivery {
  NotDelivered,
  DeliveryUncertain,
  DeliveredUnverified,
  DeliveredVerified,
  Unknown,
};

enum class Retry { Safe, Unsafe, Unknown };

// The machine-readable recovery move an agent can act on without reading prose.
enum class RecoveryStrategy {
  None,               // no automatic plan: fix the input, or inspect state first
  SelectDevice,       // select_device_then_retry_original
  RepairEnvironment,  // repair_environment_then_retry_original
  WaitThenRetry,      // wait_then_retry_original
  RefreshSnapshot,    // refresh_snapshot_then_retry_original
};

// Where a code is raised: by this host CLI, or only ever inside an Operator envelope.
enum class Origin { Host, Android, Both };

struct CatalogEntry {
  std::string_view code;
  std::string_view family;   // the group heading of docs/errors.md
  std::string_view meaning;  // one sentence, stable in intent
  Delivery delivery;         // the delivery when the host raises it in its usual phase
  int exit_code;             // the exit class of docs/contract.md §7
  RecoveryStrategy strategy;
  std::string_view recovery;  // what to do next, for a person
  Origin origin;
  // The HTTP status `serve` answers with when a request fails with this code outside an
  // envelope (a result, ok or not, is 200: docs/serve.md §2). Every code has one, and only
  // INTERNAL_ERROR is 500 (tests/unit/contract/error_catalog_test.cpp).
  int http_status;
};

// Every row, in catalog order.
std::span<const CatalogEntry> error_catalog();

// nullptr when the code is not in the catalog.
const CatalogEntry* find_error(std::string_view code);

// "MULTIPLE_DEVICES_DEVICE_ID_REQUIRED" -> "Multiple devices device id required".
std::string derived_label(std::string_view code);

// May the caller repeat a request that ended with this delivery? (docs/contract.md §4)
Retry default_retry(Delivery delivery);

std::string_view to_string(Delivery delivery);
std::string_view to_string(Retry retry);
// Empty for RecoveryStrategy::None.
std::string_view to_string(RecoveryStrategy strategy);

}  // namespace clawperator::contract

namespace clawperator::contract {

// docs/errors.md, generated from the table so that the two never drift apart.
std::string render_error_catalog_markdown();

}  // namespace clawperator::contract
