#include "vdevice/android/system/webview_devtools.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace clawperator::vdevice::android {
namespace {

using Json = nlohmann::ordered_json;

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

std::optional<Json> parse(std::string_view text) {
  Json document = Json::parse(text, nullptr, false);
  if (document.is_discarded()) return std::nullopt;
  return document;
}

std::string pid_column(int pid) {
  char cell[16];
  std::snprintf(cell, sizeof cell, "%5d", pid);
  return cell;
}

}  // namespace

std::string devtools_socket_name(const WebViewSpec& webview) {
  if (webview.chrome) return "chrome_devtools_remote";
  return "webview_devtools_remote_" + std::to_string(webview.pid);
}

std::string render_proc_net_unix(const std::vector<UnixSocketRow>& rows) {
  std::string out = "Num       RefCount Protocol Flags    Type St Inode Path\n";
  for (const UnixSocketRow& row : rows) {
    // RefCount 2, flags __SO_ACCEPTCON (listening), SOCK_STREAM, SS_UNCONNECTED.
    char line[96];
    std::snprintf(line, sizeof line, "0000000000000000: 00000002 00000000 00010000 0001 01 %5llu ",
                  static_cast<unsigned long long>(row.inode));
    out += line;
    out += row.path;
    out += '\n';
  }
  return out;
}

std::optional<std::string> render_ps(const std::vector<ProcessRow>& rows, std::string_view fields,
                                     std::string& bad_field) {
  enum class Column { Pid, Ppid, Name };
  std::vector<Column> columns;
  while (!fields.empty()) {
    const std::size_t comma = fields.find(',');
    const std::string field = lower(fields.substr(0, comma));
    fields = comma == std::string_view::npos ? std::string_view() : fields.substr(comma + 1);
    if (field == "pid") {
      columns.push_back(Column::Pid);
    } else if (field == "ppid") {
      columns.push_back(Column::Ppid);
    } else if (field == "name" || field == "args" || field == "cmd" || field == "cmdline") {
      columns.push_back(Column::Name);
    } else {
      bad_field = field;
      return std::nullopt;
    }
  }
  const auto header = [](Column column) {
    return column == Column::Pid ? "  PID" : column == Column::Ppid ? " PPID" : "NAME";
  };
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    out += (i == 0 ? "" : " ");
    out += header(columns[i]);
  }
  out += '\n';
  for (const ProcessRow& row : rows) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      out += (i == 0 ? "" : " ");
      switch (columns[i]) {
        case Column::Pid:
          out += pid_column(row.pid);
          break;
        case Column::Ppid:
          out += pid_column(row.ppid);
          break;
        case Column::Name:
          out += row.name;
          break;
      }
    }
    out += '\n';
  }
  return out;
}

std::string android_page_description(const Bounds& bounds) {
  Json description = {{"attached", true},          {"empty", false},
                      {"height", bounds.height()}, {"screenX", bounds.left},
                      {"screenY", bounds.top},     {"visible", true},
                      {"width", bounds.width()}};
  return description.dump();
}

std::optional<std::string> rewrite_target_list(std::string_view chromium_list,
                                               const std::set<std::string>& target_ids,
                                               const std::string& description) {
  const auto targets = parse(chromium_list);
  if (!targets || !targets->is_array()) return std::nullopt;
  Json listed = Json::array();
  for (Json target : *targets) {
    if (!target.is_object() || !target.contains("id") || !target["id"].is_string()) continue;
    if (!target_ids.contains(target["id"].get<std::string>())) continue;
    if (target.value("type", "") == "page") target["description"] = description;
    listed.push_back(std::move(target));
  }
  return listed.dump(3);
}

std::optional<std::string> rewrite_version(std::string_view chromium_version,
                                           const std::string& package) {
  auto version = parse(chromium_version);
  if (!version || !version->is_object()) return std::nullopt;
  (*version)["Android-Package"] = package;
  return version->dump(3);
}

std::optional<DevToolsRequest> parse_devtools_request(std::string_view bytes,
                                                      std::size_t& head_size) {
  const std::size_t end = bytes.find("\r\n\r\n");
  if (end == std::string_view::npos) return std::nullopt;
  head_size = end + 4;
  std::string_view head = bytes.substr(0, end);
  const std::size_t line_end = head.find("\r\n");
  const std::string_view request_line = head.substr(0, line_end);
  const std::size_t first_space = request_line.find(' ');
  const std::size_t second_space = request_line.find(' ', first_space + 1);
  if (first_space == std::string_view::npos || second_space == std::string_view::npos ||
      !request_line.substr(second_space + 1).starts_with("HTTP/")) {
    return std::nullopt;
  }
  DevToolsRequest request;
  request.method = request_line.substr(0, first_space);
  request.target = request_line.substr(first_space + 1, second_space - first_space - 1);
  head = line_end == std::string_view::npos ? std::string_view() : head.substr(line_end + 2);
  while (!head.empty()) {
    const std::size_t next = head.find("\r\n");
    const std::string_view line = head.substr(0, next);
    head = next == std::string_view::npos ? std::string_view() : head.substr(next + 2);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string name = lower(trimmed(line.substr(0, colon)));
    const std::string_view value = trimmed(line.substr(colon + 1));
    if (name == "host") request.host = value;
    if (name == "upgrade" && lower(value) == "websocket") request.upgrade = true;
  }
  return request;
}

DevToolsListing listing_of(const DevToolsRequest& request) {
  if (request.method != "GET" || request.upgrade) return DevToolsListing::None;
  std::string_view path = request.target;
  path = path.substr(0, path.find('?'));
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (path == "/json" || path == "/json/list") return DevToolsListing::List;
  if (path == "/json/version") return DevToolsListing::Version;
  return DevToolsListing::None;
}

std::optional<std::string> http_ok_body(std::string_view response) {
  std::size_t head_size = 0;
  const std::size_t end = response.find("\r\n\r\n");
  if (end == std::string_view::npos) return std::nullopt;
  head_size = end + 4;
  const std::string_view head = response.substr(0, end);
  const std::string_view status_line = head.substr(0, head.find("\r\n"));
  if (!status_line.starts_with("HTTP/1.") || status_line.substr(8, 5) != " 200 ") {
    return std::nullopt;
  }
  const std::string lowered = lower(head);
  const std::size_t length_at = lowered.find("\r\ncontent-length:");
  std::string_view body = response.substr(head_size);
  if (length_at == std::string::npos) return std::string(body);
  const std::size_t length = std::strtoull(lowered.c_str() + length_at + 17, nullptr, 10);
  if (body.size() < length) return std::nullopt;
  return std::string(body.substr(0, length));
}

std::string json_http_response(std::string_view body) {
  std::string out = "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\n";
  out += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  out += body;
  return out;
}

}  // namespace clawperator::vdevice::android
