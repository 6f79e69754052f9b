#include "clawperator/cli/help_text.hpp"

#include <CLI/CLI.hpp>

namespace clawperator::cli {

std::shared_ptr<CLI::Formatter> make_help_formatter() {
  auto formatter = std::make_shared<CLI::Formatter>();
  formatter->column_width(34);
  return formatter;
}

std::string_view help_footer() {
  return R"(Output:
  stdout carries exactly one JSON document (compact; --output pretty indents it).
  Diagnostics go to stderr, and every failure prints one line there: clawperator: CODE: message.
  Branch on "code", "disposition" and "details", never on "message".

Exit codes:
  0    success; for checks, the check passed
  1    the device answered and reported a failure; a check failed
  2    usage or validation error; nothing was sent
  3    host, device or Operator not ready, or the device is busy; nothing was sent
  4    outcome unknown: the request may have taken effect and no valid result came back
  70   internal error (a bug); still a JSON error object with code INTERNAL_ERROR
  130  interrupted by SIGINT; 143 terminated by SIGTERM

Environment:
  ANDROID_SERIAL  the device, as --device
  CLAWPERATOR_OPERATOR_PACKAGE  the Operator's package, as --operator-package
  ADB  the adb executable, as --adb
  ADB_PATH  the adb executable when ADB is unset
  CLAWPERATOR_LOG_LEVEL  debug, info, warn or error, as --log-level
  CLAWPERATOR_LOG_DIR  the log directory (default ~/.clawperator/logs)
  CLAWPERATOR_STATE_DIR  the private directory of device locks and readiness records
  CLAWPERATOR_RESULT_TRANSPORT  logcat, direct or auto, as --result-transport
  CLAWPERATOR_ADB_RELAY  off: the logcat reader talks to the adb server directly, not through
      the in-process relay that avoids its 40 ms delayed ACKs (docs/wire-protocol.md §6.3)
  CLAWPERATOR_SERVE_TOKEN  serve: the bearer token, as --token
  ADB_SERVER_SOCKET  the adb server (tcp:HOST:PORT), as adb reads it; --adb-server overrides
  ANDROID_ADB_SERVER_ADDRESS  the adb server's host, as adb reads it
  ANDROID_ADB_SERVER_PORT  the adb server's port, as adb reads it
  XDG_RUNTIME_DIR  the state directory's parent
  TMPDIR  the state directory's parent when XDG_RUNTIME_DIR is unset (else /tmp)
  XDG_STATE_HOME  the fallback state directory's parent (else ~/.local/state)
  HOME  what ~ means (else the home of the passwd entry)

Files:
  ~/.clawperator/logs/  one log file a day (clawperator logs); the payload is never logged
  $XDG_RUNTIME_DIR/clawperator/  the state directory (else $TMPDIR/clawperator-UID), mode
      0700: device-*.lock (one execution per device), ready-device-*.lock (30 s readiness)
  $XDG_STATE_HOME/clawperator/  the fallback when the state directory is unsafe

Examples:
  clawperator devices
  clawperator snapshot --compact
  clawperator click --text "Network & internet" --timeout 10000
  clawperator exec examples/demo-snapshot-click.json
  clawperator-vdevice with -- clawperator doctor

Run 'clawperator errors' for the catalog of error codes.
)";
}

}  // namespace clawperator::cli
