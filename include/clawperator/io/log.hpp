// Diagnostics: one NDJSON line per event in a daily file under the log
// directory, and human lines on stderr for warnings (or everything with
// --verbose). Fail-open: a log that cannot be written never changes a result.
// Nothing is opened until the first event is logged, so commands that log
// nothing pay nothing at start.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "clawperator/json.hpp"

namespace clawperator::io {

enum class LogLevel { Debug = 0, Info = 1, Warn = 2, Error = 3 };

LogLevel parse_log_level(std::string_view name);  // unknown names: Info

struct LogSettings {
  std::filesystem::path directory;
  LogLevel level = LogLevel::Info;
  bool verbose = false;  // also echo Info and Debug events to stderr
};

void configure_logging(const LogSettings& settings);

// Never pass payload text in `fields`: it may hold what a user typed into an app.
void log_event(LogLevel level, std::string_view event, const Json& fields = Json::object());

// Today's log file in `directory`: clawperator-YYYY-MM-DD.log (UTC date).
std::filesystem::path daily_log_path(const std::filesystem::path& directory);

// The file the next event goes to (for details.logPath); empty when logging failed.
std::string current_log_path();

}  // namespace clawperator::io
