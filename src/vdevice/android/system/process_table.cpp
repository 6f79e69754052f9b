#include "vdevice/android/system/process_table.hpp"

#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {
namespace {

// Linux's signal numbers 1..31 (x86 and ARM agree on these).
constexpr std::array<std::string_view, 31> kSignalNames = {
    "HUP",  "INT",  "QUIT", "ILL",    "TRAP",   "ABRT",  "BUS",  "FPE",  "KILL", "USR1", "SEGV",
    "USR2", "PIPE", "ALRM", "TERM",   "STKFLT", "CHLD",  "CONT", "STOP", "TSTP", "TTIN", "TTOU",
    "URG",  "XCPU", "XFSZ", "VTALRM", "PROF",   "WINCH", "IO",   "PWR",  "SYS"};

}  // namespace

std::optional<int> signal_number(std::string_view name) {
  if (!name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos) {
    if (name.size() > 2) return std::nullopt;
    const int number = std::stoi(std::string(name));
    if (number > static_cast<int>(kSignalNames.size())) return std::nullopt;
    return number;
  }
  std::string upper;
  for (const char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string_view bare = upper;
  if (bare.starts_with("SIG")) bare.remove_prefix(3);
  for (std::size_t i = 0; i < kSignalNames.size(); ++i) {
    if (kSignalNames[i] == bare) return static_cast<int>(i + 1);
  }
  return std::nullopt;
}

void ProcessTable::add(int pid, std::weak_ptr<RunningCommand> command, SignalDelivery deliver) {
  processes_[pid] = Process{std::move(command), std::move(deliver)};
}

void ProcessTable::remove(int pid) {
  processes_.erase(pid);
}

std::vector<int> ProcessTable::pids() const {
  std::vector<int> out;
  for (const auto& entry : processes_) out.push_back(entry.first);
  return out;
}

bool ProcessTable::signal(int pid, int signal) {
  const auto process = processes_.find(pid);
  if (process == processes_.end()) return false;
  if (signal == 0) return true;
  // A copy: delivering may remove the entry.
  const SignalDelivery deliver = process->second.deliver;
  if (deliver) deliver(signal);
  return true;
}

void ProcessTable::hang_up_all() {
  std::vector<std::shared_ptr<RunningCommand>> running;
  for (const auto& entry : processes_) {
    if (auto command = entry.second.command.lock()) running.push_back(std::move(command));
  }
  processes_.clear();
  for (const auto& command : running) command->stop();
}

}  // namespace clawperator::vdevice::android
