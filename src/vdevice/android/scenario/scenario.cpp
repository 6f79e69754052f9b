#include "vdevice/android/scenario/scenario.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <utility>

#include "clawperator/utf8.hpp"

namespace clawperator::vdevice::android {
namespace {

using Json = nlohmann::ordered_json;

// A problem of the scenario as a whole (no path): the message says what.
Unexpected<Problem> scenario_failure(std::string message) {
  return Unexpected(Problem{"", std::move(message)});
}

// The first problem found, with the path of the field.
class Problems {
 public:
  void fail(const std::string& path, const std::string& message) {
    if (!first_) first_ = Problem{path, message};
  }
  bool ok() const noexcept { return !first_; }
  // Precondition: !ok().
  const Problem& first() const noexcept { return *first_; }

 private:
  std::optional<Problem> first_;
};

std::string member_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string in_quotes(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

bool expect_object(Problems& problems, const Json& value, const std::string& path) {
  if (value.is_object()) return true;
  problems.fail(path, "expected an object");
  return false;
}

// Typos in a scenario should fail loudly, not be silently ignored.
void check_keys(Problems& problems, const Json& object, const std::string& path,
                std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : object.items()) {
    if (key == "comment") continue;
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      problems.fail(member_path(path, key), "unknown key");
      return;
    }
  }
}

const Json* member(const Json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

void read(Problems& problems, const Json& object, std::string_view key, const std::string& path,
          std::string& out) {
  const Json* value = member(object, key);
  if (value == nullptr) return;
  if (!value->is_string()) return problems.fail(member_path(path, key), "expected a string");
  out = value->get<std::string>();
}

void read(Problems& problems, const Json& object, std::string_view key, const std::string& path,
          bool& out) {
  const Json* value = member(object, key);
  if (value == nullptr) return;
  if (!value->is_boolean()) return problems.fail(member_path(path, key), "expected true or false");
  out = value->get<bool>();
}

template <typename Integer>
void read_integer(Problems& problems, const Json& object, std::string_view key,
                  const std::string& path, Integer& out, long long min, long long max) {
  const Json* value = member(object, key);
  if (value == nullptr) return;
  const std::string where = member_path(path, key);
  if (!value->is_number_integer()) return problems.fail(where, "expected an integer");
  if (value->is_number_unsigned() &&
      value->get<unsigned long long>() > static_cast<unsigned long long>(max)) {
    return problems.fail(where, "must be at most " + std::to_string(max));
  }
  const long long number = value->get<long long>();
  if (number < min || number > max) {
    return problems.fail(where,
                         "must be between " + std::to_string(min) + " and " + std::to_string(max));
  }
  out = static_cast<Integer>(number);
}

void read(Problems& problems, const Json& object, std::string_view key, const std::string& path,
          int& out, long long min = 0, long long max = std::numeric_limits<int>::max()) {
  read_integer(problems, object, key, path, out, min, max);
}

void read_strings(Problems& problems, const Json& object, std::string_view key,
                  const std::string& path, std::vector<std::string>& out) {
  const Json* value = member(object, key);
  if (value == nullptr) return;
  const std::string where = member_path(path, key);
  if (!value->is_array()) return problems.fail(where, "expected an array of strings");
  out.clear();
  for (std::size_t i = 0; i < value->size(); ++i) {
    if (!(*value)[i].is_string()) {
      return problems.fail(where + "[" + std::to_string(i) + "]", "expected a string");
    }
    out.push_back((*value)[i].get<std::string>());
  }
}

// Property and setting values are strings on a device; numbers and booleans are accepted
// for convenience and written as they would print.
void read_string_map(Problems& problems, const Json& object, const std::string& path,
                     std::map<std::string, std::string>& out) {
  if (!expect_object(problems, object, path)) return;
  for (const auto& [key, value] : object.items()) {
    if (value.is_string()) {
      out[key] = value.get<std::string>();
    } else if (value.is_boolean()) {
      out[key] = value.get<bool>() ? "true" : "false";
    } else if (value.is_number()) {
      out[key] = value.dump();
    } else {
      problems.fail(member_path(path, key), "expected a string, number or boolean");
    }
  }
}

std::optional<Bounds> parse_bounds(std::string_view text) {
  Bounds bounds;
  char tail = 0;
  const std::string copy(text);
  if (std::sscanf(copy.c_str(), "[%d,%d][%d,%d]%c", &bounds.left, &bounds.top, &bounds.right,
                  &bounds.bottom, &tail) != 4) {
    return std::nullopt;
  }
  if (bounds.right < bounds.left || bounds.bottom < bounds.top) return std::nullopt;
  return bounds;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Reads the key under its camelCase name or its uiautomator attribute name.
const char* pick(const Json& object, const char* camel, const char* attribute) {
  return object.contains(attribute) && !object.contains(camel) ? attribute : camel;
}

struct NodeContext {
  Problems& problems;
  std::vector<std::pair<std::string, std::string>>& screen_refs;  // (path, screen id)
  bool& wants_app_icons;
};

void read_node(NodeContext& context, const Json& object, const std::string& path, NodeSpec& node,
               bool parent_scrollable);

void read_children(NodeContext& context, const Json& object, const std::string& path,
                   NodeSpec& node) {
  const Json* children = member(object, "children");
  if (children == nullptr) return;
  const std::string where = member_path(path, "children");
  if (!children->is_array()) return context.problems.fail(where, "expected an array of nodes");
  node.children.resize(children->size());
  for (std::size_t i = 0; i < children->size(); ++i) {
    read_node(context, (*children)[i], where + "[" + std::to_string(i) + "]", node.children[i],
              node.scrollable);
  }
  if (!node.scrollable || node.children.empty()) {
    node.visible_count = static_cast<int>(node.children.size());
    return;
  }
  // The visible window: the children not marked offscreen, which must be contiguous.
  int first = -1;
  int last = -1;
  for (std::size_t i = 0; i < node.children.size(); ++i) {
    if (node.children[i].offscreen) continue;
    if (first < 0) first = static_cast<int>(i);
    if (last >= 0 && last != static_cast<int>(i) - 1) {
      return context.problems.fail(where, "the children not marked offscreen must be adjacent");
    }
    last = static_cast<int>(i);
  }
  if (first < 0) return context.problems.fail(where, "at least one child must be on screen");
  node.first_visible = first;
  node.visible_count = last - first + 1;
}

void read_node(NodeContext& context, const Json& object, const std::string& path, NodeSpec& node,
               bool parent_scrollable) {
  Problems& problems = context.problems;
  if (!expect_object(problems, object, path)) return;
  check_keys(problems, object, path,
             {"class",
              "resourceId",
              "resource-id",
              "text",
              "drawnText",
              "contentDesc",
              "content-desc",
              "role",
              "checkable",
              "checked",
              "clickable",
              "enabled",
              "focusable",
              "focused",
              "scrollable",
              "longClickable",
              "long-clickable",
              "password",
              "selected",
              "editable",
              "horizontal",
              "bounds",
              "size",
              "navigateTo",
              "requiresText",
              "otherwiseNavigateTo",
              "navigateOnSubmit",
              "offscreen",
              "appearsAfterMs",
              "textFromUri",
              "draggable",
              "appIcons",
              "children"});
  read(problems, object, "class", path, node.class_name);
  read(problems, object, pick(object, "resourceId", "resource-id"), path, node.resource_id);
  read(problems, object, "text", path, node.text);
  read(problems, object, "drawnText", path, node.drawn_text);
  read(problems, object, pick(object, "contentDesc", "content-desc"), path, node.content_desc);
  read(problems, object, "role", path, node.role);
  // Text fields behave like EditText unless told otherwise.
  const bool text_field = ends_with(node.class_name, "EditText");
  node.editable = node.clickable = node.focusable = text_field;
  read(problems, object, "checkable", path, node.checkable);
  read(problems, object, "checked", path, node.checked);
  read(problems, object, "clickable", path, node.clickable);
  read(problems, object, "enabled", path, node.enabled);
  read(problems, object, "focusable", path, node.focusable);
  read(problems, object, "focused", path, node.focused);
  read(problems, object, "scrollable", path, node.scrollable);
  read(problems, object, pick(object, "longClickable", "long-clickable"), path,
       node.long_clickable);
  read(problems, object, "password", path, node.password);
  read(problems, object, "selected", path, node.selected);
  read(problems, object, "editable", path, node.editable);
  read(problems, object, "horizontal", path, node.horizontal);
  if (const Json* bounds = member(object, "bounds")) {
    const auto parsed =
        bounds->is_string() ? parse_bounds(bounds->get<std::string>()) : std::optional<Bounds>();
    if (!parsed) {
      problems.fail(member_path(path, "bounds"), "expected \"[left,top][right,bottom]\"");
    }
    node.bounds = parsed;
  }
  read(problems, object, "size", path, node.size, 0, 100000);
  read(problems, object, "navigateTo", path, node.navigate_to);
  read_strings(problems, object, "requiresText", path, node.requires_text);
  read(problems, object, "otherwiseNavigateTo", path, node.otherwise_navigate_to);
  read(problems, object, "navigateOnSubmit", path, node.navigate_on_submit);
  read(problems, object, "offscreen", path, node.offscreen);
  read(problems, object, "appearsAfterMs", path, node.appears_after_ms, 0, 3600000);
  read(problems, object, "textFromUri", path, node.text_from_uri);
  read(problems, object, "draggable", path, node.draggable);
  bool app_icons = false;
  read(problems, object, "appIcons", path, app_icons);
  if (app_icons) {
    context.wants_app_icons = true;
    node.role = node.role.empty() ? "appIcons" : node.role;
  }
  if (node.offscreen && !parent_scrollable) {
    problems.fail(member_path(path, "offscreen"), "needs a scrollable parent");
  }
  for (const auto& [key, target] : {std::pair{"navigateTo", &node.navigate_to},
                                    std::pair{"otherwiseNavigateTo", &node.otherwise_navigate_to},
                                    std::pair{"navigateOnSubmit", &node.navigate_on_submit}}) {
    if (!target->empty() && *target != kBackTarget) {
      context.screen_refs.emplace_back(member_path(path, key), *target);
    }
  }
  read_children(context, object, path, node);
}

// Scenario files name entries of "packages" and "screens" by key, so a file can change one
// field of a default package without repeating the rest.
bool merge_keyed_array(Problems& problems, Json& base, const Json& overlay, const std::string& path,
                       const char* key, bool replace_whole) {
  if (!overlay.is_array()) {
    problems.fail(path, "expected an array");
    return false;
  }
  if (!base.is_array()) base = Json::array();
  for (std::size_t i = 0; i < overlay.size(); ++i) {
    const Json& entry = overlay[i];
    const std::string where = path + "[" + std::to_string(i) + "]";
    if (!entry.is_object()) {
      problems.fail(where, "expected an object");
      return false;
    }
    const Json* name = member(entry, key);
    if (name == nullptr || !name->is_string() || name->get<std::string>().empty()) {
      problems.fail(member_path(where, key), "expected a non-empty string");
      return false;
    }
    auto existing = std::find_if(base.begin(), base.end(), [&](const Json& candidate) {
      return candidate.is_object() && candidate.value(key, "") == name->get<std::string>();
    });
    if (existing == base.end()) {
      base.push_back(entry);
    } else if (replace_whole) {
      *existing = entry;
    } else {
      for (const auto& [field, value] : entry.items()) (*existing)[field] = value;
    }
  }
  return true;
}

Json merge_over(Problems& problems, Json base, const Json& overlay) {
  for (const auto& [key, value] : overlay.items()) {
    if (key == "base" || key == "comment") continue;
    if (key == "properties" || key == "display" || key == "device" || key == "operator" ||
        key == "logcat" || key == "faults" || key == "backgroundServices") {
      if (!expect_object(problems, value, key)) return base;
      Json& target = base[key];
      if (!target.is_object()) target = Json::object();
      for (const auto& [field, field_value] : value.items()) target[field] = field_value;
    } else if (key == "settings") {
      if (!expect_object(problems, value, key)) return base;
      Json& target = base[key];
      if (!target.is_object()) target = Json::object();
      for (const auto& [space, entries] : value.items()) {
        if (!expect_object(problems, entries, member_path(key, space))) return base;
        Json& space_target = target[space];
        if (!space_target.is_object()) space_target = Json::object();
        for (const auto& [field, field_value] : entries.items()) space_target[field] = field_value;
      }
    } else if (key == "packages") {
      if (!merge_keyed_array(problems, base[key], value, key, "name", false)) return base;
    } else if (key == "screens") {
      if (!merge_keyed_array(problems, base[key], value, key, "id", true)) return base;
    } else {
      base[key] = value;
    }
  }
  return base;
}

std::string entry_path(const char* list, const std::string& name) {
  return std::string(list) + "[" + in_quotes(name) + "]";
}

void read_package(Problems& problems, const Json& object, const std::string& path,
                  PackageSpec& package, bool& installed) {
  check_keys(problems, object, path,
             {"name", "installed", "label", "versionName", "versionCode", "system", "operator",
              "launchScreen", "launchActivity", "uriPrefixes", "uriScreen", "permissions", "uid",
              "codePath"});
  read(problems, object, "name", path, package.name);
  read(problems, object, "installed", path, installed);
  package.label = package.name;
  read(problems, object, "label", path, package.label);
  read(problems, object, "versionName", path, package.version_name);
  read_integer(problems, object, "versionCode", path, package.version_code, 0,
               std::numeric_limits<std::int64_t>::max());
  read(problems, object, "system", path, package.system);
  package.operator_app = package.name == kOperatorPackage || package.name == kOperatorDevPackage;
  read(problems, object, "operator", path, package.operator_app);
  read(problems, object, "launchScreen", path, package.launch_screen);
  read(problems, object, "launchActivity", path, package.launch_activity);
  read_strings(problems, object, "uriPrefixes", path, package.uri_prefixes);
  read(problems, object, "uriScreen", path, package.uri_screen);
  std::vector<std::string> permissions;
  read_strings(problems, object, "permissions", path, permissions);
  package.granted_permissions.insert(permissions.begin(), permissions.end());
  read(problems, object, "uid", path, package.uid, 0, 99999);
  read(problems, object, "codePath", path, package.code_path);
  if (package.launch_activity.empty()) package.launch_activity = package.name + "/.MainActivity";
  if (!package.uri_prefixes.empty() && package.uri_screen.empty()) {
    package.uri_screen = package.launch_screen;
  }
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace

std::string derived_code_path(const PackageSpec& package, std::uint64_t install_salt) {
  if (package.system) {
    std::string folder;
    for (const char c : package.label) {
      if (std::isalnum(static_cast<unsigned char>(c)) != 0) folder += c;
    }
    if (folder.empty()) folder = "App";
    return "/system/priv-app/" + folder + "/" + folder + ".apk";
  }
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  auto token = [](std::uint64_t seed) {
    std::string out;
    for (int i = 0; i < 22; ++i) {
      out += kAlphabet[seed % 64];
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    }
    return out + "==";
  };
  const std::uint64_t hash = fnv1a(package.name) ^ (install_salt * 0x9E3779B97F4A7C15ULL);
  return "/data/app/~~" + token(hash) + "/" + package.name + "-" + token(hash ^ 0x9e3779b9ULL) +
         "/base.apk";
}

namespace {

void substitute_properties(NodeSpec& node, const std::map<std::string, std::string>& props) {
  for (std::string* text : {&node.text, &node.drawn_text, &node.content_desc}) {
    std::size_t start = 0;
    while ((start = text->find("{{prop:", start)) != std::string::npos) {
      const std::size_t end = text->find("}}", start);
      if (end == std::string::npos) break;
      const std::string key = text->substr(start + 7, end - start - 7);
      const auto it = props.find(key);
      const std::string value = it == props.end() ? "" : it->second;
      text->replace(start, end + 2 - start, value);
      start += value.size();
    }
  }
  for (NodeSpec& child : node.children) substitute_properties(child, props);
}

void fill_app_icons(NodeSpec& node, const Scenario& scenario, const std::string& launcher) {
  if (node.role == "appIcons") {
    node.role.clear();
    node.children.clear();
    for (const PackageSpec& package : scenario.packages) {
      if (package.launch_screen.empty() || package.name == launcher) continue;
      NodeSpec icon;
      icon.class_name = "android.widget.TextView";
      icon.resource_id = launcher + ":id/icon";
      icon.text = package.label;
      icon.content_desc = package.label;
      icon.clickable = icon.focusable = icon.long_clickable = true;
      icon.navigate_to = package.launch_screen;
      node.children.push_back(std::move(icon));
    }
    node.first_visible = 0;
    node.visible_count = static_cast<int>(node.children.size());
  }
  for (NodeSpec& child : node.children) fill_app_icons(child, scenario, launcher);
}

void read_operator(Problems& problems, const Json& object, OperatorBehavior& out) {
  const std::string path = "operator";
  if (!expect_object(problems, object, path)) return;
  check_keys(problems, object, path,
             {"pid", "deliveryDelayMs", "actionDelayMs", "launchDelayMs", "pollIntervalMs",
              "chunkThresholdBytes", "snapshotTransport", "closeAppSupported", "directTransport"});
  read(problems, object, "pid", path, out.pid, 0, 32767);
  read(problems, object, "deliveryDelayMs", path, out.delivery_delay_ms, 0, 600000);
  read(problems, object, "actionDelayMs", path, out.action_delay_ms, 0, 600000);
  read(problems, object, "launchDelayMs", path, out.launch_delay_ms, 0, 600000);
  read(problems, object, "pollIntervalMs", path, out.poll_interval_ms, 1, 60000);
  read_integer(problems, object, "chunkThresholdBytes", path, out.chunk_threshold_bytes, 0,
               std::int64_t{1} << 30);
  std::string transport = out.snapshot_in_logcat ? "logcat" : "envelope";
  read(problems, object, "snapshotTransport", path, transport);
  if (transport != "envelope" && transport != "logcat") {
    problems.fail("operator.snapshotTransport", "expected \"envelope\" or \"logcat\"");
  }
  out.snapshot_in_logcat = transport == "logcat";
  read(problems, object, "closeAppSupported", path, out.close_app_supported);
  read(problems, object, "directTransport", path, out.direct_transport);
}

constexpr std::pair<std::string_view, DirectFault> kDirectFaults[] = {
    {"refuseConnection", DirectFault::RefuseConnection},
    {"neverReady", DirectFault::NeverReady},
    {"badSha256", DirectFault::BadSha256},
    {"shortFrame", DirectFault::ShortFrame},
    {"oversizedFrame", DirectFault::OversizedFrame},
    {"dropMidResult", DirectFault::DropMidResult},
    {"noTiming", DirectFault::NoTiming},
    {"closeBeforeAck", DirectFault::CloseBeforeAck},
};

void read_direct_fault(Problems& problems, const Json& object, DirectFault& out) {
  std::string name;
  read(problems, object, "direct", "faults", name);
  if (name.empty()) return;
  for (const auto& [candidate, fault] : kDirectFaults) {
    if (candidate == name) {
      out = fault;
      return;
    }
  }
  std::string known;
  for (const auto& entry : kDirectFaults)
    known += (known.empty() ? "" : ", ") + std::string(entry.first);
  problems.fail("faults.direct", "unknown fault " + in_quotes(name) + " (one of " + known + ")");
}

// What PackageManager's failure codes look like: INSTALL_FAILED_ or INSTALL_PARSE_FAILED_
// and upper-case words.
bool is_install_failure_code(std::string_view code) {
  if (!code.starts_with("INSTALL_FAILED_") && !code.starts_with("INSTALL_PARSE_FAILED_")) {
    return false;
  }
  return code.back() != '_' && std::all_of(code.begin(), code.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
         });
}

void read_faults(Problems& problems, const Json& object, FaultSpec& out) {
  const std::string path = "faults";
  if (!expect_object(problems, object, path)) return;
  check_keys(problems, object, path,
             {"neverAnswer",
              "answerLateMs",
              "malformedEnvelope",
              "badChecksum",
              "reorderChunks",
              "duplicateChunk",
              "dropChunk",
              "closeStreamMidEnvelope",
              "dropConnectionBeforeDispatch",
              "dropConnectionAfterDispatch",
              "dropDelayMs",
              "broadcastRefused",
              "unauthorized",
              "offline",
              "padSnapshotBytes",
              "includeProbes",
              "count",
              "screencapDelayMs",
              "packageListDelayMs",
              "screenrecordFails",
              "screenrecordKilledAfterMs",
              "direct",
              "uiTreeUnavailable"});
  read(problems, object, "neverAnswer", path, out.never_answer);
  read(problems, object, "answerLateMs", path, out.answer_late_ms, 0, 3600000);
  read(problems, object, "screencapDelayMs", path, out.screencap_delay_ms, 0, 600000);
  read(problems, object, "packageListDelayMs", path, out.package_list_delay_ms, 0, 600000);
  read(problems, object, "screenrecordFails", path, out.screenrecord_fails);
  read(problems, object, "screenrecordKilledAfterMs", path, out.screenrecord_killed_after_ms, 0,
       180000);
  read(problems, object, "malformedEnvelope", path, out.malformed_envelope);
  read(problems, object, "badChecksum", path, out.bad_checksum);
  read(problems, object, "reorderChunks", path, out.reorder_chunks);
  read(problems, object, "duplicateChunk", path, out.duplicate_chunk);
  read(problems, object, "dropChunk", path, out.drop_chunk);
  read(problems, object, "closeStreamMidEnvelope", path, out.close_stream_mid_envelope);
  read(problems, object, "dropConnectionBeforeDispatch", path, out.drop_connection_before_dispatch);
  read(problems, object, "dropConnectionAfterDispatch", path, out.drop_connection_after_dispatch);
  read(problems, object, "dropDelayMs", path, out.drop_delay_ms, 0, 600000);
  read(problems, object, "broadcastRefused", path, out.broadcast_refused);
  read(problems, object, "unauthorized", path, out.unauthorized);
  read(problems, object, "offline", path, out.offline);
  read_integer(problems, object, "padSnapshotBytes", path, out.pad_snapshot_bytes, 0,
               std::int64_t{48} << 20);
  read(problems, object, "includeProbes", path, out.include_probes);
  read(problems, object, "uiTreeUnavailable", path, out.ui_tree_unavailable);
  read_direct_fault(problems, object, out.direct);
  if (const Json* count = member(object, "count"); count != nullptr && !count->is_null()) {
    int value = 0;
    read(problems, object, "count", path, value, 0, 1000000);
    out.count = value;
  }
}

// Installs `name` like any app of the user's unless the scenario declares it (installed or
// not); returns its declaration, or nullptr for a package it installed or left uninstalled.
const PackageSpec* install_unless_declared(Scenario& scenario, const std::string& name) {
  const auto declared =
      std::find_if(scenario.packages.begin(), scenario.packages.end(),
                   [&](const PackageSpec& package) { return package.name == name; });
  if (declared != scenario.packages.end()) return &*declared;
  const bool uninstalled =
      std::any_of(scenario.uninstalled_packages.begin(), scenario.uninstalled_packages.end(),
                  [&](const PackageSpec& package) { return package.name == name; });
  if (uninstalled) return nullptr;
  PackageSpec package;
  package.name = name;
  package.label = name;
  package.launch_activity = name + "/.MainActivity";
  scenario.packages.push_back(std::move(package));
  return nullptr;
}

// The forger's package is installed like any app of the user's unless the scenario declares
// it itself; it must not be an Operator.
void read_forger(Problems& problems, const Json& object, Scenario& scenario) {
  const std::string path = "forger";
  if (!expect_object(problems, object, path)) return;
  ForgerSpec& forger = scenario.forger;
  check_keys(problems, object, path, {"package", "chunked", "pid"});
  read(problems, object, "package", path, forger.package);
  read(problems, object, "chunked", path, forger.chunked);
  read(problems, object, "pid", path, forger.pid, 0, 32767);
  if (forger.package.empty()) return problems.fail("forger.package", "expected a package name");
  const PackageSpec* declared = install_unless_declared(scenario, forger.package);
  if (declared != nullptr && declared->operator_app) {
    problems.fail("forger.package", "must not be an Operator");
  }
}

// A WebView app's page comes from exactly one of url, page and html.
void read_webview(Problems& problems, const Json& object, const std::string& path,
                  Scenario& scenario, WebViewSpec& webview) {
  if (!expect_object(problems, object, path)) return;
  check_keys(problems, object, path,
             {"package", "debuggable", "chrome", "url", "page", "html", "bounds", "pid"});
  read(problems, object, "package", path, webview.package);
  read(problems, object, "debuggable", path, webview.debuggable);
  read(problems, object, "chrome", path, webview.chrome);
  read(problems, object, "url", path, webview.url);
  read(problems, object, "page", path, webview.page);
  read(problems, object, "html", path, webview.html);
  read(problems, object, "pid", path, webview.pid, 0, 32767);
  std::string bounds;
  read(problems, object, "bounds", path, bounds);
  if (!bounds.empty()) {
    webview.bounds = parse_bounds(bounds);
    if (!webview.bounds) problems.fail(member_path(path, "bounds"), "expected \"[l,t][r,b]\"");
  }
  if (webview.package.empty()) return problems.fail(path, "expected a package name");
  const int sources = static_cast<int>(!webview.url.empty()) +
                      static_cast<int>(!webview.page.empty()) +
                      static_cast<int>(!webview.html.empty());
  if (sources != 1) problems.fail(path, "expected exactly one of url, page and html");
  install_unless_declared(scenario, webview.package);
}

// Distinct pids above the Operator's and the forger's, and one Chrome at most.
void assign_webview_pids(Problems& problems, Scenario& scenario) {
  std::set<int> taken = {scenario.operator_behavior.pid, scenario.forger.pid};
  int next_pid = scenario.operator_behavior.pid + 1000;
  bool chrome_seen = false;
  for (WebViewSpec& webview : scenario.webviews) {
    const std::string path = entry_path("webviews", webview.package);
    if (webview.chrome && std::exchange(chrome_seen, true)) {
      problems.fail(member_path(path, "chrome"), "only one app can be Chrome");
    }
    if (webview.pid == 0) {
      while (taken.contains(next_pid)) next_pid += 17;
      webview.pid = next_pid;
    }
    if (!taken.insert(webview.pid).second) {
      problems.fail(member_path(path, "pid"), "is another process's");
    }
  }
}

// Checks what only the derived pids and uids tell: the forger's are its own.
void check_forger_identity(Problems& problems, const Scenario& scenario) {
  const ForgerSpec& forger = scenario.forger;
  if (forger.package.empty()) return;
  if (forger.pid == scenario.operator_behavior.pid) {
    problems.fail("forger.pid", "must differ from the Operator's pid");
  }
  const PackageSpec* package = scenario.find_package(forger.package);
  if (package == nullptr) return;
  for (const PackageSpec& other : scenario.packages) {
    if (other.operator_app && other.uid == package->uid) {
      problems.fail("forger.package", "shares the Operator's uid " + std::to_string(other.uid));
    }
  }
}

Expected<Scenario, Problem> build(const Json& document) {
  Problems problems;
  Scenario scenario;
  check_keys(problems, document, "",
             {"name",
              "description",
              "seed",
              "properties",
              "display",
              "device",
              "accessibilityService",
              "settings",
              "packages",
              "screens",
              "homeScreen",
              "lockScreen",
              "recentsScreen",
              "initialScreen",
              "operator",
              "logcat",
              "faults",
              "installFailure",
              "backgroundServices",
              "forger",
              "webviews"});
  read(problems, document, "name", "", scenario.name);
  read(problems, document, "description", "", scenario.description);
  read_integer(problems, document, "seed", "", scenario.seed, 0,
               std::numeric_limits<long long>::max());
  if (const Json* properties = member(document, "properties")) {
    read_string_map(problems, *properties, "properties", scenario.properties);
  }
  if (const Json* display = member(document, "display")) {
    if (expect_object(problems, *display, "display")) {
      check_keys(problems, *display, "display", {"width", "height", "density"});
      read(problems, *display, "width", "display", scenario.display.width, 1, 20000);
      read(problems, *display, "height", "display", scenario.display.height, 1, 20000);
      read(problems, *display, "density", "display", scenario.display.density, 1, 2000);
    }
  }
  if (const Json* device = member(document, "device")) {
    if (expect_object(problems, *device, "device")) {
      PowerSpec& power = scenario.power;
      check_keys(problems, *device, "device",
                 {"screenOn", "locked", "userUnlocked", "secureLock", "stayAsleep", "maxPayload"});
      read(problems, *device, "screenOn", "device", power.screen_on);
      read(problems, *device, "locked", "device", power.locked);
      read(problems, *device, "userUnlocked", "device", power.user_unlocked);
      read(problems, *device, "secureLock", "device", power.secure_lock);
      read(problems, *device, "stayAsleep", "device", power.stay_asleep);
      // 4096: the original protocol's packet, which old devices still announce.
      read_integer(problems, *device, "maxPayload", "device", scenario.max_payload, 4096,
                   std::int64_t{1} << 20);
    }
  }
  if (const Json* settings = member(document, "settings")) {
    if (expect_object(problems, *settings, "settings")) {
      for (const auto& [space, entries] : settings->items()) {
        if (space != "global" && space != "secure" && space != "system") {
          problems.fail("settings." + space, "expected global, secure or system");
          continue;
        }
        read_string_map(problems, entries, "settings." + space, scenario.settings[space]);
      }
    }
  }

  // Packages first: screens of packages that are not installed disappear with them.
  std::set<std::string> known_packages;
  std::set<std::string> removed_packages;
  if (const Json* packages = member(document, "packages")) {
    for (const Json& entry : *packages) {
      PackageSpec package;
      bool installed = true;
      const std::string path = entry_path("packages", entry.value("name", ""));
      read_package(problems, entry, path, package, installed);
      known_packages.insert(package.name);
      if (!installed) {
        removed_packages.insert(package.name);
        scenario.uninstalled_packages.push_back(std::move(package));
        continue;
      }
      scenario.packages.push_back(std::move(package));
    }
  }

  std::vector<std::pair<std::string, std::string>> screen_refs;
  std::set<std::string> known_screens;
  bool wants_app_icons = false;
  NodeContext context{problems, screen_refs, wants_app_icons};
  if (const Json* screens = member(document, "screens")) {
    for (const Json& entry : *screens) {
      ScreenSpec screen;
      const std::string path = entry_path("screens", entry.value("id", ""));
      check_keys(problems, entry, path, {"id", "package", "activity", "root"});
      read(problems, entry, "id", path, screen.id);
      read(problems, entry, "package", path, screen.package);
      read(problems, entry, "activity", path, screen.activity);
      if (!known_screens.insert(screen.id).second) problems.fail(path, "duplicate screen id");
      if (known_packages.count(screen.package) == 0) {
        problems.fail(member_path(path, "package"),
                      "unknown package " + in_quotes(screen.package) + " (declare it in packages)");
      }
      const Json* root = member(entry, "root");
      if (root == nullptr) {
        problems.fail(path, "missing \"root\"");
        continue;
      }
      read_node(context, *root, member_path(path, "root"), screen.root, false);
      if (removed_packages.count(screen.package) != 0) {
        scenario.uninstalled_screens.push_back(std::move(screen));
        continue;
      }
      scenario.screens.push_back(std::move(screen));
    }
  }
  for (PackageSpec& package : scenario.packages) {
    const std::string path = entry_path("packages", package.name);
    if (!package.launch_screen.empty()) {
      screen_refs.emplace_back(member_path(path, "launchScreen"), package.launch_screen);
    }
    if (!package.uri_screen.empty()) {
      screen_refs.emplace_back(member_path(path, "uriScreen"), package.uri_screen);
    }
  }
  for (const auto& [path, id] : screen_refs) {
    if (known_screens.count(id) == 0) problems.fail(path, "unknown screen " + in_quotes(id));
  }

  read(problems, document, "homeScreen", "", scenario.home_screen);
  read(problems, document, "lockScreen", "", scenario.lock_screen);
  read(problems, document, "recentsScreen", "", scenario.recents_screen);
  read(problems, document, "initialScreen", "", scenario.initial_screen);
  if (scenario.find_screen(scenario.home_screen) == nullptr) {
    problems.fail("homeScreen", "must name a screen of an installed package, got " +
                                    in_quotes(scenario.home_screen));
  }
  for (const auto& [key, id] : {std::pair{"lockScreen", &scenario.lock_screen},
                                std::pair{"recentsScreen", &scenario.recents_screen},
                                std::pair{"initialScreen", &scenario.initial_screen}}) {
    if (!id->empty() && scenario.find_screen(*id) == nullptr) {
      problems.fail(key, "must name a screen of an installed package, got " + in_quotes(*id));
    }
  }

  if (const Json* behavior = member(document, "operator")) {
    read_operator(problems, *behavior, scenario.operator_behavior);
  }
  if (const Json* logcat = member(document, "logcat")) {
    if (expect_object(problems, *logcat, "logcat")) {
      check_keys(problems, *logcat, "logcat",
                 {"noiseLinesPerSecond", "bufferLines", "initialLines", "foreignResults",
                  "dropRate", "showUids", "attachDelayMs"});
      if (const Json* rate = member(*logcat, "noiseLinesPerSecond")) {
        if (!rate->is_number() || rate->get<double>() < 0 || rate->get<double>() > 10000) {
          problems.fail("logcat.noiseLinesPerSecond", "expected a number from 0 to 10000");
        } else {
          scenario.logcat.noise_lines_per_second = rate->get<double>();
        }
      }
      read_integer(problems, *logcat, "bufferLines", "logcat", scenario.logcat.buffer_lines, 1,
                   10000000);
      read_integer(problems, *logcat, "initialLines", "logcat", scenario.logcat.initial_lines, 0,
                   100000);
      read(problems, *logcat, "foreignResults", "logcat", scenario.logcat.foreign_results);
      read(problems, *logcat, "showUids", "logcat", scenario.logcat.show_uids);
      read_integer(problems, *logcat, "attachDelayMs", "logcat", scenario.logcat.attach_delay_ms, 0,
                   60000);
      if (const Json* rate = member(*logcat, "dropRate")) {
        if (!rate->is_number() || !(rate->get<double>() >= 0 && rate->get<double>() <= 1)) {
          problems.fail("logcat.dropRate", "expected a number from 0 to 1");
        } else {
          scenario.logcat.drop_rate = rate->get<double>();
        }
      }
    }
  }
  if (const Json* faults = member(document, "faults")) {
    read_faults(problems, *faults, scenario.faults);
  }
  if (const Json* forger = member(document, "forger")) {
    read_forger(problems, *forger, scenario);
  }
  if (const Json* webviews = member(document, "webviews")) {
    if (!webviews->is_array()) problems.fail("webviews", "expected an array");
    for (std::size_t i = 0; webviews->is_array() && i < webviews->size(); ++i) {
      const Json& entry = (*webviews)[i];
      const std::string name = entry.is_object() ? entry.value("package", "") : "";
      read_webview(problems, entry, entry_path("webviews", name), scenario,
                   scenario.webviews.emplace_back());
    }
  }
  if (const Json* background = member(document, "backgroundServices")) {
    if (auto read = read_background_scenario(*background, scenario.background); !read) {
      problems.fail(read.error().path, read.error().message);
    }
  }
  read(problems, document, "installFailure", "", scenario.install_failure);
  if (!scenario.install_failure.empty() && !is_install_failure_code(scenario.install_failure)) {
    problems.fail("installFailure",
                  "expected an INSTALL_FAILED_… code, got " + in_quotes(scenario.install_failure));
  }
  if (!problems.ok()) return Unexpected(problems.first());

  // Derived values.
  for (ScreenSpec& screen : scenario.screens) {
    substitute_properties(screen.root, scenario.properties);
    if (wants_app_icons) fill_app_icons(screen.root, scenario, screen.package);
    if (screen.activity.empty()) {
      const PackageSpec* package = scenario.find_package(screen.package);
      screen.activity = package != nullptr ? package->launch_activity : screen.package + "/.Main";
    }
  }
  for (ScreenSpec& screen : scenario.uninstalled_screens) {
    substitute_properties(screen.root, scenario.properties);
    if (screen.activity.empty()) {
      const auto package = std::find_if(
          scenario.uninstalled_packages.begin(), scenario.uninstalled_packages.end(),
          [&](const PackageSpec& candidate) { return candidate.name == screen.package; });
      screen.activity = package != scenario.uninstalled_packages.end() ? package->launch_activity
                                                                       : screen.package + "/.Main";
    }
  }
  int next_uid = 10100;
  for (PackageSpec& package : scenario.packages) {
    if (package.uid == 0) package.uid = package.system ? 1000 : next_uid++;
    if (package.code_path.empty()) package.code_path = derived_code_path(package);
  }
  if (scenario.operator_behavior.pid == 0) {
    scenario.operator_behavior.pid = 9000 + static_cast<int>((scenario.seed * 7919) % 20000);
  }
  if (scenario.forger.pid == 0) scenario.forger.pid = scenario.operator_behavior.pid + 311;
  check_forger_identity(problems, scenario);
  assign_webview_pids(problems, scenario);
  if (!problems.ok()) return Unexpected(problems.first());
  if (scenario.initial_screen.empty()) scenario.initial_screen = scenario.home_screen;

  // The accessibility switch is a shorthand for the two secure settings a real device keeps.
  auto& secure = scenario.settings["secure"];
  const Json* accessibility = member(document, "accessibilityService");
  if (accessibility != nullptr && !accessibility->is_boolean()) {
    return Unexpected(Problem{"accessibilityService", "expected true or false"});
  }
  const bool explicit_services = [&] {
    const Json* settings = member(document, "settings");
    return settings != nullptr && settings->contains("secure") &&
           (*settings)["secure"].contains("enabled_accessibility_services");
  }();
  if (!explicit_services) {
    const bool enabled = accessibility == nullptr || accessibility->get<bool>();
    std::string services;
    for (const PackageSpec& package : scenario.packages) {
      if (!enabled || !package.operator_app) continue;
      if (!services.empty()) services += ':';
      services += package.name + "/" + kAccessibilityServiceClass;
    }
    if (services.empty()) {
      secure.erase("enabled_accessibility_services");
    } else {
      secure["enabled_accessibility_services"] = services;
    }
    secure["accessibility_enabled"] = enabled ? "1" : "0";
  }
  return scenario;
}

Expected<Json, Problem> parse_json(const std::string& text, const char* what) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& error) {
    // nlohmann's message already carries the line and column.
    std::string message = error.what();
    const std::size_t detail = message.find("parse error");
    if (detail != std::string::npos) message = message.substr(detail);
    return scenario_failure(std::string(what) + ": " + message);
  } catch (const std::exception& error) {
    return scenario_failure(std::string(what) + ": " + error.what());
  }
}

// The scenario without its page files read (load_scenario_over reads them).
Expected<Scenario, Problem> load_scenario_text(const std::string& json_text) {
  // Before parsing: the parser's message would give a line and column, not the byte.
  if (const auto offset = find_invalid_utf8(json_text)) {
    return scenario_failure("scenario is not valid UTF-8 (" +
                            describe_invalid_utf8(json_text, *offset) + ")");
  }
  try {
    CLAWPERATOR_TRY_ASSIGN(const Json document,
                           parse_json(json_text, "scenario is not valid JSON"));
    if (!document.is_object()) return scenario_failure("scenario: expected a JSON object");
    std::string base_name = "default";
    if (const Json* base = member(document, "base")) {
      if (!base->is_string() ||
          (base->get<std::string>() != "default" && base->get<std::string>() != "minimal")) {
        return Unexpected(Problem{"base", "expected \"default\" or \"minimal\""});
      }
      base_name = base->get<std::string>();
    }
    CLAWPERATOR_TRY_ASSIGN(Json base, parse_json(base_name == "minimal" ? minimal_scenario_json()
                                                                        : default_scenario_json(),
                                                 "built-in scenario"));
    Problems problems;
    Json merged = merge_over(problems, std::move(base), document);
    if (!problems.ok()) return Unexpected(problems.first());
    return build(merged);
  } catch (const std::exception& error) {
    return scenario_failure(std::string("scenario: ") + error.what());
  }
}

// A page given as a file is read now, relative to the scenario's directory: the device serves
// it from wherever it runs, and a missing file is the scenario's error, not a blank WebView's.
std::optional<Problem> read_webview_pages(Scenario& scenario, const std::filesystem::path& base) {
  for (WebViewSpec& webview : scenario.webviews) {
    if (webview.page.empty()) continue;
    const std::filesystem::path file = base / webview.page;
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in) {
      return Problem{member_path(entry_path("webviews", webview.package), "page"),
                     "cannot read " + file.string() + ": " + std::strerror(errno)};
    }
    webview.html = text.str();
  }
  return std::nullopt;
}

Expected<Scenario, Problem> load_scenario_over(const std::string& json_text,
                                               const std::filesystem::path& base) {
  auto scenario = load_scenario_text(json_text);
  if (!scenario) return scenario;
  if (auto problem = read_webview_pages(*scenario, base)) return Unexpected(std::move(*problem));
  return scenario;
}

}  // namespace

std::string to_string(const Bounds& bounds) {
  return "[" + std::to_string(bounds.left) + "," + std::to_string(bounds.top) + "][" +
         std::to_string(bounds.right) + "," + std::to_string(bounds.bottom) + "]";
}

const PackageSpec* Scenario::find_package(const std::string& package_name) const {
  for (const PackageSpec& package : packages) {
    if (package.name == package_name) return &package;
  }
  return nullptr;
}

const ScreenSpec* Scenario::find_screen(const std::string& id) const {
  for (const ScreenSpec& screen : screens) {
    if (screen.id == id) return &screen;
  }
  return nullptr;
}

Expected<Scenario, Problem> load_scenario(const std::string& json_text) {
  return load_scenario_over(json_text, std::filesystem::current_path());
}

Expected<Scenario, Problem> load_scenario_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return scenario_failure("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  auto scenario = load_scenario_over(text.str(), std::filesystem::absolute(path).parent_path());
  if (!scenario) return Unexpected(Problem{path, scenario.error().text()});
  return scenario;
}

Scenario default_scenario() {
  auto scenario = load_scenario(default_scenario_json());
  // The built-in text is tested; an empty scenario would only hide a broken build.
  return scenario ? std::move(*scenario) : Scenario{};
}

}  // namespace clawperator::vdevice::android
