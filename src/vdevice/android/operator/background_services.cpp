#include "vdevice/android/operator/background_services.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>

#include "clawperator/contract/on_screen_log.hpp"
#include "vdevice/android/operator/unicode_text.hpp"
#include "vdevice/android/system/android_system.hpp"

namespace clawperator::vdevice::android {

using std::chrono::milliseconds;

BackgroundServices::BackgroundServices(const BackgroundScenario& scenario, SteadyTime boot)
    : scenario_(scenario), boot_(boot) {
  for (const NotificationSpec& spec : scenario.notifications) notifications_.push_back({spec, {}});
  for (const MediaSessionSpec& spec : scenario.media_sessions) {
    Session session;
    session.spec = spec;
    session.state = spec.state;
    session.anchor_position_ms = spec.position_ms;
    session.anchor_time = boot;
    session.report_time = boot;
    sessions_.push_back(std::move(session));
  }
}

std::int64_t BackgroundServices::elapsed_ms(SteadyTime now) const {
  return std::chrono::duration_cast<milliseconds>(now - boot_).count();
}

std::vector<const BackgroundServices::Notification*> BackgroundServices::notifications(
    SteadyTime now) const {
  std::vector<const Notification*> out;
  for (const Notification& notification : notifications_) {
    const bool posted = elapsed_ms(now) >= notification.spec.post_after_ms;
    const bool removed = notification.removed_at && *notification.removed_at <= now;
    if (posted && !removed) out.push_back(&notification);
  }
  // Newest first, as the listener's ranking shows them.
  std::stable_sort(out.begin(), out.end(), [](const Notification* a, const Notification* b) {
    return a->spec.post_after_ms > b->spec.post_after_ms;
  });
  return out;
}

BackgroundServices::Notification* BackgroundServices::notification(const std::string& key,
                                                                   SteadyTime now) {
  for (const Notification* visible : notifications(now)) {
    if (visible->spec.key == key) return const_cast<Notification*>(visible);
  }
  return nullptr;
}

std::vector<BackgroundServices::Session*> BackgroundServices::sessions(SteadyTime now) {
  std::vector<Session*> out;
  for (Session& session : sessions_) {
    if (session.spec.ends_after_ms && elapsed_ms(now) >= *session.spec.ends_after_ms) continue;
    out.push_back(&session);
  }
  return out;
}

std::int64_t BackgroundServices::position_ms(const Session& session, SteadyTime now) const {
  if (session.state != "playing") return session.anchor_position_ms;
  const double advanced =
      static_cast<double>(
          std::chrono::duration_cast<milliseconds>(now - session.anchor_time).count()) *
      session.spec.playback_speed;
  std::int64_t position = session.anchor_position_ms + std::llround(advanced);
  if (session.spec.duration_ms) position = std::min(position, *session.spec.duration_ms);
  return position;
}

void BackgroundServices::apply(Session& session, const std::string& state,
                               std::optional<std::int64_t> position, SteadyTime now) {
  session.anchor_position_ms = position.value_or(position_ms(session, now));
  session.anchor_time = now;
  session.state = state;
  ++session.report_sequence;
  session.report_time = now;
}

BackgroundServices::Panel* BackgroundServices::panel(SteadyTime now) {
  if (!panel_ || panel_->expires_at <= now) return nullptr;
  return &*panel_;
}

namespace background_actions {
namespace {

constexpr int kDefaultListLimit = 25;
constexpr int kDefaultTextChars = 256;
constexpr std::int64_t kDefaultToleranceMs = 1000;
constexpr milliseconds kDismissDelay{120};
constexpr milliseconds kObserveSampleEvery{250};
constexpr std::size_t kMaxObserveSamples = 64;

const Json* member(const Json& params, const char* key) {
  const auto it = params.find(key);
  return it == params.end() || it->is_null() ? nullptr : &*it;
}
std::optional<std::string> text(const Json& params, const char* key) {
  const Json* value = member(params, key);
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return value->get<std::string>();
}
std::int64_t integer(const Json& params, const char* key, std::int64_t fallback) {
  const Json* value = member(params, key);
  if (value == nullptr || !value->is_number()) return fallback;
  return std::llround(value->get<double>());
}

std::int64_t elapsed(const ActionContext& context) {
  return context.system->background().elapsed_ms(context.system->now());
}

Json device_state(const AndroidSystem& system) {
  return Json{{"screenOn", system.screen_on()},
              {"deviceLocked", system.locked()},
              {"userUnlocked", system.user_unlocked()}};
}

Json base_payload(const ActionContext& context) {
  Json payload = Json::object();
  payload["schemaVersion"] = 1;
  payload["observedElapsedMs"] = elapsed(context);
  payload["deviceState"] = device_state(*context.system);
  return payload;
}

StepOutcome ok(Json payload) {
  Json data = Json::object();
  data["payload"] = dump_json(payload);
  return StepOutcome::ok(std::move(data));
}

// A failure with the evidence: the payload says whether anything was sent.
StepOutcome fail(const ActionContext& context, const std::string& code, const std::string& message,
                 std::optional<bool> dispatched, Json extra = Json::object()) {
  Json payload = base_payload(context);
  if (dispatched) payload["dispatched"] = *dispatched;
  for (auto& [key, value] : extra.items()) payload[key] = value;
  Json data = Json::object();
  data["payload"] = dump_json(payload);
  return StepOutcome::fail(code, message, std::move(data));
}

// Cut to `limit` UTF-8 characters (the Operator counts UTF-16 units; close enough here).
Json capped(const std::optional<std::string>& value, int limit, bool& truncated) {
  if (!value) return nullptr;
  std::size_t bytes = 0;
  int characters = 0;
  while (bytes < value->size() && characters < limit) {
    ++bytes;
    while (bytes < value->size() && (static_cast<unsigned char>((*value)[bytes]) & 0xC0) == 0x80) {
      ++bytes;
    }
    ++characters;
  }
  if (bytes < value->size()) truncated = true;
  return value->substr(0, bytes);
}

enum class Access { Read, Mutation };

// What stops the Operator before it reaches the notifications or the sessions: listener access,
// the listener's binding, the system service and, for a read, the query itself. Nothing was sent.
std::optional<StepOutcome> unavailable(const ActionContext& context, Access access) {
  const BackgroundScenario& faults = context.system->background().scenario();
  if (!context.system->notification_listener_enabled(context.operator_package)) {
    return fail(context, "NOTIFICATION_ACCESS_DENIED",
                "Notification listener access is not granted to the Operator", false);
  }
  if (faults.listener_disconnected) {
    return fail(context, "NOTIFICATION_LISTENER_DISCONNECTED",
                "The Operator's notification listener is not bound to the system", false);
  }
  if (faults.notification_service_unavailable) {
    return fail(context, "NOTIFICATION_SERVICE_UNAVAILABLE",
                "The notification service did not answer (DeadObjectException)", false);
  }
  if (access == Access::Read && faults.query_fails) {
    return fail(context, "NOTIFICATION_QUERY_FAILED",
                "Reading the active notifications and sessions failed (SecurityException)", false);
  }
  return std::nullopt;
}

// The scenario's unclassified failure of a mutation, at the moment it is sent: with
// beforeDispatch nothing reached the app; with afterDispatch the change was sent (and takes
// effect) but the Operator could not confirm it. Call it before sending and, with
// `sent` true, after.
std::optional<StepOutcome> operation_failed(const ActionContext& context, bool sent,
                                            Json evidence = Json::object()) {
  const OperationFailure failure = context.system->background().scenario().operation_failure;
  const OperationFailure now =
      sent ? OperationFailure::AfterDispatch : OperationFailure::BeforeDispatch;
  if (failure != now) return std::nullopt;
  return fail(context, "NOTIFICATION_MEDIA_OPERATION_FAILED",
              sent ? "The operation was sent but failed on the device"
                   : "The operation failed on the device before it was sent",
              sent, std::move(evidence));
}

Json notification_json(const NotificationSpec& spec, int max_chars) {
  bool truncated = false;
  Json out = Json::object();
  out["key"] = spec.key;
  out["applicationId"] = spec.application_id;
  out["title"] = capped(spec.title, max_chars, truncated);
  out["text"] = capped(spec.text, max_chars, truncated);
  out["postTime"] = spec.post_after_ms;
  out["ongoing"] = spec.ongoing;
  out["clearable"] = spec.clearable && !spec.ongoing;
  out["groupKey"] = spec.group_key ? Json(*spec.group_key) : Json(nullptr);
  out["groupSummary"] = spec.group_summary;
  Json actions = Json::array();
  for (const NotificationActionSpec& action : spec.actions) {
    actions.push_back(Json{{"actionId", action.action_id},
                           {"title", capped(action.title, max_chars, truncated)},
                           {"requiresInput", action.requires_input},
                           {"requiresAuthentication", action.requires_authentication}});
  }
  out["actions"] = std::move(actions);
  out["actionsTruncated"] = false;
  out["textTruncated"] = truncated;
  if (spec.progress) {
    out["progress"] = Json{{"value", spec.progress->value},
                           {"max", spec.progress->max},
                           {"indeterminate", spec.progress->indeterminate}};
  } else {
    out["progress"] = nullptr;
  }
  return out;
}

Json session_json(const ActionContext& context, const BackgroundServices::Session& session,
                  int max_chars = kDefaultTextChars) {
  const BackgroundServices& services = context.system->background();
  const SteadyTime now = context.system->now();
  bool truncated = false;
  Json out = Json::object();
  out["mediaSessionId"] = session.spec.media_session_id;
  out["applicationId"] = session.spec.application_id;
  out["state"] = session.state;
  out["title"] = capped(session.spec.title, max_chars, truncated);
  out["artist"] = capped(session.spec.artist, max_chars, truncated);
  out["durationMs"] = session.spec.duration_ms ? Json(*session.spec.duration_ms) : Json(nullptr);
  out["reportedPositionMs"] = session.anchor_position_ms;
  out["estimatedPositionMs"] = services.position_ms(session, now);
  out["positionUpdatedElapsedMs"] = services.elapsed_ms(session.anchor_time);
  out["positionUpdateAgeMs"] = services.elapsed_ms(now) - services.elapsed_ms(session.anchor_time);
  out["positionUnknownReason"] = nullptr;
  out["observedElapsedMs"] = services.elapsed_ms(now);
  out["playbackSpeed"] = session.state == "playing" ? session.spec.playback_speed : 0.0;
  out["clock"] = "android_elapsed_realtime";
  out["evidence"] = "player_report";
  out["supportedControls"] = session.spec.supported_controls;
  out["textTruncated"] = truncated;
  out["playerReportSequence"] = session.report_sequence;
  out["playerReportReceivedElapsedMs"] = services.elapsed_ms(session.report_time);
  out["bufferedPositionMs"] = nullptr;
  out["playbackType"] = "local";
  return out;
}

struct Target {
  BackgroundServices::Session* session = nullptr;
  std::optional<StepOutcome> failure;
};

// Exactly one session by id or by application (validation guaranteed one of the two).
Target resolve_target(const ActionContext& context, const Json& params) {
  BackgroundServices& services = context.system->background();
  const std::vector<BackgroundServices::Session*> live = services.sessions(context.system->now());
  if (auto id = text(params, "mediaSessionId")) {
    for (BackgroundServices::Session* session : live) {
      if (session->spec.media_session_id == *id) return {session, {}};
    }
    return {nullptr, fail(context, "MEDIA_SESSION_EXPIRED",
                          "No active media session " + *id + "; list them with media list", false)};
  }
  const std::string application = text(params, "applicationId").value_or("");
  std::vector<BackgroundServices::Session*> matching;
  for (BackgroundServices::Session* session : live) {
    if (session->spec.application_id == application) matching.push_back(session);
  }
  if (matching.size() == 1) return {matching.front(), {}};
  if (matching.empty()) {
    return {nullptr, fail(context, "MEDIA_SESSION_EXPIRED",
                          "No active media session of " + application, false)};
  }
  Json candidates = Json::array();
  for (const BackgroundServices::Session* session : matching) {
    candidates.push_back(Json{{"mediaSessionId", session->spec.media_session_id},
                              {"applicationId", session->spec.application_id},
                              {"state", session->state}});
  }
  return {nullptr, fail(context, "MEDIA_SESSION_AMBIGUOUS",
                        std::to_string(matching.size()) + " media sessions of " + application +
                            "; name one with mediaSessionId",
                        false, Json{{"candidates", std::move(candidates)}})};
}

bool supports(const BackgroundServices::Session& session, const std::string& control) {
  const auto& controls = session.spec.supported_controls;
  return std::find(controls.begin(), controls.end(), control) != controls.end();
}

// The control reaches the player now; the player applies it after its delay. With a wait,
// the step finishes when the change shows (or the wait runs out).
StepOutcome control(const ActionContext& context, const Json& params, const std::string& name,
                    const std::string& state, std::optional<std::int64_t> position) {
  if (auto refused = unavailable(context, Access::Mutation)) return *refused;
  Target target = resolve_target(context, params);
  if (target.failure) return *target.failure;
  BackgroundServices::Session* session = target.session;
  if (!supports(*session, name)) {
    return fail(context, "MEDIA_ACTION_UNSUPPORTED", "The session does not support " + name, false,
                Json{{"session", session_json(context, *session)}});
  }
  const std::int64_t tolerance = integer(params, "positionToleranceMs", kDefaultToleranceMs);
  if (position && session->spec.duration_ms && *position > *session->spec.duration_ms) {
    return fail(context, "MEDIA_POSITION_OUT_OF_RANGE",
                "positionMs " + std::to_string(*position) + " is beyond the duration " +
                    std::to_string(*session->spec.duration_ms),
                false, Json{{"session", session_json(context, *session)}});
  }
  if (position && session->spec.seek_position_invalid) {
    return fail(context, "MEDIA_POSITION_INVALID",
                "The player does not accept positionMs " + std::to_string(*position), false,
                Json{{"session", session_json(context, *session)}});
  }
  if (auto failed = operation_failed(context, false)) return *failed;
  AndroidSystem& system = *context.system;
  const std::string id = session->spec.media_session_id;
  if (!session->spec.ignores_controls) {
    system.events().after(
        milliseconds(session->spec.control_delay_ms), [&system, id, state, position] {
          for (BackgroundServices::Session* live : system.background().sessions(system.now())) {
            if (live->spec.media_session_id == id) {
              system.background().apply(*live, state, position, system.now());
            }
          }
        });
  }
  if (auto failed = operation_failed(context, true)) return *failed;
  const std::int64_t wait = integer(params, "waitTimeoutMs", 0);
  const ActionContext copy = context;
  auto reached = [copy, id, state, position, tolerance]() -> BackgroundServices::Session* {
    AndroidSystem& device = *copy.system;
    for (BackgroundServices::Session* live : device.background().sessions(device.now())) {
      if (live->spec.media_session_id != id) continue;
      if (live->state != state) return nullptr;
      if (position && std::llabs(device.background().position_ms(*live, device.now()) - *position) >
                          tolerance) {
        return nullptr;
      }
      return live;
    }
    return nullptr;
  };
  auto finish = [copy, id, name, position, tolerance, wait](bool observed) -> StepOutcome {
    AndroidSystem& device = *copy.system;
    BackgroundServices::Session* live = nullptr;
    for (BackgroundServices::Session* candidate : device.background().sessions(device.now())) {
      if (candidate->spec.media_session_id == id) live = candidate;
    }
    if (live == nullptr) {
      return fail(copy, "MEDIA_SESSION_EXPIRED", "The media session ended", true);
    }
    Json payload = base_payload(copy);
    payload["dispatched"] = true;
    payload["waitTimeoutMs"] = wait;
    if (position) {
      payload["requestedPositionMs"] = *position;
      payload["positionToleranceMs"] = tolerance;
      payload["targetPositionObserved"] = observed;
    } else {
      payload["targetStateObserved"] = observed;
    }
    payload["session"] = session_json(copy, *live);
    if (wait > 0 && !observed) {
      Json data = Json::object();
      data["payload"] = dump_json(payload);
      return StepOutcome::fail("MEDIA_POSTCONDITION_TIMEOUT",
                               name + " was sent but the session did not get there within " +
                                   std::to_string(wait) + " ms",
                               std::move(data));
    }
    return ok(std::move(payload));
  };
  if (wait <= 0) return finish(reached() != nullptr);
  const auto deadline = system.now() + milliseconds(wait);
  auto poll = std::make_shared<std::function<StepOutcome()>>();
  // The pending resume holds the poll; the poll holds itself only weakly (no cycle).
  *poll = [copy, reached, finish, deadline,
           self = std::weak_ptr<std::function<StepOutcome()>>(poll)]() -> StepOutcome {
    if (reached() != nullptr) return finish(true);
    if (copy.system->now() >= deadline) return finish(false);
    return StepOutcome::later(milliseconds(50), [again = self.lock()] { return (*again)(); });
  };
  return StepOutcome::later(milliseconds(50), [poll] { return (*poll)(); });
}

std::string property_or(const AndroidSystem& system, const char* key) {
  const std::string value = system.property(key).value_or("");
  return value.empty() ? "Unavailable" : value;
}

// The Operator's bounds on an expanded template (OnScreenLogTemplate): the whole text and each
// substituted value, in UTF-16 units.
constexpr std::size_t kMaxExpandedUnits = 8192;
constexpr std::size_t kMaxValueUnits = 256;

// `text` cut to `limit` UTF-16 units, an ellipsis marking the cut; `cut` says whether it was.
std::string bounded(std::string_view text, std::size_t limit, bool& cut) {
  if (utf16_length(text) <= limit) return std::string(text);
  cut = true;
  return std::string(utf16_prefix(text, limit - 1)) + "\u2026";
}

// A metadata value as the panel shows it: control characters as spaces, then bounded.
std::string shown_value(std::string value, bool& cut) {
  for (char& c : value) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  }
  return bounded(value, kMaxValueUnits, cut);
}

struct Expanded {
  std::string text;
  bool cut = false;
};

// The panel's text with the template expanded from the device's own metadata.
Expanded expand(const ActionContext& context, const std::string& template_text) {
  AndroidSystem& system = *context.system;
  auto pieces = contract::on_screen_log::parse_template(template_text);
  if (!pieces) return {template_text};  // validated on the host: cannot happen
  const std::string package = system.ui().foreground_package();
  const PackageSpec* spec = system.package(package);
  const std::string locale = system.property("persist.sys.locale").value_or("");
  const std::string language = locale.substr(0, locale.find('-'));
  Expanded expanded;
  std::string out;
  for (const contract::on_screen_log::TemplatePiece& piece : *pieces) {
    if (!piece.placeholder) {
      out += piece.text;
      continue;
    }
    const std::string& name = piece.text;
    std::string value = "Unavailable";
    if (name == "foreground_app.icon") {
      value = package.empty() ? "[icon]" : "[icon " + package + "]";
    } else if (name == "foreground_app.package_name" && !package.empty()) {
      value = package;
    } else if (name == "foreground_app.version_code" && spec != nullptr) {
      value = std::to_string(spec->version_code);
    } else if (name == "foreground_app.version_name" && spec != nullptr) {
      value = spec->version_name;
    } else if (name == "device.manufacturer") {
      value = property_or(system, "ro.product.manufacturer");
    } else if (name == "device.model") {
      value = property_or(system, "ro.product.model");
    } else if (name == "system.language_code" && !language.empty()) {
      value = language;
    } else if (name == "system.language_tag" && !locale.empty()) {
      value = locale;
    } else if (name == "system.language_name" && !language.empty()) {
      value = language == "en" ? "English" : language == "de" ? "Deutsch" : language;
    }
    out += shown_value(std::move(value), expanded.cut);
  }
  expanded.text = bounded(out, kMaxExpandedUnits, expanded.cut);
  return expanded;
}

}  // namespace

namespace {

// list_notifications and list_media_sessions: the entries of `applicationId` (all without it),
// the first `limit` rendered by `render(entry, maxTextChars)`, counted and marked truncated.
template <typename Entries, typename Render>
StepOutcome bounded_list(const ActionContext& context, const Json& params, const char* field,
                         const Entries& entries, Render render) {
  const auto application = text(params, "applicationId");
  const auto limit = static_cast<std::size_t>(integer(params, "limit", kDefaultListLimit));
  const int max_chars = static_cast<int>(integer(params, "maxTextChars", kDefaultTextChars));
  Json list = Json::array();
  std::size_t total = 0;
  for (const auto* entry : entries) {
    if (application && entry->spec.application_id != *application) continue;
    ++total;
    if (list.size() < limit) list.push_back(render(*entry, max_chars));
  }
  Json payload = base_payload(context);
  payload[field] = std::move(list);
  payload["total"] = total;
  payload["truncated"] = total > limit;
  return ok(std::move(payload));
}

}  // namespace

StepOutcome list_notifications(const ActionContext& context, const Json& params) {
  if (auto refused = unavailable(context, Access::Read)) return *refused;
  return bounded_list(context, params, "notifications",
                      context.system->background().notifications(context.system->now()),
                      [](const auto& notification, int max_chars) {
                        return notification_json(notification.spec, max_chars);
                      });
}

StepOutcome dismiss_notification(const ActionContext& context, const Json& params) {
  if (auto refused = unavailable(context, Access::Mutation)) return *refused;
  const std::string key = text(params, "notificationKey").value_or("");
  AndroidSystem& system = *context.system;
  BackgroundServices::Notification* notification =
      system.background().notification(key, system.now());
  if (notification == nullptr) {
    return fail(context, "NOTIFICATION_EXPIRED", "No notification has the key " + key, false);
  }
  if (!notification->spec.clearable || notification->spec.ongoing) {
    return fail(context, "NOTIFICATION_NOT_DISMISSIBLE",
                "The notification is ongoing or not clearable", false,
                Json{{"notificationKey", key}});
  }
  if (auto failed = operation_failed(context, false, Json{{"notificationKey", key}})) {
    return *failed;
  }
  // cancelNotification is asynchronous: the listener sees the removal a moment later.
  notification->removed_at = system.now() + kDismissDelay;
  if (auto failed = operation_failed(context, true, Json{{"notificationKey", key}})) {
    return *failed;
  }
  const std::int64_t wait = integer(params, "waitTimeoutMs", 0);
  auto finish = [context, key, wait](bool observed) {
    Json payload = base_payload(context);
    payload["notificationKey"] = key;
    payload["dispatched"] = true;
    payload["removalObserved"] = observed;
    payload["waitTimeoutMs"] = wait;
    return ok(std::move(payload));
  };
  if (wait <= 0) return finish(false);
  if (milliseconds(wait) < kDismissDelay) {
    return StepOutcome::later(milliseconds(wait), [finish] { return finish(false); });
  }
  return StepOutcome::later(kDismissDelay, [finish] { return finish(true); });
}

StepOutcome invoke_notification_action(const ActionContext& context, const Json& params) {
  if (auto refused = unavailable(context, Access::Mutation)) return *refused;
  const std::string key = text(params, "notificationKey").value_or("");
  const std::string action_id = text(params, "actionId").value_or("");
  AndroidSystem& system = *context.system;
  const auto* notification = system.background().notification(key, system.now());
  if (notification == nullptr) {
    return fail(context, "NOTIFICATION_EXPIRED", "No notification has the key " + key, false);
  }
  const auto& actions = notification->spec.actions;
  const auto action = std::find_if(actions.begin(), actions.end(), [&](const auto& candidate) {
    return candidate.action_id == action_id;
  });
  Json evidence{{"notificationKey", key}, {"actionId", action_id}};
  if (action == actions.end()) {
    return fail(context, "NOTIFICATION_ACTION_EXPIRED",
                "The notification has no action " + action_id + " (any more); list it again", false,
                evidence);
  }
  if (action->requires_input) {
    return fail(context, "NOTIFICATION_ACTION_INPUT_UNSUPPORTED",
                "The action needs typed input (RemoteInput)", false, evidence);
  }
  if (action->requires_authentication) {
    return fail(context, "NOTIFICATION_ACTION_AUTHENTICATION_UNSUPPORTED",
                "The action needs the device unlocked by a person", false, evidence);
  }
  if (action->cancelled) {
    return fail(context, "NOTIFICATION_ACTION_CANCELLED", "The app cancelled the action's intent",
                false, evidence);
  }
  if (auto failed = operation_failed(context, false, evidence)) return *failed;
  system.log_line(
      AndroidSystem::kSystemServerPid, AndroidSystem::kSystemServerPid + 40, 'I',
      "NotificationService",
      "Sent action " + action_id + " of " + key + " to " + notification->spec.application_id);
  if (auto failed = operation_failed(context, true, evidence)) return *failed;
  Json payload = base_payload(context);
  payload["notificationKey"] = key;
  payload["actionId"] = action_id;
  payload["dispatched"] = true;
  return ok(std::move(payload));
}

StepOutcome list_media_sessions(const ActionContext& context, const Json& params) {
  if (auto refused = unavailable(context, Access::Read)) return *refused;
  return bounded_list(context, params, "sessions",
                      context.system->background().sessions(context.system->now()),
                      [&context](const auto& session, int max_chars) {
                        return session_json(context, session, max_chars);
                      });
}

StepOutcome get_media_status(const ActionContext& context, const Json& params) {
  if (auto refused = unavailable(context, Access::Read)) return *refused;
  Target target = resolve_target(context, params);
  if (target.failure) return *target.failure;
  Json payload = base_payload(context);
  payload["session"] = session_json(context, *target.session);
  return ok(std::move(payload));
}

StepOutcome observe_media(const ActionContext& context, const Json& params) {
  if (auto refused = unavailable(context, Access::Read)) return *refused;
  Target target = resolve_target(context, params);
  if (target.failure) return *target.failure;
  const std::string id = target.session->spec.media_session_id;
  const std::int64_t duration = integer(params, "durationMs", 1000);
  struct Observation {
    Json initial;
    Json samples = Json::array();
    std::int64_t started = 0;
    std::int64_t last_sequence = 0;
    std::int64_t first_position = 0;
    std::int64_t new_reports = 0;
    bool truncated = false;
  };
  auto observation = std::make_shared<Observation>();
  observation->initial = session_json(context, *target.session);
  observation->started = elapsed(context);
  observation->last_sequence = target.session->report_sequence;
  observation->first_position =
      context.system->background().position_ms(*target.session, context.system->now());
  const auto deadline = context.system->now() + milliseconds(duration);
  const ActionContext copy = context;
  auto sample = std::make_shared<std::function<StepOutcome()>>();
  *sample = [copy, id, duration, deadline, observation,
             self = std::weak_ptr<std::function<StepOutcome()>>(sample)]() -> StepOutcome {
    AndroidSystem& device = *copy.system;
    BackgroundServices::Session* live = nullptr;
    for (BackgroundServices::Session* candidate : device.background().sessions(device.now())) {
      if (candidate->spec.media_session_id == id) live = candidate;
    }
    if (live == nullptr) {
      return fail(copy, "MEDIA_SESSION_EXPIRED", "The media session ended while observed",
                  std::nullopt);
    }
    // A playing player reports its position as it goes; a sample is one report.
    if (live->state == "playing") {
      device.background().apply(*live, live->state, std::nullopt, device.now());
    }
    if (live->report_sequence != observation->last_sequence) {
      observation->new_reports += live->report_sequence - observation->last_sequence;
      observation->last_sequence = live->report_sequence;
      if (observation->samples.size() < kMaxObserveSamples) {
        observation->samples.push_back(Json{
            {"playerReportSequence", live->report_sequence},
            {"playerReportReceivedElapsedMs", device.background().elapsed_ms(live->report_time)},
            {"state", live->state},
            {"reportedPositionMs", live->anchor_position_ms},
            {"positionUpdatedElapsedMs", device.background().elapsed_ms(live->anchor_time)},
            {"playbackSpeed", live->state == "playing" ? live->spec.playback_speed : 0.0}});
      } else {
        observation->truncated = true;
      }
    }
    if (device.now() >= deadline) {
      Json payload = base_payload(copy);
      payload["initialSession"] = observation->initial;
      payload["session"] = session_json(copy, *live);
      payload["startedElapsedMs"] = observation->started;
      payload["endedElapsedMs"] = device.background().elapsed_ms(device.now());
      payload["durationMs"] = duration;
      payload["samples"] = observation->samples;
      payload["newPlayerReportCount"] = observation->new_reports;
      payload["truncated"] = observation->truncated;
      payload["reportedPositionDeltaMs"] = live->anchor_position_ms - observation->first_position;
      return ok(std::move(payload));
    }
    const auto step =
        std::min<std::chrono::steady_clock::duration>(kObserveSampleEvery, deadline - device.now());
    return StepOutcome::later(std::chrono::duration_cast<milliseconds>(step) + milliseconds(1),
                              [again = self.lock()] { return (*again)(); });
  };
  return StepOutcome::later(milliseconds(1), [sample] { return (*sample)(); });
}

StepOutcome media_play(const ActionContext& context, const Json& params) {
  return control(context, params, "play", "playing", std::nullopt);
}

StepOutcome media_pause(const ActionContext& context, const Json& params) {
  return control(context, params, "pause", "paused", std::nullopt);
}

StepOutcome media_seek(const ActionContext& context, const Json& params) {
  const std::int64_t position = integer(params, "positionMs", 0);
  // A seek keeps the state the session is in.
  Target target = resolve_target(context, params);
  const std::string state = target.session != nullptr ? target.session->state : "paused";
  return control(context, params, "seek", state, position);
}

// How long the Operator waits for the panel's draw acknowledgement (ON_SCREEN_LOG_RENDER_TIMEOUT).
constexpr milliseconds kDrawAcknowledgement{2000};

// The first `count` lines of `text`.
std::string first_lines(const std::string& text, int count) {
  std::size_t end = 0;
  for (int line = 0; line < count; ++line) {
    end = text.find('\n', end);
    if (end == std::string::npos) return text;
    if (line + 1 < count) ++end;
  }
  return text.substr(0, end);
}

StepOutcome set_on_screen_log(const ActionContext& context, const Json& params) {
  AndroidSystem& system = *context.system;
  BackgroundServices& services = system.background();
  if (!services.scenario().on_screen_log_failure.empty()) {
    return StepOutcome::fail(services.scenario().on_screen_log_failure,
                             "The on-screen log panel could not be drawn");
  }
  const std::string anchor = text(params, "anchor").value_or("left");
  const std::string align = text(params, "textAlign").value_or("left");
  const std::int64_t top = integer(params, "topOffsetDp", 8);
  const std::int64_t edge = integer(params, "edgeOffsetDp", 8);
  const std::int64_t width = integer(params, "widthDp", 280);
  const std::int64_t font = integer(params, "fontSizeSp", 12);
  const std::int64_t ttl = integer(params, "ttlMs", 300000);
  const std::string text_color = text(params, "textColor").value_or("#FFFFFFFF");
  const std::string background = text(params, "backgroundColor").value_or("#B3000000");
  Expanded shown{text(params, "text").value_or("")};
  if (auto template_text = text(params, "template")) shown = expand(context, *template_text);

  // The layout in physical pixels: 8 dp of padding, then whole lines; the text is cut to the
  // lines that fit below the top offset, and a panel where not even one fits is refused.
  const DisplaySpec& display = system.scenario().display;
  auto px = [&display](std::int64_t dp) { return static_cast<int>(dp * display.density / 160); };
  const int line_height = px(font * 14 / 10 + 1);
  const int room = display.height - px(top) - px(8);
  if (room < line_height || px(edge) + px(width) > display.width) {
    return StepOutcome::fail("ON_SCREEN_LOG_LAYOUT_INVALID",
                             "The display cannot hold the panel (" + std::to_string(px(width)) +
                                 " px wide, one line of " + std::to_string(line_height) +
                                 " px below " + std::to_string(px(top)) + " px)");
  }
  const int lines = 1 + static_cast<int>(std::count(shown.text.begin(), shown.text.end(), '\n'));
  const int fitting = std::min(lines, room / line_height);
  if (fitting < lines) {
    shown.text = first_lines(shown.text, fitting);
    shown.cut = true;
  }
  // A screen that is off draws nothing: the acknowledgement never comes.
  if (!system.screen_on()) {
    return StepOutcome::later(kDrawAcknowledgement, [] {
      return StepOutcome::fail("ON_SCREEN_LOG_RENDER_TIMEOUT",
                               "The panel did not draw within 2000 ms (the screen is off)");
    });
  }
  const int height = px(8) + fitting * line_height;
  const int left = anchor == "left" ? px(edge) : display.width - px(edge) - px(width);
  BackgroundServices::Panel panel;
  panel.node.class_name = "android.widget.TextView";
  panel.node.resource_id = context.operator_package + ":id/on_screen_log";
  panel.node.text = shown.text;
  panel.node.bounds = Bounds{left, px(top), left + px(width), px(top) + height};
  panel.expires_at = system.now() + milliseconds(ttl);
  const std::string bounds = to_string(*panel.node.bounds);
  services.show_panel(std::move(panel));
  Json data = Json::object();
  data["visible"] = "true";
  data["rendered"] = services.panel(system.now()) != nullptr ? "true" : "false";
  data["truncated"] = shown.cut ? "true" : "false";
  data["anchor"] = anchor;
  data["text_align"] = align;
  data["top_offset_dp"] = std::to_string(top);
  data["edge_offset_dp"] = std::to_string(edge);
  data["width_dp"] = std::to_string(width);
  data["font_size_sp"] = std::to_string(font);
  data["text_color"] = text_color;
  data["background_color"] = background;
  data["ttl_ms"] = std::to_string(ttl);
  data["bounds"] = bounds;
  return StepOutcome::ok(std::move(data));
}

StepOutcome clear_on_screen_log(const ActionContext& context, const Json&) {
  context.system->background().clear_panel();
  Json data = Json::object();
  data["visible"] = "false";
  return StepOutcome::ok(std::move(data));
}

}  // namespace background_actions

}  // namespace clawperator::vdevice::android
