// The Operator's notification listener, the platform's media sessions and the on-screen log
// panel of the simulated phone (docs/payload.md §8–9): their state over time and the nine
// notification/media actions and two panel actions against it. Notifications arrive as the
// scenario posts them, positions advance with real time at the playback speed, controls take
// effect after the player's delay, and the panel expires after its TTL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "clawperator/json.hpp"
#include "vdevice/android/operator/operator_actions.hpp"
#include "vdevice/android/scenario/background_scenario.hpp"
#include "vdevice/android/ui/ui_model.hpp"

namespace clawperator::vdevice::android {

class BackgroundServices {
 public:
  BackgroundServices(const BackgroundScenario& scenario, SteadyTime boot);

  struct Notification {
    NotificationSpec spec;
    std::optional<SteadyTime> removed_at;
  };
  struct Session {
    MediaSessionSpec spec;
    std::string state;
    std::int64_t anchor_position_ms = 0;  // the position at anchor_time
    SteadyTime anchor_time;
    std::int64_t report_sequence = 1;
    SteadyTime report_time;
  };
  struct Panel {
    NodeSpec node;  // the overlay a snapshot shows
    SteadyTime expires_at;
  };

  std::int64_t elapsed_ms(SteadyTime now) const;
  // Posted by now and not removed.
  std::vector<const Notification*> notifications(SteadyTime now) const;
  Notification* notification(const std::string& key, SteadyTime now);
  // Not yet released by its app.
  std::vector<Session*> sessions(SteadyTime now);
  std::int64_t position_ms(const Session& session, SteadyTime now) const;
  // A control the player applies now: the state, position and report change together.
  void apply(Session& session, const std::string& state, std::optional<std::int64_t> position,
             SteadyTime now);

  void show_panel(Panel panel) { panel_ = std::move(panel); }
  void clear_panel() { panel_.reset(); }
  // The panel while its TTL runs.
  Panel* panel(SteadyTime now);
  // The scenario's faults of these services (the panel's failure, the platform's).
  const BackgroundScenario& scenario() const { return scenario_; }

 private:
  const BackgroundScenario& scenario_;  // the device's scenario outlives its services
  SteadyTime boot_;
  std::vector<Notification> notifications_;
  std::vector<Session> sessions_;
  std::optional<Panel> panel_;
};

// The actions (the switch in operator_actions.cpp dispatches to them).
namespace background_actions {
StepOutcome list_notifications(const ActionContext& context, const Json& params);
StepOutcome dismiss_notification(const ActionContext& context, const Json& params);
StepOutcome invoke_notification_action(const ActionContext& context, const Json& params);
StepOutcome list_media_sessions(const ActionContext& context, const Json& params);
StepOutcome get_media_status(const ActionContext& context, const Json& params);
StepOutcome observe_media(const ActionContext& context, const Json& params);
StepOutcome media_play(const ActionContext& context, const Json& params);
StepOutcome media_pause(const ActionContext& context, const Json& params);
StepOutcome media_seek(const ActionContext& context, const Json& params);
StepOutcome set_on_screen_log(const ActionContext& context, const Json& params);
StepOutcome clear_on_screen_log(const ActionContext& context, const Json& params);
}  // namespace background_actions

}  // namespace clawperator::vdevice::android
