#include "clawperator/transport/logcat_line.hpp"

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

// "Tag    ( 1234)" -> "Tag"; "Tag   " -> "Tag".
std::string_view tag_without_pid(std::string_view head) noexcept {
  head = trim_right(head);
  if (!head.empty() && head.back() == ')') {
    const std::size_t open = head.rfind('(');
    if (open != kNotFound) {
      const std::size_t digits = skip_spaces(head, open + 1);
      const std::size_t after_digits = skip_digits(head, digits);
      if (after_digits > digits && after_digits + 1 == head.size()) {
        return trim_right(head.substr(0, open));
      }
    }
  }
  return head;
}

// "L/Tag( pid): msg" or "L/Tag: msg" starting at pos.
bool parse_slash_form(std::string_view line, std::size_t pos, LogcatLine& out) noexcept {
  if (line.size() - pos < 2 || !is_level(line[pos]) || line[pos + 1] != '/') return false;
  const std::size_t colon = find_header_colon(line, pos + 2);
  if (colon == kNotFound) return false;
  out.level = line[pos];
  out.tag = tag_without_pid(line.substr(pos + 2, colon - pos - 2));
  out.message = message_after_colon(line, colon);
  return true;
}

// " pid  tid L Tag: msg" after a threadtime timestamp, starting at the pid.
bool parse_threadtime_rest(std::string_view line, std::size_t pos, LogcatLine& out) noexcept {
  std::size_t after = skip_digits(line, pos);
  if (after == pos) return false;
  pos = skip_spaces(line, after);
  if (pos == after) return false;
  after = skip_digits(line, pos);
  if (after == pos) return false;
  pos = skip_spaces(line, after);
  if (pos == after || pos + 1 >= line.size() || !is_level(line[pos]) || line[pos + 1] != ' ') {
    return false;
  }
  const char level = line[pos];
  const std::size_t tag_start = pos + 2;
  const std::size_t colon = find_header_colon(line, tag_start);
  if (colon == kNotFound) return false;
  out.level = level;
  out.tag = trim(line.substr(tag_start, colon - tag_start));
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
      if (is_ascii_digit(line[header_start]) && parse_threadtime_rest(line, header_start, parsed)) {
        return parsed;
      }
      if (parse_slash_form(line, header_start, parsed)) return parsed;
    }
    parsed = LogcatLine{};
  }
  if (parse_slash_form(line, 0, parsed)) return parsed;
  return LogcatLine{0, {}, trim(line)};
}

}  // namespace clawperator::transport
