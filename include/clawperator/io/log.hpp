// Diagnostics: one NDJSON line per event in a daily file under the log
// directory, and human lines on stderr for warnings (or everything with
// --verbose). Fail-open: a log that cannot be written never changes a result.
// Nothing is opened or built (spdlog included) until the first event is logged,
// so commands that log nothing pay nothing at start.
#pragma once

#include <fmt/core.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "clawperator/json.hpp"

namespace clawperator::io {

enum class LogLevel { Debug = 0, Info = 1, Warn = 2, Error = 3 };

LogLevel parse_log_level(std::string_view name);  // unknown names: Info

// Why a log directory is empty, for the messages that say so.
inline constexpr std::string_view kNoLogHome =
    "HOME is unset and the passwd database has no home directory for this user";

struct LogSettings {
  // Empty when there is no home to put it under: no file, one warning at the first event.
  std::filesystem::path directory;
  LogLevel level = LogLevel::Info;  // events below it are dropped, from the file and stderr
  bool verbose = false;             // also echo Info and Debug events to stderr
};

void configure_logging(const LogSettings& settings);
// Back to the state before configure_logging: events are dropped, the file is closed.
void stop_logging();

// Never pass payload text in `fields`: it may hold what a user typed into an app.
void log_event(LogLevel level, std::string_view event, const Json& fields = Json::object());
// The same into the file only, never echoed on stderr: an event that stderr's own line already
// tells a person (a failure's "clawperator: CODE: message; hint"), so that a failure is one line
// there (README, "Output contract").
void log_event_to_file(LogLevel level, std::string_view event, const Json& fields);

// "clawperator: warning: MESSAGE" on stderr whatever the level, and a "warning" event in the
// file when the level lets warnings through.
void emit_warning(std::string_view message);

template <typename... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
  emit_warning(fmt::format(format, std::forward<Args>(args)...));
}

// Today's log file in `directory`: clawperator-YYYY-MM-DD.log (UTC date).
std::filesystem::path daily_log_path(const std::filesystem::path& directory);

struct OpenedLog {
  int fd = -1;    // open for appending; the caller closes it
  int error = 0;  // errno when fd < 0
  std::filesystem::path path;
};

// Opens today's log file in `directory` for appending (O_APPEND, mode 0600), creating the
// directory when it is missing: mode 0700 for it, its missing parents as the umask says. A
// directory that exists keeps its mode.
OpenedLog open_daily_log(const std::filesystem::path& directory);

// The file the next event goes to (for details.logPath); empty when logging failed.
std::string current_log_path();

}  // namespace clawperator::io
