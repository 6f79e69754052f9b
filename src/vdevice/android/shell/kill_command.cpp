// kill: the shell's builtin (mksh's, what `adb shell kill …` runs) and toybox's
// (/system/bin/kill). Both send to the device's ProcessTable; they differ in their messages.
#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "vdevice/android/shell/shell_command.hpp"
#include "vdevice/android/system/process_table.hpp"

namespace clawperator::vdevice::android {
namespace {

// A pid as both kills read it: a whole decimal number.
std::optional<int> parse_pid(const std::string& text) {
  if (text.empty() || text.size() > 9 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoi(text);
}

constexpr const char* kShellKillPrefix = "/system/bin/sh: kill: ";

}  // namespace

int run_kill_builtin(ProcessTable& processes, const std::vector<std::string>& argv,
                     CommandOutput& output) {
  int signal = kSignalTerminate;
  std::size_t first = 1;
  const auto bad_signal = [&](const std::string& name) {
    output.err(kShellKillPrefix + std::string("bad signal '") + name + "'\n");
    return 1;
  };
  // mksh: `-9` and `-INT` (digits or upper case) name the signal; otherwise options -s, -l.
  if (argv.size() > 1 && argv[1].size() > 1 && argv[1][0] == '-' &&
      (std::isdigit(static_cast<unsigned char>(argv[1][1])) != 0 ||
       std::isupper(static_cast<unsigned char>(argv[1][1])) != 0)) {
    const std::string name = argv[1].substr(1);
    const auto number = signal_number(name);
    if (!number || name.find_first_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos) {
      return bad_signal(name);
    }
    signal = *number;
    first = argv.size() > 2 && argv[2] == "--" ? 3 : 2;
  } else {
    for (; first < argv.size() && argv[first].size() > 1 && argv[first][0] == '-'; ++first) {
      const std::string& option = argv[first];
      if (option == "--") {
        ++first;
        break;
      }
      if (option.starts_with("-s")) {
        std::string name = option.substr(2);
        if (name.empty()) {
          if (first + 1 >= argv.size()) {
            output.err(kShellKillPrefix + std::string("-s: argument expected\n"));
            return 1;
          }
          name = argv[++first];
        }
        const auto number = signal_number(name);
        if (!number) return bad_signal(name);
        signal = *number;
      } else if (option == "-l") {
        output.err(kShellKillPrefix + std::string("-l is not supported by the virtual device\n"));
        return 1;
      } else {
        output.err(kShellKillPrefix + option + ": unknown option\n");
        return 1;
      }
    }
  }
  if (first >= argv.size()) {
    output.err(
        "usage:\tkill [-s signame | -signum | -signame] { job | pid | pgrp } ...\n"
        "\tkill -l [exit_status ...]\n");
    return 1;
  }
  int status = 0;
  for (std::size_t i = first; i < argv.size(); ++i) {
    const auto pid = parse_pid(argv[i]);
    if (!pid) {
      output.err(kShellKillPrefix + argv[i] + ": arguments must be jobs or process IDs\n");
      status = 1;
    } else if (!processes.signal(*pid, signal)) {
      output.err(kShellKillPrefix + argv[i] + ": " + std::strerror(ESRCH) + "\n");
      status = 1;
    }
  }
  return status;
}

CommandResult run_kill(CommandContext& context) {
  const auto& argv = context.argv;
  std::optional<std::string> signal_name;
  std::size_t first = 1;
  // toybox: -s SIGNAL, or -SIGNAL as the first argument; -l lists.
  if (first < argv.size() && argv[first] == "-l") {
    return fail(context, "kill: -l is not supported by the virtual device", 1);
  }
  if (first < argv.size() && argv[first].starts_with("-s")) {
    signal_name = argv[first].substr(2);
    if (signal_name->empty()) {
      if (first + 1 >= argv.size()) return fail(context, "kill: Missing argument to -s", 1);
      signal_name = argv[++first];
    }
    ++first;
  } else if (first < argv.size() && argv[first].size() > 1 && argv[first][0] == '-') {
    signal_name = argv[first++].substr(1);
  }
  int signal = kSignalTerminate;
  if (signal_name) {
    const auto number = signal_number(*signal_name);
    if (!number) return fail(context, "kill: Unknown signal '" + *signal_name + "'", 1);
    signal = *number;
  }
  if (first >= argv.size()) return fail(context, "kill: missing argument", 1);
  int status = 0;
  for (std::size_t i = first; i < argv.size(); ++i) {
    const auto pid = parse_pid(argv[i]);
    if (!pid || !context.system.processes().signal(*pid, signal)) {
      context.output.err("kill: unknown pid '" + argv[i] + "'\n");
      status = 1;
    }
  }
  return {status, nullptr};
}

}  // namespace clawperator::vdevice::android
