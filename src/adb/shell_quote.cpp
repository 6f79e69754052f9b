#include "clawperator/adb/shell_quote.hpp"

namespace clawperator::adb {

std::string quote_for_device_shell(std::string_view value) {
  std::string quoted;
  quoted.reserve(value.size() + 2);
  quoted += '\'';
  for (const char c : value) {
    if (c == '\'') {
      quoted += "'\"'\"'";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

std::string broadcast_command(std::string_view operator_package, std::string_view payload_json) {
  std::string command = "am broadcast -a ";
  command += quote_for_device_shell(kAgentCommandAction);
  command += " -p ";
  command += quote_for_device_shell(operator_package);
  command += " --es 'payload' ";
  command += quote_for_device_shell(payload_json);
  command += " --receiver-foreground";
  return command;
}

std::string redacted_broadcast_command(std::string_view operator_package) {
  return broadcast_command(operator_package, "[REDACTED]");
}

}  // namespace clawperator::adb
