// The Android emulator's console (telnet-style, one line per command, CRLF answers) as far as
// `adb emu` and tools that identify an emulator use it: the authentication banner, `auth`,
// `avd name`, `kill`, `ping`, `help`, `quit`/`exit`. One ConsoleSession per connection; it
// only turns bytes into bytes, the socket belongs to the caller (docs/vdevice.md,
// "Emulator mode").
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace clawperator::vdevice::emulator {

enum class ConsoleAuth {
  // A token is set: only help, ping, `avd name`, auth and quit until `auth TOKEN`.
  Required,
  // The token file is empty: every command at once, as the emulator does.
  Disabled,
  // The token file could not be read or created: every connection is closed at once.
  Unavailable,
};

struct ConsoleConfig {
  std::string avd_name;
  ConsoleAuth auth = ConsoleAuth::Required;
  std::string token;       // with Required
  std::string token_path;  // named in the banner
};

class ConsoleSession {
 public:
  explicit ConsoleSession(const ConsoleConfig& config) : config_(config) {}

  // What the console sends on accept; empty with Unavailable (then close at once).
  std::string greeting();
  // Feeds what the client sent; returns the answers. Lines end at '\n' ('\r' is dropped).
  std::string on_bytes(std::string_view bytes);

  // quit or exit was read: the caller closes the connection after writing the answers.
  bool finished() const noexcept { return finished_; }
  // An authenticated `kill` was read since the last call (the answer already says so).
  bool take_kill_request() noexcept { return std::exchange(kill_requested_, false); }

 private:
  std::string run_line(const std::string& line);

  const ConsoleConfig& config_;
  std::string line_;
  bool authenticated_ = false;
  bool finished_ = false;
  bool kill_requested_ = false;
};

}  // namespace clawperator::vdevice::emulator
