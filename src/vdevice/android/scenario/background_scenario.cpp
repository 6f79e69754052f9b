#include "vdevice/android/scenario/background_scenario.hpp"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <string_view>

namespace clawperator::vdevice::android {
namespace {

// The first problem found, with the path of its field.
class Reader {
 public:
  bool ok() const { return !problem_; }
  const Problem& problem() const { return *problem_; }
  void fail(const std::string& path, const std::string& message) {
    if (!problem_) problem_ = Problem{path, message};
  }

  bool object(const Json& value, const std::string& path,
              std::initializer_list<std::string_view> keys) {
    if (!value.is_object()) {
      fail(path, "expected an object");
      return false;
    }
    for (const auto& item : value.items()) {
      if (item.key() == "comment") continue;
      if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) {
        fail(path + "." + item.key(), "unknown key");
        return false;
      }
    }
    return true;
  }
  const Json* member(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }
  void string(const Json& object, const char* key, const std::string& path, std::string& out,
              bool required = false) {
    const Json* value = member(object, key);
    if (value == nullptr) {
      if (required) fail(path + "." + key, "required");
      return;
    }
    if (!value->is_string() || (required && value->get_ref<const std::string&>().empty())) {
      return fail(path + "." + key, "expected a non-empty string");
    }
    out = value->get<std::string>();
  }
  void optional_string(const Json& object, const char* key, const std::string& path,
                       std::optional<std::string>& out) {
    const Json* value = member(object, key);
    if (value == nullptr || value->is_null()) return;
    if (!value->is_string()) return fail(path + "." + key, "expected a string or null");
    out = value->get<std::string>();
  }
  void boolean(const Json& object, const char* key, const std::string& path, bool& out) {
    const Json* value = member(object, key);
    if (value == nullptr) return;
    if (!value->is_boolean()) return fail(path + "." + key, "expected true or false");
    out = value->get<bool>();
  }
  template <typename Integer>
  void integer(const Json& object, const char* key, const std::string& path, Integer& out,
               std::int64_t low, std::int64_t high) {
    const Json* value = member(object, key);
    if (value == nullptr) return;
    if (!value->is_number_integer() || value->get<std::int64_t>() < low ||
        value->get<std::int64_t>() > high) {
      return fail(path + "." + key, "expected an integer from " + std::to_string(low) + " to " +
                                        std::to_string(high));
    }
    out = static_cast<Integer>(value->get<std::int64_t>());
  }
  template <typename Integer>
  void optional_integer(const Json& object, const char* key, const std::string& path,
                        std::optional<Integer>& out, std::int64_t low, std::int64_t high) {
    const Json* value = member(object, key);
    if (value == nullptr || value->is_null()) return;
    Integer read = 0;
    integer(object, key, path, read, low, high);
    if (ok()) out = read;
  }
  template <typename Item, typename ReadItem>
  void list(const Json& object, const char* key, const std::string& path, std::vector<Item>& out,
            ReadItem read_item) {
    const Json* value = member(object, key);
    if (value == nullptr) return;
    if (!value->is_array()) return fail(path + "." + key, "expected an array");
    out.clear();
    for (std::size_t i = 0; i < value->size() && ok(); ++i) {
      Item item;
      read_item((*value)[i], path + "." + key + "[" + std::to_string(i) + "]", item);
      out.push_back(std::move(item));
    }
  }

 private:
  std::optional<Problem> problem_;
};

constexpr std::int64_t kDay = 86400000;

void read_action(Reader& reader, const Json& value, const std::string& path,
                 NotificationActionSpec& out) {
  if (!reader.object(
          value, path,
          {"actionId", "title", "requiresInput", "requiresAuthentication", "cancelled"})) {
    return;
  }
  reader.string(value, "actionId", path, out.action_id, true);
  reader.string(value, "title", path, out.title);
  reader.boolean(value, "requiresInput", path, out.requires_input);
  reader.boolean(value, "requiresAuthentication", path, out.requires_authentication);
  reader.boolean(value, "cancelled", path, out.cancelled);
}

void read_notification(Reader& reader, const Json& value, const std::string& path,
                       NotificationSpec& out) {
  if (!reader.object(value, path,
                     {"key", "applicationId", "title", "text", "groupKey", "groupSummary",
                      "ongoing", "clearable", "postAfterMs", "actions", "progress"})) {
    return;
  }
  reader.string(value, "key", path, out.key, true);
  reader.string(value, "applicationId", path, out.application_id, true);
  reader.optional_string(value, "title", path, out.title);
  reader.optional_string(value, "text", path, out.text);
  reader.optional_string(value, "groupKey", path, out.group_key);
  reader.boolean(value, "groupSummary", path, out.group_summary);
  reader.boolean(value, "ongoing", path, out.ongoing);
  reader.boolean(value, "clearable", path, out.clearable);
  reader.integer(value, "postAfterMs", path, out.post_after_ms, 0, kDay);
  reader.list(value, "actions", path, out.actions,
              [&](const Json& item, const std::string& where, NotificationActionSpec& action) {
                read_action(reader, item, where, action);
              });
  if (const Json* progress = reader.member(value, "progress");
      progress != nullptr && !progress->is_null()) {
    const std::string where = path + ".progress";
    if (!reader.object(*progress, where, {"value", "max", "indeterminate"})) return;
    NotificationProgress read;
    reader.integer(*progress, "value", where, read.value, 0, std::numeric_limits<int>::max());
    reader.integer(*progress, "max", where, read.max, 0, std::numeric_limits<int>::max());
    reader.boolean(*progress, "indeterminate", where, read.indeterminate);
    out.progress = read;
  }
}

void read_session(Reader& reader, const Json& value, const std::string& path,
                  MediaSessionSpec& out) {
  if (!reader.object(value, path,
                     {"mediaSessionId", "applicationId", "state", "title", "artist", "durationMs",
                      "positionMs", "playbackSpeed", "supportedControls", "controlDelayMs",
                      "ignoresControls", "endsAfterMs", "seekPositionInvalid"})) {
    return;
  }
  reader.string(value, "mediaSessionId", path, out.media_session_id, true);
  reader.string(value, "applicationId", path, out.application_id, true);
  reader.string(value, "state", path, out.state);
  static constexpr std::string_view kStates[] = {"playing", "paused", "stopped", "buffering"};
  if (std::find(std::begin(kStates), std::end(kStates), out.state) == std::end(kStates)) {
    reader.fail(path + ".state", "expected playing, paused, stopped or buffering");
  }
  reader.optional_string(value, "title", path, out.title);
  reader.optional_string(value, "artist", path, out.artist);
  reader.optional_integer(value, "durationMs", path, out.duration_ms, 0, kDay * 30);
  reader.integer(value, "positionMs", path, out.position_ms, 0, kDay * 30);
  if (const Json* speed = reader.member(value, "playbackSpeed")) {
    if (!speed->is_number() || speed->get<double>() <= 0 || speed->get<double>() > 8) {
      reader.fail(path + ".playbackSpeed", "expected a number above 0, at most 8");
    } else {
      out.playback_speed = speed->get<double>();
    }
  }
  if (const Json* controls = reader.member(value, "supportedControls")) {
    out.supported_controls.clear();
    if (!controls->is_array()) return reader.fail(path + ".supportedControls", "expected an array");
    for (const Json& control : *controls) {
      if (!control.is_string()) return reader.fail(path + ".supportedControls", "expected strings");
      out.supported_controls.push_back(control.get<std::string>());
    }
  }
  reader.integer(value, "controlDelayMs", path, out.control_delay_ms, 0, 60000);
  reader.boolean(value, "ignoresControls", path, out.ignores_controls);
  reader.optional_integer(value, "endsAfterMs", path, out.ends_after_ms, 0, kDay);
  reader.boolean(value, "seekPositionInvalid", path, out.seek_position_invalid);
}

}  // namespace

Expected<void, Problem> read_background_scenario(const Json& object, BackgroundScenario& out) {
  Reader reader;
  const std::string path = "backgroundServices";
  if (reader.object(object, path,
                    {"notifications", "mediaSessions", "onScreenLogFailure", "listenerDisconnected",
                     "notificationServiceUnavailable", "queryFails", "operationFailure"})) {
    reader.list(object, "notifications", path, out.notifications,
                [&](const Json& item, const std::string& where, NotificationSpec& notification) {
                  read_notification(reader, item, where, notification);
                });
    reader.list(object, "mediaSessions", path, out.media_sessions,
                [&](const Json& item, const std::string& where, MediaSessionSpec& session) {
                  read_session(reader, item, where, session);
                });
    reader.string(object, "onScreenLogFailure", path, out.on_screen_log_failure);
    if (!out.on_screen_log_failure.empty() &&
        out.on_screen_log_failure.rfind("ON_SCREEN_LOG_", 0) != 0) {
      reader.fail(path + ".onScreenLogFailure", "expected an ON_SCREEN_LOG_… code");
    }
    reader.boolean(object, "listenerDisconnected", path, out.listener_disconnected);
    reader.boolean(object, "notificationServiceUnavailable", path,
                   out.notification_service_unavailable);
    reader.boolean(object, "queryFails", path, out.query_fails);
    std::string failure;
    reader.string(object, "operationFailure", path, failure);
    if (failure == "beforeDispatch") {
      out.operation_failure = OperationFailure::BeforeDispatch;
    } else if (failure == "afterDispatch") {
      out.operation_failure = OperationFailure::AfterDispatch;
    } else if (!failure.empty()) {
      reader.fail(path + ".operationFailure", "expected beforeDispatch or afterDispatch");
    }
  }
  if (reader.ok()) return {};
  return Unexpected(reader.problem());
}

}  // namespace clawperator::vdevice::android
