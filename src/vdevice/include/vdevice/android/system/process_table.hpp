// The device's running commands by pid, as `kill` reaches them. The shell enters a command
// that keeps running (screenrecord, a following logcat) under its pid: the shell's own ($$)
// after `exec`, a new one otherwise. A command that ran to completion never needs one.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace clawperator::vdevice::android {

class RunningCommand;

// Linux's numbers, which Android's kill and `$?` (128 + signal) use.
inline constexpr int kSignalHangUp = 1;
inline constexpr int kSignalInterrupt = 2;
inline constexpr int kSignalKill = 9;
inline constexpr int kSignalTerminate = 15;

// "INT", "SIGINT", "int" and "2" → 2 (the names of the signals Linux numbers 1..31); nullopt
// for a name no signal has. 0 is the null signal (whether the process exists).
std::optional<int> signal_number(std::string_view name);

class ProcessTable {
 public:
  // What a signal does to the process: the shell that started it decides, since a command
  // that does not catch the signal ends, and the shell then reports 128 + signal.
  using SignalDelivery = std::function<void(int signal)>;

  void add(int pid, std::weak_ptr<RunningCommand> command, SignalDelivery deliver);
  void remove(int pid);
  bool contains(int pid) const { return processes_.contains(pid); }
  std::vector<int> pids() const;
  // False when no process has the pid (kill's ESRCH). Signal 0 delivers nothing.
  bool signal(int pid, int signal);
  // The device goes away: every running command is told, as a hang-up would tell it, while
  // the system it uses still exists.
  void hang_up_all();

 private:
  struct Process {
    std::weak_ptr<RunningCommand> command;
    SignalDelivery deliver;
  };
  std::map<int, Process> processes_;
};

}  // namespace clawperator::vdevice::android
