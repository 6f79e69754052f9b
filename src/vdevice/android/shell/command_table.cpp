#include <array>
#include <string>
#include <utility>

#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {
namespace {

// toybox echo: -n, -e and -E, alone or combined ("-ne"), before the first other word.
CommandResult run_echo(CommandContext& context) {
  bool newline = true;
  bool escapes = false;
  std::size_t first = 1;
  for (; first < context.argv.size(); ++first) {
    const std::string& word = context.argv[first];
    if (word.size() < 2 || word[0] != '-' ||
        word.find_first_not_of("neE", 1) != std::string::npos) {
      break;
    }
    for (const char flag : word.substr(1)) {
      if (flag == 'n') newline = false;
      if (flag == 'e') escapes = true;
      if (flag == 'E') escapes = false;
    }
  }
  std::string text;
  for (std::size_t i = first; i < context.argv.size(); ++i) {
    if (i > first) text += ' ';
    text += context.argv[i];
  }
  if (escapes) {
    std::string expanded;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\\' || i + 1 == text.size()) {
        expanded += text[i];
        continue;
      }
      const char next = text[++i];
      switch (next) {
        case 'n':
          expanded += '\n';
          break;
        case 't':
          expanded += '\t';
          break;
        case 'r':
          expanded += '\r';
          break;
        case 'a':
          expanded += '\a';
          break;
        case 'b':
          expanded += '\b';
          break;
        case 'f':
          expanded += '\f';
          break;
        case 'v':
          expanded += '\v';
          break;
        case 'e':
          expanded += '\x1b';
          break;
        case '\\':
          expanded += '\\';
          break;
        case 'c':
          context.output.out(expanded);
          return {0, nullptr};
        case '0': {
          int value = 0;
          for (int digits = 0;
               digits < 3 && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '7';
               ++digits) {
            value = value * 8 + (text[++i] - '0');
          }
          expanded += static_cast<char>(value);
          break;
        }
        default:
          expanded += '\\';
          expanded += next;
      }
    }
    text = std::move(expanded);
  }
  if (newline) text += '\n';
  context.output.out(text);
  return {0, nullptr};
}

CommandResult run_true(CommandContext&) {
  return {0, nullptr};
}
CommandResult run_false(CommandContext&) {
  return {1, nullptr};
}

CommandResult run_id(CommandContext& context) {
  context.output.out(
      "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),"
      "1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),3003(inet) "
      "context=u:r:shell:s0\n");
  return {0, nullptr};
}

CommandResult run_whoami(CommandContext& context) {
  context.output.out("shell\n");
  return {0, nullptr};
}

}  // namespace

CommandHandler find_command(std::string_view name) {
  for (const std::string_view directory : {"/system/bin/", "/system/xbin/", "/bin/"}) {
    if (name.substr(0, directory.size()) == directory) {
      name.remove_prefix(directory.size());
      break;
    }
  }
  static constexpr std::array<std::pair<std::string_view, CommandHandler>, 21> kCommands = {{
      {"echo", run_echo},
      {"true", run_true},
      {"false", run_false},
      {"id", run_id},
      {"whoami", run_whoami},
      {"getprop", run_getprop},
      {"settings", run_settings},
      {"wm", run_wm},
      {"input", run_input},
      {"cmd", run_cmd},
      {"screencap", run_screencap},
      {"pm", run_pm},
      {"dumpsys", run_dumpsys},
      {"am", run_am},
      {"logcat", run_logcat},
      {"log", run_log},
      {"cat", run_cat},
      {"rm", run_rm},
      {"screenrecord", run_screenrecord},
      {"kill", run_kill},
      {"ps", run_ps},
  }};
  for (const auto& [command, handler] : kCommands) {
    if (command == name) return handler;
  }
  return nullptr;
}

}  // namespace clawperator::vdevice::android
