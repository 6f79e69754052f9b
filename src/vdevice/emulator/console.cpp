// The texts are the emulator's own (android/console.cpp in the emulator's sources): adb's
// `emu` prints what follows the second "OK\r\n" it reads, and Android Studio matches the
// banner's first line exactly.
#include "vdevice/emulator/console.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

namespace clawperator::vdevice::emulator {
namespace {

constexpr std::size_t kMaxLine = 4095;  // the emulator's buffer; a longer line starts over

constexpr const char* kUnknown = "KO: unknown command, try 'help'\r\n";
constexpr const char* kHelpPrompt = "Android Console: type 'help' for a list of commands\r\n";

struct CommandRow {
  const char* names;  // as `help` lists them
  const char* abstract;
  bool before_auth;  // usable before `auth`
};

constexpr std::array<CommandRow, 7> kCommands = {{
    {"help|h|?", "print a list of commands", true},
    {"help-verbose", "print a list of commands with descriptions", true},
    {"ping", "check if the emulator is alive", true},
    {"kill", "kill the emulator instance", false},
    {"quit|exit", "quit control session", true},
    {"avd", "control virtual device execution", true},
    {"auth", "user authentication for the emulator console", true},
}};

// The row whose names (split at '|') include `word`, if it may run now.
const CommandRow* find_row(const std::string& word, bool authenticated) {
  for (const CommandRow& row : kCommands) {
    // After authentication the emulator's command table has no `auth` any more.
    const bool usable = authenticated ? std::string_view(row.names) != "auth" : row.before_auth;
    if (!usable) continue;
    std::string_view names = row.names;
    while (!names.empty()) {
      const std::size_t bar = names.find('|');
      if (names.substr(0, bar) == word) return &row;
      names = bar == std::string_view::npos ? std::string_view() : names.substr(bar + 1);
    }
  }
  return nullptr;
}

std::string command_list(bool authenticated, bool verbose) {
  std::string out =
      verbose ? "Android console command help:\r\n\r\n" : "Android console commands:\r\n";
  for (const CommandRow& row : kCommands) {
    if (!(authenticated ? std::string_view(row.names) != "auth" : row.before_auth)) continue;
    if (verbose) {
      std::string name = row.names;
      name.resize(std::max<std::size_t>(name.size(), 15), ' ');
      out += "    " + name + "  " + row.abstract + "\r\n";
    } else {
      out += std::string("    ") + row.names + "\r\n";
    }
  }
  out += verbose ? "\r\ntry 'help <command>' for command-specific help\r\n"
                 : "\r\nTry 'help-verbose' for more description\r\n"
                   "Try 'help <command>' for command-specific help\r\n";
  return out + "OK\r\n";
}

}  // namespace

std::string ConsoleSession::greeting() {
  switch (config_.auth) {
    case ConsoleAuth::Required:
      return "Android Console: Authentication required\r\n"
             "Android Console: type 'auth <auth_token>' to authenticate\r\n"
             "Android Console: you can find your <auth_token> in \r\n'" +
             config_.token_path + "'\r\nOK\r\n";
    case ConsoleAuth::Disabled:
      authenticated_ = true;
      return std::string(kHelpPrompt) + "OK\r\n";
    case ConsoleAuth::Unavailable:
      finished_ = true;
      return {};
  }
  return {};
}

std::string ConsoleSession::on_bytes(std::string_view bytes) {
  std::string out;
  for (const char c : bytes) {
    if (finished_) break;
    if (c == '\r') continue;
    if (c != '\n') {
      if (line_.size() >= kMaxLine) line_.clear();
      line_.push_back(c);
      continue;
    }
    out += run_line(line_);
    line_.clear();
  }
  return out;
}

std::string ConsoleSession::run_line(const std::string& line) {
  const std::size_t space = line.find(' ');
  const std::string word = line.substr(0, space);
  std::string args;
  if (space != std::string::npos) {
    const std::size_t start = line.find_first_not_of(' ', space);
    if (start != std::string::npos) args = line.substr(start);
  }
  const CommandRow* row = find_row(word, authenticated_);
  if (row == nullptr) return kUnknown;
  const std::string_view name = row->names;
  if (name == "quit|exit") {
    finished_ = true;
    return {};
  }
  if (name == "help|h|?") return command_list(authenticated_, false);
  if (name == "help-verbose") return command_list(authenticated_, true);
  if (name == "ping") return "I am alive!\r\nOK\r\n";
  if (name == "avd") {
    if (args.empty()) return "KO: missing sub-command\r\n";
    if (args.substr(0, args.find(' ')) != "name") return "KO:  bad sub-command\r\n";
    return config_.avd_name + "\r\nOK\r\n";
  }
  if (name == "auth") {
    if (args.empty()) return "KO: missing authentication token\r\n";
    if (args != config_.token) {
      return "KO: authentication token does not match ~/.emulator_console_auth_token\r\n";
    }
    authenticated_ = true;
    return std::string(kHelpPrompt) + "OK\r\n";
  }
  // kill: the emulator writes its farewell, then the command's OK, then exits.
  kill_requested_ = true;
  return "OK: killing emulator, bye bye\r\nOK\r\n";
}

}  // namespace clawperator::vdevice::emulator
