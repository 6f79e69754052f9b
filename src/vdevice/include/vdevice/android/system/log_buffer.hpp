// The device's logcat buffer: a bounded ring of entries with sequence numbers, so readers
// (live `logcat` sessions) keep a cursor and fall behind gracefully when old entries are
// evicted, as logd's readers do. Also the text formats logcat prints (`-v`) and its
// filterspecs (`TAG:LEVEL`, ANDROID_LOG_TAGS).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::vdevice::android {

struct LogEntry {
  std::uint64_t seq = 0;
  std::int64_t epoch_ms = 0;  // wall-clock time of the write
  int pid = 0;
  int tid = 0;
  // The writer's uid as logd took it from the socket's credentials; -1: logd does not know
  // it (a logd that records none, logcat.showUids false).
  int uid = -1;
  char level = 'I';  // V D I W E F
  std::string tag;
  std::string message;
};

// logd refuses payloads beyond this (LOGGER_ENTRY_MAX_PAYLOAD); longer messages are cut,
// which is exactly why the Operator chunks large results.
inline constexpr std::size_t kMaxLogPayloadBytes = 4068;

class LogBuffer {
 public:
  explicit LogBuffer(std::size_t capacity);

  // Cuts the message at kMaxLogPayloadBytes (minus the tag), on a UTF-8 boundary.
  const LogEntry& append(std::int64_t epoch_ms, int uid, int pid, int tid, char level,
                         std::string tag, std::string message);
  // `logcat -c`: forgets everything written so far.
  void clear();

  // Sequence number of the oldest entry kept and of the next entry to be written.
  std::uint64_t first_seq() const noexcept { return first_seq_; }
  std::uint64_t end_seq() const noexcept { return first_seq_ + entries_.size(); }
  // Precondition: first_seq() <= seq < end_seq().
  const LogEntry& at(std::uint64_t seq) const { return entries_[seq - first_seq_]; }
  std::size_t size() const noexcept { return entries_.size(); }

 private:
  std::size_t capacity_;
  std::deque<LogEntry> entries_;
  std::uint64_t first_seq_ = 1;
};

enum class LogFormat { Brief, Tag, Process, Raw, Time, ThreadTime };

std::optional<LogFormat> parse_log_format(std::string_view name);

// The lines logcat prints for the entry, each ending in '\n'. A message with newlines prints
// as several lines sharing the prefix. Times are the device's (UTC) local time. `with_uid` is
// the `uid` format modifier (`-v uid`): brief, process, time and threadtime name the uid
// before the pid, as liblog's logprint.cpp does; tag and raw have no room for it.
std::string format_log_entry(const LogEntry& entry, LogFormat format, bool with_uid = false);

// logprint.cpp's uid column: the AID's name when it has at most 5 characters, else the
// number, right-aligned in 5 columns and followed by ':' ("shell:", "10123:"); six blanks
// for an unknown uid.
std::string uid_column(int uid);

// Which entries a reader shows: `TAG:LEVEL` pairs, `*:LEVEL` for the rest (logcat's
// filterspecs; a bare TAG means TAG:V). Default: everything.
class LogFilter {
 public:
  // Adds one whitespace-separated filterspec string. False on an invalid level letter.
  bool add(std::string_view specs);
  bool accepts(const LogEntry& entry) const;

 private:
  std::map<std::string, int, std::less<>> tags_;
  int default_priority_ = 0;
};

// 'V' → 2 … 'F' → 7, 'S' → 8 (silent); nullopt for anything else.
std::optional<int> log_priority(char level);

}  // namespace clawperator::vdevice::android
