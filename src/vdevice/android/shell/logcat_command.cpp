// logcat: dumps (-d, -t), clears (-c) and follows (-T, or no option) the device's buffer.
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {
namespace {

struct LogcatOptions {
  LogFormat format = LogFormat::ThreadTime;
  bool with_uid = false;  // -v uid
  bool dump = false;
  bool clear = false;
  std::optional<std::size_t> tail;
  std::optional<int> pid;
  LogFilter filter;
};

std::optional<std::size_t> parse_count(const std::string& text) {
  if (text.empty() || text.size() > 9 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(std::stoul(text));
}

// The value of `-xVALUE` or `-x VALUE`.
std::optional<std::string> option_value(const std::vector<std::string>& argv, std::size_t& i,
                                        std::size_t prefix) {
  if (argv[i].size() > prefix) return argv[i].substr(prefix);
  if (i + 1 >= argv.size()) return std::nullopt;
  return argv[++i];
}

// The modifiers logcat accepts that the device ignores (`uid` it honours).
bool is_ignored_format_modifier(const std::string& name) {
  static const char* const kModifiers[] = {"color",     "descriptive", "epoch", "monotonic",
                                           "printable", "usec",        "UTC",   "year",
                                           "zone",      "nsec",        "long"};
  for (const char* modifier : kModifiers) {
    if (name == modifier) return true;
  }
  return false;
}

std::optional<std::string> parse_options(const CommandContext& context, LogcatOptions& options) {
  const auto& argv = context.argv;
  bool has_specs = false;
  bool silent_default = false;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg.rfind("-v", 0) == 0 || arg.rfind("--format=", 0) == 0) {
      const auto name = arg[1] == 'v' ? option_value(argv, i, 2) : arg.substr(9);
      if (!name) return "logcat: option requires an argument -- 'v'";
      if (auto format = parse_log_format(*name)) {
        options.format = *format;
      } else if (*name == "uid") {
        options.with_uid = true;
      } else if (!is_ignored_format_modifier(*name)) {
        return "logcat: Invalid parameter \"" + *name + "\" to -v.";
      }
    } else if (arg == "-d") {
      options.dump = true;
    } else if (arg == "-c") {
      options.clear = true;
    } else if (arg == "-s") {
      silent_default = true;
    } else if (arg.rfind("-T", 0) == 0 || arg.rfind("-t", 0) == 0) {
      const auto value = option_value(argv, i, 2);
      const auto count = value ? parse_count(*value) : std::nullopt;
      if (!count) {
        return "logcat: -" + std::string(1, arg[1]) +
               " takes a line count here (times are not supported by the virtual device)";
      }
      options.tail = *count;
      if (arg[1] == 't') options.dump = true;
    } else if (arg.rfind("-b", 0) == 0) {
      if (!option_value(argv, i, 2)) return "logcat: option requires an argument -- 'b'";
    } else if (arg.rfind("--pid=", 0) == 0 || arg == "--pid") {
      const auto value = arg == "--pid" ? option_value(argv, i, 5) : arg.substr(6);
      const auto pid = value ? parse_count(*value) : std::nullopt;
      if (!pid) return "logcat: --pid needs a number";
      options.pid = static_cast<int>(*pid);
    } else if (arg.size() > 1 && arg[0] == '-') {
      return "logcat: Unknown option '" + arg + "'.";
    } else {
      has_specs = true;
      if (!options.filter.add(arg)) return "logcat: Invalid filter expression '" + arg + "'.";
    }
  }
  if (silent_default) options.filter.add("*:S");
  if (!has_specs) {
    const auto tags = context.environment.find("ANDROID_LOG_TAGS");
    if (tags != context.environment.end()) options.filter.add(tags->second);
  }
  return std::nullopt;
}

class LogcatSession : public RunningCommand, public LogReader {
 public:
  LogcatSession(AndroidSystem& system, CommandOutput& output, LogcatOptions options,
                std::function<void(int)> finish, std::uint64_t cursor)
      : system_(system),
        output_(output),
        options_(std::move(options)),
        finish_(std::move(finish)),
        cursor_(cursor) {}

  bool pending() const override { return !done_ && attached_ && cursor_ < system_.log().end_seq(); }

  void stop() override { done_ = true; }

  // A reader that reaches logd late (logcat.attachDelayMs) reads from here on, its -T lines the
  // newest ones now.
  void attach_late(std::uint64_t cursor) {
    cursor_ = cursor;
    attached_ = true;
  }
  void wait_for_attach() { attached_ = false; }

  void pump() override {
    if (done_ || !attached_) return;
    const LogBuffer& log = system_.log();
    // Entries evicted before we read them are gone, as with logd.
    std::uint64_t seq = std::max(cursor_, log.first_seq());
    std::string out;
    for (; seq < log.end_seq(); ++seq) append(out, log.at(seq));
    cursor_ = seq;
    if (!out.empty()) output_.out(out);
  }

  void cut() override {
    if (done_) return;
    done_ = true;
    output_.err(
        "logcat: Unexpected EOF!\n\nThis means that either the device shut down, logd crashed, "
        "or this instance of logcat was unable to read log messages as quickly as they were "
        "being produced.\n\n");
    finish_(1);
  }

  void append(std::string& out, const LogEntry& entry) {
    if (!options_.filter.accepts(entry)) return;
    if (options_.pid && entry.pid != *options_.pid) return;
    if (!divider_printed_) {
      out += "--------- beginning of main\n";
      divider_printed_ = true;
    }
    out += format_log_entry(entry, options_.format, options_.with_uid);
  }

 private:
  AndroidSystem& system_;
  CommandOutput& output_;
  LogcatOptions options_;
  std::function<void(int)> finish_;
  std::uint64_t cursor_;
  bool attached_ = true;
  bool divider_printed_ = false;
  bool done_ = false;
};

}  // namespace

CommandResult run_logcat(CommandContext& context) {
  LogcatOptions options;
  if (auto error = parse_options(context, options)) {
    context.output.err(*error + "\n");
    return {1, nullptr};
  }
  AndroidSystem& system = context.system;
  if (options.clear) {
    system.log().clear();
    return {0, nullptr};
  }
  const LogBuffer& log = system.log();
  const std::optional<std::size_t> tail = options.tail;
  const auto start_of = [&log, tail] {
    return tail ? log.end_seq() - std::min<std::uint64_t>(*tail, log.size()) : log.first_seq();
  };
  const bool dump = options.dump;
  auto session = std::make_shared<LogcatSession>(system, context.output, std::move(options),
                                                 context.finish, start_of());
  const std::size_t attach_delay_ms = system.scenario().logcat.attach_delay_ms;
  if (!dump && attach_delay_ms > 0) {
    session->wait_for_attach();
    system.events().after(std::chrono::milliseconds(attach_delay_ms),
                          [weak = std::weak_ptr<LogcatSession>(session), start_of] {
                            if (auto late = weak.lock()) late->attach_late(start_of());
                          });
  }
  session->pump();
  if (dump) return {0, nullptr};
  system.add_reader(session);
  return {0, session};
}

}  // namespace clawperator::vdevice::android
