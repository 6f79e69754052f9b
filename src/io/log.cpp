#include "clawperator/io/log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "clawperator/io/utc_time.hpp"

namespace clawperator::io {
namespace {

struct LogState {
  LogSettings settings;
  bool configured = false;
  bool failed = false;  // warned once; stop trying
  int fd = -1;
  std::string path;
  // A server (mcp serve) logs from one thread per call.
  std::mutex mutex;
};

LogState& state() {
  static LogState instance;
  return instance;
}

std::string_view level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Debug:
      return "debug";
    case LogLevel::Info:
      return "info";
    case LogLevel::Warn:
      return "warn";
    case LogLevel::Error:
      break;
  }
  return "error";
}

bool open_log(LogState& log) {
  if (log.fd >= 0) return true;
  if (log.failed || log.settings.directory.empty()) return false;
  std::error_code ec;
  std::filesystem::create_directories(log.settings.directory, ec);
  log.path = daily_log_path(log.settings.directory).string();
  log.fd = ::open(log.path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log.fd < 0) {
    log.failed = true;
    std::fprintf(stderr,
                 "clawperator: warning: cannot write the log in %s (LOG_DIRECTORY_UNWRITABLE); "
                 "set CLAWPERATOR_LOG_DIR to a writable directory\n",
                 log.settings.directory.c_str());
    log.path.clear();
    return false;
  }
  return true;
}

}  // namespace

std::filesystem::path daily_log_path(const std::filesystem::path& directory) {
  return directory / ("clawperator-" + utc_date(std::chrono::system_clock::now()) + ".log");
}

LogLevel parse_log_level(std::string_view name) {
  if (name == "debug") return LogLevel::Debug;
  if (name == "warn") return LogLevel::Warn;
  if (name == "error") return LogLevel::Error;
  return LogLevel::Info;
}

void configure_logging(const LogSettings& settings) {
  LogState& log = state();
  const std::lock_guard<std::mutex> guard(log.mutex);
  log.settings = settings;
  log.configured = true;
}

void log_event(LogLevel level, std::string_view event, const Json& fields) {
  LogState& log = state();
  const std::lock_guard<std::mutex> guard(log.mutex);
  if (!log.configured || level < log.settings.level) return;
  if (level >= LogLevel::Warn || log.settings.verbose) {
    std::fprintf(stderr, "clawperator: %.*s: %.*s %s\n", static_cast<int>(level_name(level).size()),
                 level_name(level).data(), static_cast<int>(event.size()), event.data(),
                 dump_json(fields).c_str());
  }
  if (!open_log(log)) return;
  Json line = Json::object();
  line["ts"] = utc_timestamp(std::chrono::system_clock::now());
  line["level"] = level_name(level);
  line["event"] = event;
  line["pid"] = static_cast<long long>(::getpid());
  for (const auto& [key, value] : fields.items()) line[key] = value;
  const std::string text = dump_json(line) + "\n";
  // One write per line: O_APPEND keeps concurrent processes' lines whole.
  if (::write(log.fd, text.data(), text.size()) < 0) log.failed = true;
}

std::string current_log_path() {
  LogState& log = state();
  const std::lock_guard<std::mutex> guard(log.mutex);
  return open_log(log) ? log.path : std::string();
}

}  // namespace clawperator::io
