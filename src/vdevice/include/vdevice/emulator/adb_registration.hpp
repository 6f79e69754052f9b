// How an emulator tells the adb server it has started: one smart-socket request,
// "host:emulator:<adb port>" (four hex digits of length, then the text), on a connection the
// server answers nothing to. The server then connects to the adb port itself and lists the
// device as emulator-<adb port - 1> (docs/vdevice.md, "Emulator mode").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::vdevice::emulator {

// The request's bytes, e.g. "0012host:emulator:5555".
std::string emulator_registration_request(std::uint16_t adb_port);

// Sends the request to the adb server on 127.0.0.1:server_port. An error names what failed
// (no server listening is the common one, and not fatal for the emulator).
Expected<void, Problem> register_with_adb_server(std::uint16_t server_port, std::uint16_t adb_port);

// The adb server's port: the flag, else ANDROID_ADB_SERVER_PORT (`environment`, null when
// unset), else 5037. An error when the variable is not a number in 1..65535.
Expected<std::uint16_t, Problem> adb_server_port(std::optional<std::uint16_t> flag,
                                                 const char* environment);

}  // namespace clawperator::vdevice::emulator
