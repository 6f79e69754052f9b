#include "clawperator/io/log.hpp"

#include <fcntl.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <memory>
#include <mutex>

#include "clawperator/io/utc_time.hpp"

namespace clawperator::io {
namespace {

constexpr int kLogFileFlags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY;

spdlog::level::level_enum spdlog_level(LogLevel level) {
  switch (level) {
    case LogLevel::Debug:
      return spdlog::level::debug;
    case LogLevel::Info:
      return spdlog::level::info;
    case LogLevel::Warn:
      return spdlog::level::warn;
    case LogLevel::Error:
      break;
  }
  return spdlog::level::err;
}

// The NDJSON level names ("warn", not spdlog's "warning"): the `logs` command and scripts
// read them.
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

// The daily file. Each message is one whole NDJSON line, newline included, written with one
// write() on an O_APPEND descriptor so that concurrent processes' lines stay whole: no
// formatter, the text passes through. The file is opened at the first line; when it cannot be,
// `diagnostics` gets one warning and the sink stays quiet.
class DailyFileSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit DailyFileSink(std::shared_ptr<spdlog::logger> diagnostics)
      : diagnostics_(std::move(diagnostics)) {}
  ~DailyFileSink() override { close_file(); }
  DailyFileSink(const DailyFileSink&) = delete;
  DailyFileSink& operator=(const DailyFileSink&) = delete;

  void set_directory(const std::filesystem::path& directory) {
    const std::lock_guard<std::mutex> lock(mutex_);
    close_file();
    directory_ = directory;
    failed_ = false;
  }

  std::string path() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return open_file() ? path_ : std::string();
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& message) override {
    if (!open_file()) return;
    if (::write(fd_, message.payload.data(), message.payload.size()) < 0) failed_ = true;
  }
  void flush_() override {}

 private:
  bool open_file() {
    if (fd_ >= 0) return true;
    if (failed_) return false;
    if (directory_.empty()) {
      failed_ = true;
      diagnostics_->warn(
          "cannot write the log: {} (LOG_DIRECTORY_UNWRITABLE); set CLAWPERATOR_LOG_DIR to a "
          "writable directory",
          kNoLogHome);
      return false;
    }
    OpenedLog opened = open_daily_log(directory_);
    if (opened.fd < 0) {
      failed_ = true;
      diagnostics_->warn(
          "cannot write the log in {} (LOG_DIRECTORY_UNWRITABLE); set CLAWPERATOR_LOG_DIR to a "
          "writable directory",
          directory_.string());
      return false;
    }
    fd_ = opened.fd;
    path_ = opened.path.string();
    return true;
  }

  void close_file() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    path_.clear();
  }

  std::shared_ptr<spdlog::logger> diagnostics_;
  std::filesystem::path directory_;
  bool failed_ = false;  // warned once; stop trying
  int fd_ = -1;
  std::string path_;
};

// One logger per destination: spdlog hands every sink of a logger the same text, and the file
// wants NDJSON where stderr wants a human line.
struct Loggers {
  Loggers()
      : console(std::make_shared<spdlog::logger>(
            "clawperator", std::make_shared<spdlog::sinks::stderr_sink_mt>())),
        file_sink(std::make_shared<DailyFileSink>(console)),
        file("clawperator", file_sink) {
    console->set_pattern("clawperator: %l: %v");
  }

  void apply(const LogSettings& settings) {
    console->set_level(settings.verbose ? spdlog::level::debug : spdlog::level::warn);
    file.set_level(spdlog_level(settings.level));
    file_sink->set_directory(settings.directory);
  }

  std::shared_ptr<spdlog::logger> console;  // "clawperator: LEVEL: TEXT" on stderr
  std::shared_ptr<DailyFileSink> file_sink;
  spdlog::logger file;
};

struct LogState {
  LogSettings settings;
  bool configured = false;
  std::unique_ptr<Loggers> loggers;  // built at the first event
  // The servers (mcp serve, serve) log from one thread per call: the settings and the lazy
  // construction of the loggers are guarded here; the sinks have their own locks.
  std::mutex mutex;
};

LogState& state() {
  static LogState instance;
  return instance;
}

Loggers& loggers(LogState& log) {
  if (!log.loggers) {
    log.loggers = std::make_unique<Loggers>();
    log.loggers->apply(log.settings);
  }
  return *log.loggers;
}

std::string ndjson_line(LogLevel level, std::string_view event, const Json& fields) {
  Json line = Json::object();
  line["ts"] = utc_timestamp(std::chrono::system_clock::now());
  line["level"] = level_name(level);
  line["event"] = event;
  line["pid"] = static_cast<long long>(::getpid());
  for (const auto& [key, value] : fields.items()) line[key] = value;
  return dump_json(line) + "\n";
}

}  // namespace

std::filesystem::path daily_log_path(const std::filesystem::path& directory) {
  return directory / ("clawperator-" + utc_date(std::chrono::system_clock::now()) + ".log");
}

OpenedLog open_daily_log(const std::filesystem::path& directory) {
  OpenedLog opened;
  opened.path = daily_log_path(directory);
  opened.fd = ::open(opened.path.c_str(), kLogFileFlags, 0600);
  if (opened.fd < 0 && errno == ENOENT) {
    // "logs/" names the directory "logs": its parent is the one above.
    const std::filesystem::path target =
        directory.has_filename() ? directory : directory.parent_path();
    std::error_code ec;
    if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
    // Only the log directory itself is ours to keep private; EEXIST (a concurrent process made
    // it) is fine.
    ::mkdir(target.c_str(), 0700);
    opened.fd = ::open(opened.path.c_str(), kLogFileFlags, 0600);
  }
  if (opened.fd < 0) opened.error = errno;
  return opened;
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
  if (log.loggers) log.loggers->apply(settings);
}

void stop_logging() {
  LogState& log = state();
  const std::lock_guard<std::mutex> guard(log.mutex);
  log.settings = LogSettings{};
  log.configured = false;
  if (log.loggers) log.loggers->apply(log.settings);
}

void log_event(LogLevel level, std::string_view event, const Json& fields) {
  LogState& log = state();
  const std::lock_guard<std::mutex> guard(log.mutex);
  if (!log.configured || level < log.settings.level) return;
  Loggers& sinks = loggers(log);
  const spdlog::level::level_enum severity = spdlog_level(level);
  if (sinks.console->should_log(severity)) {
    sinks.console->log(severity, fmt::format("{} {}", event, dump_json(fields)));
  }
  sinks.file.log(severity, ndjson_line(level, event, fields));
}

void log_event_to_file(LogLevel level, std::string_view event, const Json& fields) {
  LogState& log = state();
  const std::lock_guard<std::mutex> guard(log.mutex);
  if (!log.configured || level < log.settings.level) return;
  loggers(log).file.log(spdlog_level(level), ndjson_line(level, event, fields));
}

void emit_warning(std::string_view message) {
  LogState& log = state();
  const std::lock_guard<std::mutex> guard(log.mutex);
  Loggers& sinks = loggers(log);
  sinks.console->log(spdlog::level::warn, message);
  if (log.configured && sinks.file.should_log(spdlog::level::warn)) {
    sinks.file.log(spdlog::level::warn,
                   ndjson_line(LogLevel::Warn, "warning", Json{{"message", message}}));
  }
}

std::string current_log_path() {
  LogState& log = state();
  const std::lock_guard<std::mutex> guard(log.mutex);
  return log.configured ? loggers(log).file_sink->path() : std::string();
}

}  // namespace clawperator::io
