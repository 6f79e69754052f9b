// log (toybox's /system/bin/log): writes one logcat entry from the shell, as its own process
// under the shell's uid (2000) — a line any adb user can plant with any tag, which is why the
// host trusts a result line by its uid and never by its tag or text.
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include "vdevice/android/shell/shell_command.hpp"
#include "vdevice/android/system/android_ids.hpp"

namespace clawperator::vdevice::android {
namespace {

constexpr const char* kUsage = "usage: log [-p PRI] [-t TAG] MESSAGE...";

CommandResult usage_error(CommandContext& context, const std::string& problem) {
  return fail(context, "log: " + problem + "\n" + kUsage, 1);
}

// toybox's -p letters, either case; 's' (silent) is a priority nothing is written at.
std::optional<char> priority_level(const std::string& text) {
  if (text.size() != 1) return std::nullopt;
  const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  if (std::string_view("vdiwefs").find(letter) == std::string_view::npos) return std::nullopt;
  return static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
}

}  // namespace

CommandResult run_log(CommandContext& context) {
  const auto& argv = context.argv;
  char level = 'I';
  std::string tag = "log";
  std::size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    const std::string& option = argv[i];
    if (option == "--") {
      ++i;
      break;
    }
    if (option[1] != 'p' && option[1] != 't') {
      return usage_error(context, "Unknown option '" + option.substr(1) + "'");
    }
    // -pX or -p X, as getopt reads them.
    std::string value = option.substr(2);
    if (value.empty()) {
      if (i + 1 >= argv.size()) {
        return usage_error(context, "Missing argument to -" + std::string(1, option[1]));
      }
      value = argv[++i];
    }
    if (option[1] == 't') {
      tag = value;
      continue;
    }
    const auto parsed = priority_level(value);
    if (!parsed) return fail(context, "log: bad -p '" + value + "'", 1);
    level = *parsed;
  }
  if (i >= argv.size()) {
    // Newer toybox reads stdin lines instead; nothing the host runs needs that.
    return usage_error(context, "needs a MESSAGE (the virtual device's log does not read stdin)");
  }
  std::string message = argv[i];
  for (++i; i < argv.size(); ++i) message += " " + argv[i];
  if (level != 'S') {
    // A single-threaded process of its own: tid = pid.
    context.system.log_line_as(kShellUid, context.pid, context.pid, level, tag, message);
  }
  return {0, nullptr};
}

}  // namespace clawperator::vdevice::android
