// Recording lines as the Operator writes them (docs/recording.md, "The file"): every key
// present, in the Operator's order, nulls written.
#pragma once

#include <string>

#include "clawperator/json.hpp"

namespace clawperator::test_recording {

inline std::string header_line(const std::string& session = "rec-1", int version = 1) {
  Json header = Json::object();
  header["type"] = "recording_header";
  header["schemaVersion"] = version;
  header["sessionId"] = session;
  header["startedAt"] = 1710000000000LL;
  header["operatorPackage"] = "com.clawperator.operator";
  return dump_json(header);
}

inline Json snapshot_value(const std::string& xml) {
  return xml.empty() ? Json(nullptr) : Json(xml);
}

inline std::string window_change_line(long long seq, const std::string& package,
                                      const std::string& snapshot = "",
                                      const Json& title = nullptr) {
  Json event = Json::object();
  event["ts"] = 1710000000100LL + seq * 100;
  event["seq"] = seq;
  event["snapshot"] = snapshot_value(snapshot);
  event["packageName"] = package;
  event["className"] = "android.app.Activity";
  event["title"] = title;
  event["type"] = "window_change";
  return dump_json(event);
}

struct ClickFields {
  Json resource_id = nullptr;
  Json text = nullptr;
  Json content_desc = nullptr;
  int left = 0, top = 0, right = 0, bottom = 0;
  std::string package = "com.example.app";
};

// A click on the node with this text (the row's title a list row's click carries).
inline ClickFields click_on_text(std::string text) {
  ClickFields fields;
  fields.text = std::move(text);
  return fields;
}

inline ClickFields click_on_id(std::string resource_id) {
  ClickFields fields;
  fields.resource_id = std::move(resource_id);
  return fields;
}

inline std::string click_line(long long seq, const ClickFields& fields,
                              const std::string& snapshot = "") {
  Json event = Json::object();
  event["ts"] = 1710000000100LL + seq * 100;
  event["seq"] = seq;
  event["snapshot"] = snapshot_value(snapshot);
  event["packageName"] = fields.package;
  event["resourceId"] = fields.resource_id;
  event["text"] = fields.text;
  event["contentDesc"] = fields.content_desc;
  event["bounds"] = {{"left", fields.left},
                     {"top", fields.top},
                     {"right", fields.right},
                     {"bottom", fields.bottom}};
  event["type"] = "click";
  return dump_json(event);
}

// A scroll event: the container's offsets after it (scrollX, scrollY), as the Operator reports
// them; `resource_id` the container's, or null.
inline std::string scroll_line(long long seq, const std::string& package = "com.example.app",
                               double scroll_y = 120, Json resource_id = nullptr,
                               double scroll_x = 0) {
  Json event = Json::object();
  event["ts"] = 1710000000100LL + seq * 100;
  event["seq"] = seq;
  event["snapshot"] = nullptr;
  event["packageName"] = package;
  event["resourceId"] = std::move(resource_id);
  event["scrollX"] = scroll_x;
  event["scrollY"] = scroll_y;
  event["maxScrollX"] = 0;
  event["maxScrollY"] = 2000;
  event["type"] = "scroll";
  return dump_json(event);
}

inline std::string press_back_line(long long seq, const std::string& snapshot = "") {
  Json event = Json::object();
  event["ts"] = 1710000000100LL + seq * 100;
  event["seq"] = seq;
  event["snapshot"] = snapshot_value(snapshot);
  event["key"] = "back";
  event["type"] = "press_key";
  return dump_json(event);
}

inline std::string text_change_line(long long seq, const std::string& text,
                                    const std::string& package = "com.example.app",
                                    const Json& resource_id = nullptr) {
  Json event = Json::object();
  event["ts"] = 1710000000100LL + seq * 100;
  event["seq"] = seq;
  event["snapshot"] = nullptr;
  event["packageName"] = package;
  event["resourceId"] = resource_id;
  event["text"] = text;
  event["type"] = "text_change";
  return dump_json(event);
}

// `line` (an event) recorded `ms` milliseconds after the recording started.
inline std::string at_ms(const std::string& line, long long ms) {
  Json event = Json::parse(line);
  event["ts"] = 1710000000000LL + ms;
  return dump_json(event);
}

// A UI Automator hierarchy of the given <node .../> elements.
inline std::string hierarchy(const std::string& nodes) {
  return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
         "<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" "
         "package=\"com.example.app\" content-desc=\"\" bounds=\"[0,0][1080,2400]\">" +
         nodes + "</node></hierarchy>";
}

inline std::string node(const std::string& resource_id, const std::string& text,
                        const std::string& desc = "",
                        const std::string& bounds = "[0,0][100,100]") {
  return "<node index=\"0\" text=\"" + text + "\" resource-id=\"" + resource_id +
         "\" class=\"android.widget.TextView\" package=\"com.example.app\" content-desc=\"" + desc +
         "\" bounds=\"" + bounds + "\" />";
}

// A scrollable list (resource-id `resource_id`) holding `rows`.
inline std::string scrollable_list(const std::string& resource_id, const std::string& rows) {
  return "<node index=\"0\" text=\"\" resource-id=\"" + resource_id +
         "\" class=\"androidx.recyclerview.widget.RecyclerView\" package=\"com.example.app\" "
         "content-desc=\"\" scrollable=\"true\" bounds=\"[0,200][1080,2400]\">" +
         rows + "</node>";
}

}  // namespace clawperator::test_recording
