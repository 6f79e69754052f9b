#include "vdevice/android/operator/recorder.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>

#include "vdevice/android/system/android_system.hpp"
#include "vdevice/android/ui/ui_xml.hpp"

namespace clawperator::vdevice::android {
namespace {

constexpr std::uint32_t kRecordingFileMode = 0660;

bool safe_session_id(const std::string& id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
}

bool blank(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); });
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\n\v\f\r");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\n\v\f\r");
  return text.substr(first, last - first + 1);
}

// The string or null the Operator writes for an optional field.
Json nullable(const std::string& text) {
  return blank(text) ? Json(nullptr) : Json(trimmed(text));
}

// A ViewGroup's click event carries its children's text (dispatchPopulateAccessibilityEvent):
// the first non-blank one in document order.
std::string first_text_within(const VisibleNode& node) {
  if (!blank(node.text())) return node.text();
  for (const VisibleNode& child : node.children) {
    if (!child.on_screen) continue;
    std::string found = first_text_within(child);
    if (!found.empty()) return found;
  }
  return {};
}

// "com.android.settings/.Settings" -> "com.android.settings.Settings", as the event's class.
std::string class_of(const std::string& activity) {
  const auto slash = activity.find('/');
  if (slash == std::string::npos) return activity;
  const std::string package = activity.substr(0, slash);
  const std::string name = activity.substr(slash + 1);
  return name.rfind('.', 0) == 0 ? package + name : name;
}

std::string generated_session_id(std::int64_t now_ms) {
  std::random_device random;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(random()));
  return "record-" + std::to_string(now_ms) + "-" + hex;
}

}  // namespace

Recorder::Answer Recorder::start(const std::string& operator_package,
                                 const std::optional<std::string>& session_id) {
  Answer answer;
  if (session_) {
    answer.ok = false;
    answer.data["error"] = "RECORDING_ALREADY_IN_PROGRESS";
    answer.data["message"] = "Recording is already in progress";
    answer.data["sessionId"] = session_->id;
    answer.data["filePath"] = session_->file_path;
    return answer;
  }
  const std::int64_t now = system_.epoch_ms();
  const std::string id =
      session_id && !blank(*session_id) ? *session_id : generated_session_id(now);
  if (!safe_session_id(id)) {
    answer.ok = false;
    answer.data["error"] = "RECORDING_START_FAILED";
    answer.data["message"] = "sessionId must use only letters, numbers, hyphens, or underscores";
    return answer;
  }
  Session session;
  session.id = id;
  session.operator_package = operator_package;
  session.file_path =
      "/sdcard/Android/data/" + operator_package + "/files/recordings/" + id + ".ndjson";
  Json header = Json::object();
  header["type"] = "recording_header";
  header["schemaVersion"] = 1;
  header["sessionId"] = id;
  header["startedAt"] = now;
  header["operatorPackage"] = operator_package;
  std::string line = dump_json(header) + "\n";
  session.bytes = line.size();
  // Truncate mode: a recording with the same id is replaced (RecordingManager.kt).
  if (const int error =
          system_.files().write(session.file_path, std::move(line), kRecordingFileMode, now / 1000);
      error != 0) {
    answer.ok = false;
    answer.data["error"] = "RECORDING_STORAGE_UNAVAILABLE";
    answer.data["message"] = "Cannot create " + session.file_path + ": " + std::strerror(error);
    return answer;
  }
  answer.data["sessionId"] = id;
  answer.data["filePath"] = session.file_path;
  session_ = std::move(session);
  return answer;
}

Recorder::Answer Recorder::stop(const std::optional<std::string>&) {
  Answer answer;
  if (!session_) {
    answer.ok = false;
    answer.data["error"] = "RECORDING_NOT_IN_PROGRESS";
    answer.data["message"] = "Recording is not in progress";
    return answer;
  }
  // A requested id that is not the active one still stops the active one (the Operator logs
  // SESSION_ID_MISMATCH and goes on).
  const Session session = std::move(*session_);
  session_.reset();
  const std::string directory = session.file_path.substr(0, session.file_path.rfind('/'));
  const std::int64_t now = system_.epoch_ms();
  if (const int error =
          system_.files().write(directory + "/latest", session.id, kRecordingFileMode, now / 1000);
      error != 0) {
    answer.ok = false;
    answer.data["error"] = "RECORDING_STOP_FAILED";
    answer.data["message"] =
        std::string("Cannot write the latest pointer: ") + std::strerror(error);
  }
  answer.data["sessionId"] = session.id;
  answer.data["filePath"] = session.file_path;
  answer.data["eventCount"] = std::to_string(session.written);
  return answer;
}

bool Recorder::filtered(const std::string& package) const {
  return package == "com.clawperator.operator" || package == "com.clawperator.operator.dev" ||
         (session_ && package == session_->operator_package);
}

void Recorder::write_event(const std::string& type, const Json& snapshot, Json fields) {
  Session& session = *session_;
  // seq counts what the Operator enqueued; a dropped line still used its number.
  const std::uint64_t seq = session.next_seq++;
  if (session.written >= kMaxEvents) return;
  Json line = Json::object();
  line["ts"] = system_.epoch_ms();
  line["seq"] = seq;
  line["snapshot"] = snapshot;
  for (auto& [key, value] : fields.items()) line[key] = std::move(value);
  line["type"] = type;
  const std::string text = dump_json(line) + "\n";
  if (session.bytes + text.size() > kMaxFileBytes) return;
  if (system_.files().append(session.file_path, text, system_.epoch_ms() / 1000) != 0) return;
  session.bytes += text.size();
  ++session.written;
}

void Recorder::clicked(const VisibleTree& tree, const VisibleNode& target) {
  if (filtered(target.package)) return;
  Json fields = Json::object();
  fields["packageName"] = target.package;
  fields["resourceId"] =
      target.spec->resource_id.empty() ? Json(nullptr) : Json(target.spec->resource_id);
  fields["text"] = nullable(first_text_within(target));
  fields["contentDesc"] = nullable(target.spec->content_desc);
  const Bounds& bounds = target.bounds;
  fields["bounds"] = {{"left", bounds.left},
                      {"top", bounds.top},
                      {"right", bounds.right},
                      {"bottom", bounds.bottom}};
  write_event("click", hierarchy_xml(tree), std::move(fields));
}

void Recorder::back_pressed(const VisibleTree& tree) {
  // Key events carry no package: none is filtered (RecordingEventFilter.kt).
  Json fields = Json::object();
  fields["key"] = "back";
  write_event("press_key", hierarchy_xml(tree), std::move(fields));
}

void Recorder::text_changed(const VisibleNode& field) {
  if (filtered(field.package)) return;
  Json fields = Json::object();
  fields["packageName"] = field.package;
  fields["resourceId"] = nullptr;
  const std::string text = field.text();
  fields["text"] = blank(text) ? std::string() : text;
  write_event("text_change", nullptr, std::move(fields));
}

void Recorder::scrolled(const VisibleNode& container, int first_visible) {
  if (filtered(container.package)) return;
  // The model scrolls by items, not pixels: the offsets are item indexes, along the axis.
  const int items = static_cast<int>(container.spec->children.size());
  const int max_offset = std::max(0, items - std::max(container.spec->visible_count, 1));
  const bool horizontal = container.spec->horizontal;
  Json fields = Json::object();
  fields["packageName"] = container.package;
  fields["resourceId"] = nullptr;
  fields["scrollX"] = horizontal ? first_visible : 0;
  fields["scrollY"] = horizontal ? 0 : first_visible;
  fields["maxScrollX"] = horizontal ? max_offset : 0;
  fields["maxScrollY"] = horizontal ? 0 : max_offset;
  write_event("scroll", nullptr, std::move(fields));
}

void Recorder::window_changed(const VisibleTree& tree, const std::string& activity) {
  if (filtered(tree.package)) return;
  Json fields = Json::object();
  fields["packageName"] = tree.package;
  fields["className"] = activity.empty() ? Json(nullptr) : Json(class_of(activity));
  const PackageSpec* package = system_.package(tree.package);
  fields["title"] = package != nullptr ? nullable(package->label) : Json(nullptr);
  write_event("window_change", hierarchy_xml(tree), std::move(fields));
}

}  // namespace clawperator::vdevice::android
