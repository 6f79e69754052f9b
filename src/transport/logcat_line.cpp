#include "clawperator/transport/logcat_line.hpp"

#include <array>
#include <cstddef>

#include "clawperator/text.hpp"

namespace clawperator::transport {

namespace {

constexpr std::size_t kNotFound = std::string_view::npos;

bool is_level(char c) noexcept {
  switch (c) {
    case 'V':
    case 'D':
    case 'I':
    case 'W':
    case 'E':
    case 'F':
    case 'A':
    case 'S':
      return true;
    default:
      return false;
  }
}

std::string_view trim_right(std::string_view text) noexcept {
  while (!text.empty() && is_blank_char(text.back())) text.remove_suffix(1);
  return text;
}

std::size_t skip_spaces(std::string_view line, std::size_t pos) noexcept {
  while (pos < line.size() && line[pos] == ' ') ++pos;
  return pos;
}

std::size_t skip_digits(std::string_view line, std::size_t pos) noexcept {
  while (pos < line.size() && is_ascii_digit(line[pos])) ++pos;
  return pos;
}

// Matches `pattern` where 'd' stands for one digit; returns the position after it.
std::size_t match_digits(std::string_view line, std::size_t pos,
                         std::string_view pattern) noexcept {
  if (line.size() - pos < pattern.size()) return kNotFound;
  for (char expected : pattern) {
    const char actual = line[pos++];
    if (expected == 'd' ? !is_ascii_digit(actual) : actual != expected) return kNotFound;
  }
  return pos;
}

// "[YYYY-]MM-DD HH:MM:SS.f…" -> the position after the fraction, or kNotFound.
std::size_t skip_timestamp(std::string_view line) noexcept {
  std::size_t pos = 0;
  if (const std::size_t after_year = match_digits(line, 0, "dddd-"); after_year != kNotFound) {
    pos = after_year;
  }
  pos = match_digits(line, pos, "dd-dd dd:dd:dd.d");
  if (pos == kNotFound) return kNotFound;
  return skip_digits(line, pos);
}

// The first ':' that ends a logcat header: followed by a space or by the end of the line.
std::size_t find_header_colon(std::string_view line, std::size_t from) noexcept {
  for (std::size_t pos = line.find(':', from); pos != kNotFound; pos = line.find(':', pos + 1)) {
    if (pos + 1 == line.size() || line[pos + 1] == ' ') return pos;
  }
  return kNotFound;
}

std::string_view message_after_colon(std::string_view line, std::size_t colon) noexcept {
  std::string_view message = line.substr(colon + 1);
  if (!message.empty() && message.front() == ' ') message.remove_prefix(1);
  return message;
}

bool is_uid_name_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || is_ascii_digit(c);
}

struct ProcessGroup {
  std::string_view uid;  // empty: the line shows none
  std::size_t colon = kNotFound;
};

// The "( pid)" of the brief and time formats, with `-v uid` "(10123: pid)" or "( root: pid)"
// (liblog's logprint.cpp: the uid "%5s:" or "%5d:", six blanks when logd does not know it),
// starting at `open` and followed by the header's ':'. kNotFound in `colon` when the text there
// is not one.
ProcessGroup match_process_group(std::string_view line, std::size_t open) noexcept {
  ProcessGroup group;
  std::size_t pos = skip_spaces(line, open + 1);
  std::size_t token_end = pos;
  while (token_end < line.size() && is_uid_name_char(line[token_end])) ++token_end;
  if (token_end == pos) return group;
  std::size_t pid_start = pos;
  if (token_end < line.size() && line[token_end] == ':') {
    group.uid = line.substr(pos, token_end - pos);
    pid_start = skip_spaces(line, token_end + 1);
  }
  const std::size_t pid_end = skip_digits(line, pid_start);
  if (pid_end == pid_start || pid_end + 1 >= line.size() || line[pid_end] != ')' ||
      line[pid_end + 1] != ':') {
    return ProcessGroup{};
  }
  if (pid_end + 2 < line.size() && line[pid_end + 2] != ' ') return ProcessGroup{};
  group.colon = pid_end + 1;
  return group;
}

// "L/Tag( pid): msg", "L/Tag(uid: pid): msg" or "L/Tag: msg" starting at pos.
bool parse_slash_form(std::string_view line, std::size_t pos, LogcatLine& out) noexcept {
  if (line.size() - pos < 2 || !is_level(line[pos]) || line[pos + 1] != '/') return false;
  const std::size_t colon = find_header_colon(line, pos + 2);
  // The process group comes before the header's colon, though its own "uid:" may be found first.
  for (std::size_t open = line.find('(', pos + 2); open != kNotFound && open <= colon;
       open = line.find('(', open + 1)) {
    const ProcessGroup group = match_process_group(line, open);
    if (group.colon == kNotFound) continue;
    out.level = line[pos];
    out.tag = trim_right(line.substr(pos + 2, open - pos - 2));
    out.uid = group.uid;
    out.message = message_after_colon(line, group.colon);
    return true;
  }
  if (colon == kNotFound) return false;
  out.level = line[pos];
  out.tag = trim_right(line.substr(pos + 2, colon - pos - 2));
  out.message = message_after_colon(line, colon);
  return true;
}

// " pid  tid L Tag: msg" after a threadtime timestamp, starting at the pid; with `-v uid`
// "  uid   pid   tid L Tag: msg" (the uid a number or a name of at most five letters).
bool parse_threadtime_rest(std::string_view line, std::size_t pos, LogcatLine& out) noexcept {
  std::array<std::string_view, 3> fields;
  std::size_t count = 0;
  while (count < fields.size() && pos < line.size() && is_uid_name_char(line[pos])) {
    std::size_t end = pos;
    while (end < line.size() && is_uid_name_char(line[end])) ++end;
    const std::size_t next = skip_spaces(line, end);
    if (next == end) return false;
    fields[count++] = line.substr(pos, end - pos);
    pos = next;
    // The level letter alone, followed by a space, ends the numbers.
    if (count >= 2 && pos + 1 < line.size() && is_level(line[pos]) && line[pos + 1] == ' ') break;
  }
  if (count < 2) return false;
  const std::size_t numbers = count == 3 ? 1 : 0;
  for (std::size_t i = numbers; i < count; ++i) {
    if (skip_digits(fields[i], 0) != fields[i].size()) return false;
  }
  if (pos + 1 >= line.size() || !is_level(line[pos]) || line[pos + 1] != ' ') return false;
  const char level = line[pos];
  const std::size_t tag_start = pos + 2;
  const std::size_t colon = find_header_colon(line, tag_start);
  if (colon == kNotFound) return false;
  out.level = level;
  out.tag = trim(line.substr(tag_start, colon - tag_start));
  if (count == 3) out.uid = fields[0];
  out.message = message_after_colon(line, colon);
  return true;
}

}  // namespace

LogcatLine parse_logcat_line(std::string_view line) noexcept {
  LogcatLine parsed;
  std::size_t header_start = 0;
  if (const std::size_t after_time = skip_timestamp(line); after_time != kNotFound) {
    header_start = skip_spaces(line, after_time);
    if (header_start > after_time && header_start < line.size()) {
      if (is_uid_name_char(line[header_start]) &&
          parse_threadtime_rest(line, header_start, parsed)) {
        return parsed;
      }
      if (parse_slash_form(line, header_start, parsed)) return parsed;
    }
    parsed = LogcatLine{};
  }
  if (parse_slash_form(line, 0, parsed)) return parsed;
  return LogcatLine{0, {}, trim(line), {}};
}

}  // namespace clawperator::transport
