// The device's commands (getprop, pm, am, logcat, …) as the shell runs them: argv in, bytes
// and an exit status out — or, for a command that keeps running (a following logcat), a
// handle whose status arrives later.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vdevice/android/system/android_system.hpp"

namespace clawperator::vdevice::android {

class CommandOutput {
 public:
  virtual ~CommandOutput() = default;
  virtual void out(std::string_view bytes) = 0;
  virtual void err(std::string_view bytes) = 0;
};

// The stream's standard input as commands see it: the bytes the host sent that no command
// has read yet.
class CommandInput {
 public:
  virtual ~CommandInput() = default;
  // Takes up to `max` of the unread bytes (possibly none).
  virtual std::string read_input(std::size_t max) = 0;
  // No byte will come after the unread ones (shell v2 close-stdin).
  virtual bool input_ended() const = 0;
};

// A command still running after it returned.
class RunningCommand {
 public:
  virtual ~RunningCommand() = default;
  // The shell lets go of it (host gone, interrupted): it must not write any more, even if
  // something still holds it for a moment.
  virtual void stop() {}
  // Stdin received bytes or ended while the command runs.
  virtual void input_changed() {}
  // A signal from `kill` or an interactive Ctrl-C (SIGINT). True: the command catches it and
  // reports its status through finish (screenrecord finishes its file on SIGINT). False: it
  // dies of it, as an uncaught signal kills a process, and the shell reports 128 + signal.
  virtual bool on_signal(int /*signal*/) { return false; }
};

struct CommandContext {
  AndroidSystem& system;
  std::vector<std::string> argv;
  const std::map<std::string, std::string>& environment;
  CommandOutput& output;
  // For a running command: reports its exit status later. Safe to call at any time; the
  // shell resumes from the event loop.
  std::function<void(int)> finish;
  // Valid as long as output is: a running command may keep it.
  CommandInput& input;
  // The process the command runs as: the shell's own pid after `exec`.
  int pid = 0;
};

struct CommandResult {
  int status = 0;
  std::shared_ptr<RunningCommand> running;  // set: the status comes later through finish
};

using CommandHandler = CommandResult (*)(CommandContext&);

// An error as the device's commands report one: the message and a newline on stderr.
CommandResult fail(CommandContext& context, const std::string& message, int status);
// A Java exception escaping a system service's shell command (`pm`, `cmd package`, …):
// what the device prints on stderr, with exit status 255.
CommandResult java_exception(CommandContext& context, const std::string& verb,
                             std::string_view type, const std::string& message);

// `text` on stdout, then status 0, `delay` from now (a command a scenario makes answer late:
// screencap, `pm list packages`); one the shell stopped meanwhile writes nothing.
CommandResult answer_later(CommandContext& context, std::string text,
                           std::chrono::milliseconds delay);

// nullptr for a name the device does not have. `/system/bin/NAME` finds NAME too.
CommandHandler find_command(std::string_view name);

// The individual commands (one file each for the larger ones).
CommandResult run_getprop(CommandContext& context);
CommandResult run_settings(CommandContext& context);
CommandResult run_wm(CommandContext& context);
CommandResult run_input(CommandContext& context);
CommandResult run_cmd(CommandContext& context);
CommandResult run_screencap(CommandContext& context);
CommandResult run_pm(CommandContext& context);
// `pm install` / `pm uninstall` (and `cmd package …`): argv[1] is the verb.
CommandResult run_pm_install(CommandContext& context);
CommandResult run_pm_uninstall(CommandContext& context);
CommandResult run_dumpsys(CommandContext& context);
CommandResult run_am(CommandContext& context);
CommandResult run_logcat(CommandContext& context);
// `log [-p PRI] [-t TAG] MESSAGE...` (toybox's): one entry as uid 2000 (log_command.cpp).
CommandResult run_log(CommandContext& context);
// `cat FILE…` and `rm [-f] FILE…` on the device's FileSystem (what adb push leaves there).
CommandResult run_cat(CommandContext& context);
CommandResult run_rm(CommandContext& context);
// toybox's `ps [-A|-e] [-o FIELD,…]`: the system's processes and the running apps
// (AndroidSystem::running_processes) with the columns webview_devtools.hpp renders.
CommandResult run_ps(CommandContext& context);
// `screenrecord [options] FILE`: an H.264 MP4 of the screen (screenrecord_command.cpp).
CommandResult run_screenrecord(CommandContext& context);
// toybox's `kill` (/system/bin/kill); `kill` alone is the shell's builtin, mksh's, whose
// messages differ. Both reach the device's ProcessTable. The builtin returns its status.
CommandResult run_kill(CommandContext& context);
int run_kill_builtin(ProcessTable& processes, const std::vector<std::string>& argv,
                     CommandOutput& output);

}  // namespace clawperator::vdevice::android
