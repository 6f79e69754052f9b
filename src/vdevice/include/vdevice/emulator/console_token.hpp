// The console's authentication token: ~/.emulator_console_auth_token, which the emulator
// creates with a random token when it is missing and which `adb emu` reads to send `auth`.
#pragma once

#include <string>

#include "vdevice/emulator/console.hpp"

namespace clawperator::vdevice::emulator {

struct ConsoleToken {
  ConsoleAuth auth = ConsoleAuth::Unavailable;
  std::string token;
  std::string path;
  std::string error;  // with Unavailable: why
};

// Reads $HOME/.emulator_console_auth_token (`home`: HOME's value, null when unset), creating
// it (mode 0600) with a random 16-character token when it does not exist. An empty file turns
// authentication off, as it does for the emulator.
ConsoleToken load_console_token(const char* home);

}  // namespace clawperator::vdevice::emulator
