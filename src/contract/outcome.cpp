#include "clawperator/contract/outcome.hpp"

#include <csignal>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/hint_catalog.hpp"

namespace clawperator::contract {
namespace {

Retry retry_for(Delivery delivery, const ActionProfile& actions) {
  // Repeating reads can never change the device, whatever happened to the first try.
  if (actions.known && actions.read_only) return Retry::Safe;
  return default_retry(delivery);
}

Delivery delivery_for(const HostError& error) {
  if (error.code == "INTERNAL_ERROR") return Delivery::Unknown;
  switch (error.phase) {
    case Phase::Usage:
    case Phase::Validation:
    case Phase::Readiness:
    case Phase::Verification:
      return Delivery::NotDelivered;
    case Phase::Dispatch:
    case Phase::ResultWait:
      switch (error.dispatch_state) {
        case DispatchState::NotDispatched:
          return Delivery::NotDelivered;
        case DispatchState::Unknown:
          return Delivery::DeliveryUncertain;
        case DispatchState::Dispatched:
          return Delivery::DeliveredUnverified;
      }
      break;
    case Phase::PostProcessing:
      // An envelope came back: the Operator reported what it did.
      return Delivery::DeliveredVerified;
  }
  return Delivery::Unknown;
}

bool has_dispatch_context(Phase phase) {
  return phase != Phase::Usage && phase != Phase::Validation && phase != Phase::Verification;
}

}  // namespace

std::string_view to_string(Phase phase) {
  switch (phase) {
    case Phase::Usage:
      return "usage";
    case Phase::Validation:
      return "validation";
    case Phase::Readiness:
      return "readiness";
    case Phase::Dispatch:
      return "dispatch";
    case Phase::ResultWait:
      return "result_wait";
    case Phase::Verification:
      return "verification";
    case Phase::PostProcessing:
      break;
  }
  return "post_processing";
}

std::string_view to_string(DispatchState state) {
  switch (state) {
    case DispatchState::NotDispatched:
      return "not_dispatched";
    case DispatchState::Dispatched:
      return "dispatched";
    case DispatchState::Unknown:
      break;
  }
  return "unknown";
}

int exit_code_for_signal(int signal) {
  return signal == SIGTERM ? exit_code::kTerminated : exit_code::kInterrupted;
}

HostError make_error(Phase phase, std::string code, std::string message, Json details) {
  HostError error;
  error.code = std::move(code);
  error.message = std::move(message);
  error.details = std::move(details);
  error.phase = phase;
  return error;
}

HostError usage_error(std::string code, std::string message) {
  return make_error(Phase::Usage, std::move(code), std::move(message));
}

HostError validation_error(std::string code, std::string message, Json details) {
  return make_error(Phase::Validation, std::move(code), std::move(message), std::move(details));
}

HostError field_error(std::string code, std::string message, std::string_view field) {
  HostError error = validation_error(std::move(code), std::move(message));
  if (!field.empty()) error.details["field"] = std::string(field);
  return error;
}

HostError readiness_error(std::string code, std::string message, Json details) {
  return make_error(Phase::Readiness, std::move(code), std::move(message), std::move(details));
}

HostError interrupted_error(std::string message, int signal, Json details) {
  HostError error =
      readiness_error("RESULT_TRANSPORT_CANCELLED", std::move(message), std::move(details));
  // Without a signal (one execution of a server cancelled by its caller) the exit code
  // follows from the code and the dispatch state like any other failure's.
  error.signal_exit = signal != 0 ? exit_code_for_signal(signal) : 0;
  return error;
}

std::string hint_of(const HostError& error) {
  if (!error.hint.empty()) return error.hint;
  const CatalogEntry* entry = find_error(error.code);
  if (entry == nullptr) return {};
  std::string hint(entry->recovery);
  // A command-line flag's value, not a payload field, is wrong: the catalog's sentence about
  // `details.path` would name a member the error does not have (issue 49: scroll sideways).
  const auto flag = error.details.find("flag");
  if (hint.find("`details.path`") != std::string::npos && !error.details.contains("path") &&
      flag != error.details.end() && flag->is_string()) {
    return hint_text(HintId::FixNamedFlag, {{"flag", flag->get<std::string>()}});
  }
  auto fill = [&](std::string_view placeholder, const char* key) {
    const auto it = error.details.find(key);
    if (it == error.details.end() || !it->is_string()) return;
    const std::string value = it->get<std::string>();
    for (auto at = hint.find(placeholder); at != std::string::npos;
         at = hint.find(placeholder, at + value.size())) {
      hint.replace(at, placeholder.size(), value);
    }
  };
  fill("<serial>", "deviceId");
  fill("<package>", "operatorPackage");
  return hint;
}

Disposition disposition_of(const HostError& error) {
  const Delivery delivery = delivery_for(error);
  return {delivery, retry_for(delivery, error.actions)};
}

int exit_code_of(const HostError& error) {
  if (error.signal_exit != 0) return error.signal_exit;
  const CatalogEntry* entry = find_error(error.code);
  // A code missing from the catalog is a bug of ours, never a user's problem.
  if (entry == nullptr || entry->exit_code == exit_code::kInternal) return exit_code::kInternal;
  if (entry->exit_code == exit_code::kUsage) return exit_code::kUsage;
  switch (delivery_for(error)) {
    case Delivery::NotDelivered:
      return entry->exit_code == exit_code::kFailed ? exit_code::kFailed : exit_code::kNotReady;
    case Delivery::DeliveredVerified:
      return exit_code::kFailed;
    case Delivery::DeliveryUncertain:
    case Delivery::DeliveredUnverified:
    case Delivery::Unknown:
      break;
  }
  return exit_code::kOutcomeUnknown;
}

Json to_json(const Disposition& disposition) {
  Json out = Json::object();
  out["delivery"] = to_string(disposition.delivery);
  out["retry"] = to_string(disposition.retry);
  return out;
}

Json to_json(const HostError& error) {
  Json out = Json::object();
  out["ok"] = false;
  out["code"] = error.code;
  out["message"] = error.message;
  if (std::string hint = hint_of(error); !hint.empty()) out["hint"] = std::move(hint);
  for (const auto& [key, value] : error.top_level.items()) out[key] = value;

  Json details = Json::object();
  details["phase"] = to_string(error.phase);
  if (has_dispatch_context(error.phase)) {
    details["dispatchState"] = to_string(error.dispatch_state);
  }
  for (const auto& [key, value] : error.details.items()) details[key] = value;
  out["details"] = std::move(details);

  const Disposition disposition = disposition_of(error);
  out["disposition"] = to_json(disposition);
  if (auto recovery = recovery_json(error.code, disposition, error.retry_after_ms)) {
    out["recovery"] = std::move(*recovery);
  }
  return out;
}

std::optional<Json> recovery_json(std::string_view code, const Disposition& disposition,
                                  std::optional<int> retry_after_ms) {
  const CatalogEntry* entry = find_error(code);
  if (disposition.retry != Retry::Safe || entry == nullptr ||
      entry->strategy == RecoveryStrategy::None) {
    return std::nullopt;
  }
  Json recovery = Json::object();
  recovery["strategy"] = to_string(entry->strategy);
  recovery["retryable"] = true;
  if (retry_after_ms) recovery["retryAfterMs"] = *retry_after_ms;
  return recovery;
}

Disposition disposition_of(const EnvelopeOutcome& envelope, const ActionProfile& actions) {
  bool mutating_succeeded = false;
  bool mutating_failed_with_effect = false;
  bool mutating_failed_without_effect = false;
  for (const StepOutcome& step : envelope.steps) {
    if (is_read_only_action(step.action_type)) continue;
    if (step.success) {
      mutating_succeeded = true;
    } else if (step.dispatched ? !*step.dispatched : is_no_effect_error_code(step.error_code)) {
      mutating_failed_without_effect = true;
    } else {
      mutating_failed_with_effect = true;
    }
  }
  Delivery delivery = Delivery::DeliveredVerified;
  if (mutating_failed_with_effect) {
    delivery = Delivery::DeliveredUnverified;
  } else if (!mutating_succeeded && (mutating_failed_without_effect || envelope.steps.empty())) {
    delivery = Delivery::NotDelivered;
  }
  Retry retry =
      (delivery == Delivery::NotDelivered || !mutating_succeeded) && !mutating_failed_with_effect
          ? Retry::Safe
          : Retry::Unsafe;
  if (actions.known && actions.read_only) retry = Retry::Safe;
  return {delivery, retry};
}

bool envelope_ok(const EnvelopeOutcome& envelope) {
  if (!envelope.status_success) return false;
  for (const StepOutcome& step : envelope.steps) {
    if (!step.success) return false;
  }
  return true;
}

}  // namespace clawperator::contract
