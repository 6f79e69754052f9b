// The Operator's actions against the UI model (docs/payload.md §2–4). An action either finishes
// at once or asks to be resumed after a delay (sleep, polling, swipes), so that everything
// runs on the device's timers and takes the time it takes on a phone.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "clawperator/json.hpp"
#include "vdevice/android/system/android_system.hpp"

namespace clawperator::vdevice::android {

struct StepOutcome {
  bool finished = true;
  bool success = true;
  // A failure the Operator reports and goes on from (close_app's UNSUPPORTED_RUNTIME_CLOSE).
  bool continues = false;
  // The envelope's errorCode when this failure ends the command (UI_TREE_UNAVAILABLE).
  std::optional<std::string> envelope_error_code;
  Json data = Json::object();  // strings only
  std::chrono::milliseconds wait{0};
  std::function<StepOutcome()> resume;

  static StepOutcome ok(Json data = Json::object());
  static StepOutcome fail(const std::string& code, const std::string& message,
                          Json extra = Json::object());
  static StepOutcome later(std::chrono::milliseconds delay, std::function<StepOutcome()> resume);
};

struct ActionContext {
  AndroidSystem* system = nullptr;
  std::string operator_package;
  std::string command_id;
  std::size_t pad_snapshot_bytes = 0;
  bool ui_tree_unavailable = false;  // the scenario's fault, when it applies to this command
  int pid = 0;
  int tid = 0;
};

// `type` is already normalised (contract::normalize_action_type).
StepOutcome start_action(const ActionContext& context, const std::string& type, const Json& params);

}  // namespace clawperator::vdevice::android
