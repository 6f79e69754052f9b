#include "vdevice/android/system/log_buffer.hpp"

#include <cstdio>
#include <ctime>
#include <utility>

#include "vdevice/android/system/android_ids.hpp"

namespace clawperator::vdevice::android {
namespace {

// Keeps whole UTF-8 characters: a cut never leaves a lead byte without its continuation.
std::size_t utf8_prefix_length(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return text.size();
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return end;
}

std::string time_prefix(std::int64_t epoch_ms) {
  const std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  char text[32];
  std::snprintf(text, sizeof text, "%02d-%02d %02d:%02d:%02d.%03d", parts.tm_mon + 1, parts.tm_mday,
                parts.tm_hour, parts.tm_min, parts.tm_sec, static_cast<int>(epoch_ms % 1000));
  return text;
}

// printf("%-8s") for the tag.
std::string padded_tag(const std::string& tag) {
  std::string out = tag;
  if (out.size() < 8) out.append(8 - out.size(), ' ');
  return out;
}

// printf("%5d").
std::string padded_number(int value) {
  char text[16];
  std::snprintf(text, sizeof text, "%5d", value);
  return text;
}

// The prefix logprint.cpp writes; `uid` is uid_column's text, or empty without `-v uid`.
std::string line_prefix(const LogEntry& entry, LogFormat format, const std::string& uid) {
  const std::string level(1, entry.level);
  switch (format) {
    case LogFormat::Brief:
      return level + "/" + padded_tag(entry.tag) + "(" + uid + padded_number(entry.pid) + "): ";
    case LogFormat::Tag:
      return level + "/" + padded_tag(entry.tag) + ": ";
    case LogFormat::Process:
      return level + "(" + uid + padded_number(entry.pid) + ") ";
    case LogFormat::Raw:
      return "";
    case LogFormat::Time:
      return time_prefix(entry.epoch_ms) + " " + level + "/" + padded_tag(entry.tag) + "(" + uid +
             padded_number(entry.pid) + "): ";
    case LogFormat::ThreadTime: {
      // Here the uid is a column of its own: logprint turns its ':' into a blank.
      std::string column = uid;
      if (const std::size_t colon = column.find(':'); colon != std::string::npos) {
        column[colon] = ' ';
      }
      return time_prefix(entry.epoch_ms) + " " + column + padded_number(entry.pid) + " " +
             padded_number(entry.tid) + " " + level + " " + padded_tag(entry.tag) + ": ";
    }
  }
  return "";
}

}  // namespace

LogBuffer::LogBuffer(std::size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

const LogEntry& LogBuffer::append(std::int64_t epoch_ms, int uid, int pid, int tid, char level,
                                  std::string tag, std::string message) {
  // logd's payload: priority byte, tag and message, each NUL-terminated.
  const std::size_t overhead = 1 + tag.size() + 1 + 1;
  const std::size_t room = overhead < kMaxLogPayloadBytes ? kMaxLogPayloadBytes - overhead : 0;
  message.resize(utf8_prefix_length(message, room));
  if (entries_.size() == capacity_) {
    entries_.pop_front();
    ++first_seq_;
  }
  entries_.push_back(
      LogEntry{end_seq(), epoch_ms, pid, tid, uid, level, std::move(tag), std::move(message)});
  return entries_.back();
}

void LogBuffer::clear() {
  first_seq_ = end_seq();
  entries_.clear();
}

std::optional<LogFormat> parse_log_format(std::string_view name) {
  if (name == "brief") return LogFormat::Brief;
  if (name == "tag") return LogFormat::Tag;
  if (name == "process") return LogFormat::Process;
  if (name == "raw") return LogFormat::Raw;
  if (name == "time") return LogFormat::Time;
  if (name == "threadtime") return LogFormat::ThreadTime;
  return std::nullopt;
}

std::string uid_column(int uid) {
  if (uid < 0) return std::string(6, ' ');
  const auto name = android_id_name(uid);
  char text[24];
  if (name && name->size() <= 5) {
    std::snprintf(text, sizeof text, "%5.*s:", static_cast<int>(name->size()), name->data());
  } else {
    std::snprintf(text, sizeof text, "%5d:", uid);
  }
  return text;
}

std::string format_log_entry(const LogEntry& entry, LogFormat format, bool with_uid) {
  const std::string prefix = line_prefix(entry, format, with_uid ? uid_column(entry.uid) : "");
  const std::string suffix =
      format == LogFormat::Process ? "  (" + entry.tag + ")\n" : std::string("\n");
  std::string out;
  std::string_view rest = entry.message;
  while (true) {
    const std::size_t newline = rest.find('\n');
    out += prefix;
    out += rest.substr(0, newline);
    out += suffix;
    if (newline == std::string_view::npos) break;
    rest.remove_prefix(newline + 1);
  }
  return out;
}

std::optional<int> log_priority(char level) {
  switch (level) {
    case 'V':
      return 2;
    case 'D':
      return 3;
    case 'I':
      return 4;
    case 'W':
      return 5;
    case 'E':
      return 6;
    case 'F':
    case 'A':
      return 7;
    case 'S':
      return 8;
    default:
      return std::nullopt;
  }
}

bool LogFilter::add(std::string_view specs) {
  std::size_t pos = 0;
  while (pos < specs.size()) {
    const std::size_t start = specs.find_first_not_of(" \t\n", pos);
    if (start == std::string_view::npos) break;
    std::size_t end = specs.find_first_of(" \t\n", start);
    if (end == std::string_view::npos) end = specs.size();
    const std::string_view spec = specs.substr(start, end - start);
    pos = end;
    const std::size_t colon = spec.rfind(':');
    const std::string_view tag = colon == std::string_view::npos ? spec : spec.substr(0, colon);
    int priority = 2;
    if (colon != std::string_view::npos) {
      const std::string_view level = spec.substr(colon + 1);
      const auto parsed = level.size() == 1 ? log_priority(level[0]) : std::nullopt;
      if (!parsed) return false;
      priority = *parsed;
    }
    if (tag == "*") {
      default_priority_ = priority;
    } else {
      tags_[std::string(tag)] = priority;
    }
  }
  return true;
}

bool LogFilter::accepts(const LogEntry& entry) const {
  const int priority = log_priority(entry.level).value_or(2);
  const auto it = tags_.find(entry.tag);
  return priority >= (it != tags_.end() ? it->second : default_priority_);
}

}  // namespace clawperator::vdevice::android
