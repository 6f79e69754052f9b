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
  ANDROID_SERIAL, CLAWPERATOR_OPERATOR_PACKAGE, ADB, ADB_PATH, CLAWPERATOR_LOG_DIR,
  CLAWPERATOR_LOG_LEVEL, CLAWPERATOR_STATE_DIR, CLAWPERATOR_ADB_RELAY, ANDROID_ADB_SERVER_PORT,
  ANDROID_ADB_SERVER_ADDRESS, ADB_SERVER_SOCKET

Run 'clawperator errors' for the catalog of error codes.
)";
}

}  // namespace clawperator::cli
