#include "clawperator/webview/devtools.hpp"

#include <charconv>
#include <set>

#include "clawperator/text.hpp"

namespace clawperator::webview {
namespace {

constexpr std::string_view kSuffix = "_devtools_remote";

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && is_blank_char(line[at])) ++at;
    const std::size_t start = at;
    while (at < line.size() && !is_blank_char(line[at])) ++at;
    if (at > start) fields.push_back(line.substr(start, at - start));
  }
  return fields;
}

std::optional<int> whole_number(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value <= 0) {
    return std::nullopt;
  }
  return value;
}

// A /proc/net/unix line: "Num: RefCount Protocol Flags Type St Inode [Path]"; the first field
// ends in ':' (a kernel address, hex), the header's is "Num".
bool is_unix_socket_line(const std::vector<std::string_view>& fields) {
  return fields.size() >= 7 && fields[0].size() > 1 && fields[0].back() == ':';
}

bool is_devtools_name(std::string_view name) {
  const std::size_t at = name.rfind(kSuffix);
  if (at == std::string_view::npos || at == 0) return false;
  const std::string_view rest = name.substr(at + kSuffix.size());
  return rest.empty() || (rest.front() == '_' && whole_number(rest.substr(1)).has_value());
}

// Browsers whose socket carries no pid: the package that owns the well-known name
// (developer.chrome.com/docs/devtools/remote-debugging/webviews: Chrome's socket is
// chrome_devtools_remote).
std::optional<std::string> browser_package(std::string_view name) {
  if (name == "chrome_devtools_remote") return std::string("com.android.chrome");
  return std::nullopt;
}

double number_or(const Json& object, const char* key, double fallback) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : fallback;
}

bool flag_or(const Json& object, const char* key, bool fallback) {
  const auto it = object.find(key);
  return it != object.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

std::string string_or_empty(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::vector<std::string> parse_devtools_socket_names(std::string_view proc_net_unix) {
  std::vector<std::string> names;
  std::set<std::string, std::less<>> seen;
  for (const std::string_view line : lines_of(proc_net_unix)) {
    const std::vector<std::string_view> fields = fields_of(line);
    if (!is_unix_socket_line(fields) || fields.size() < 8) continue;
    const std::string_view path = fields[7];
    // '@' marks an abstract name; a path on disk is no DevTools endpoint.
    if (path.size() < 2 || path.front() != '@') continue;
    const std::string_view name = path.substr(1);
    if (!is_devtools_name(name) || seen.contains(name)) continue;
    seen.emplace(name);
    names.emplace_back(name);
  }
  return names;
}

std::optional<int> socket_pid(std::string_view name) {
  const std::size_t at = name.rfind(kSuffix);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view rest = name.substr(at + kSuffix.size());
  if (rest.size() < 2 || rest.front() != '_') return std::nullopt;
  return whole_number(rest.substr(1));
}

std::map<int, std::string> parse_process_names(std::string_view ps_output) {
  std::map<int, std::string> names;
  for (const std::string_view line : lines_of(ps_output)) {
    const std::vector<std::string_view> fields = fields_of(line);
    if (fields.size() != 2) continue;
    if (const auto pid = whole_number(fields[0])) names[*pid] = std::string(fields[1]);
  }
  return names;
}

std::string package_of_process(std::string_view process_name) {
  return std::string(process_name.substr(0, process_name.find(':')));
}

DevtoolsListing parse_devtools_listing(std::string_view shell_output) {
  // A /proc/net/unix line has at least seven fields, a ps line two: parse_process_names skips
  // the socket lines, parse_devtools_socket_names the process lines.
  const std::map<int, std::string> processes = parse_process_names(shell_output);
  DevtoolsListing listing;
  for (const auto& [pid, name] : processes)
    listing.running_packages.insert(package_of_process(name));
  std::vector<DevtoolsSocket>& sockets = listing.sockets;
  for (std::string& name : parse_devtools_socket_names(shell_output)) {
    DevtoolsSocket socket;
    socket.pid = socket_pid(name);
    if (socket.pid) {
      if (const auto it = processes.find(*socket.pid); it != processes.end()) {
        socket.package = package_of_process(it->second);
      }
    } else {
      socket.package = browser_package(name);
    }
    socket.name = std::move(name);
    sockets.push_back(std::move(socket));
  }
  return listing;
}

std::optional<ViewGeometry> parse_view_geometry(std::string_view description) {
  if (trim(description).empty()) return std::nullopt;
  const Json object = parse_json(description);
  if (!object.is_object() || !object.contains("width") || !object.contains("height")) {
    return std::nullopt;
  }
  ViewGeometry view;
  view.attached = flag_or(object, "attached", false);
  view.visible = flag_or(object, "visible", false);
  view.empty = flag_or(object, "empty", true);
  view.screen_x = number_or(object, "screenX", 0);
  view.screen_y = number_or(object, "screenY", 0);
  view.width = number_or(object, "width", 0);
  view.height = number_or(object, "height", 0);
  return view;
}

PageListReading parse_page_list(std::string_view body) {
  PageListReading reading;
  const Json list = parse_json(body);
  if (!list.is_array()) {
    reading.problem = "/json/list did not answer with a JSON array";
    return reading;
  }
  for (const Json& entry : list) {
    if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string()) {
      reading.problem = "/json/list holds an entry without a string id";
      reading.pages.clear();
      return reading;
    }
    DevtoolsPage page;
    page.id = entry["id"].get<std::string>();
    page.title = string_or_empty(entry, "title");
    page.url = string_or_empty(entry, "url");
    page.type = string_or_empty(entry, "type");
    page.websocket_url = string_or_empty(entry, "webSocketDebuggerUrl");
    page.geometry = parse_view_geometry(string_or_empty(entry, "description"));
    reading.pages.push_back(std::move(page));
  }
  return reading;
}

std::optional<Rect> to_screen(const Rect& css, const ViewGeometry& view, double inner_width) {
  if (!(inner_width > 0) || !(view.width > 0)) return std::nullopt;
  const double scale = view.width / inner_width;
  return Rect{view.screen_x + css.x * scale, view.screen_y + css.y * scale, css.width * scale,
              css.height * scale};
}

Json to_json(const Rect& rect) {
  return Json{{"x", rect.x}, {"y", rect.y}, {"width", rect.width}, {"height", rect.height}};
}

Json to_json(const DevtoolsPage& page) {
  Json out = Json{{"id", page.id}, {"title", page.title}, {"url", page.url}, {"type", page.type}};
  // On Android the description says whether the WebView is in a window; desktop Chrome has
  // none, and a page another DevTools client holds has no webSocketDebuggerUrl.
  out["attached"] = page.geometry ? Json(page.geometry->attached) : Json(nullptr);
  out["visible"] = page.geometry ? Json(page.geometry->visible) : Json(nullptr);
  out["debuggable"] = !page.websocket_url.empty();
  return out;
}

std::optional<std::string> websocket_path(std::string_view websocket_url) {
  constexpr std::string_view kScheme = "ws://";
  if (websocket_url.rfind(kScheme, 0) != 0) return std::nullopt;
  const std::string_view rest = websocket_url.substr(kScheme.size());
  const std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  return std::string(rest.substr(slash));
}

}  // namespace clawperator::webview
