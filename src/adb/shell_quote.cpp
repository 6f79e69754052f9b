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

namespace {

// Everything of the command but the payload's value, which `payload_word` is.
std::string broadcast_with(std::string_view action, std::string_view operator_package,
                           std::string_view payload_word, std::string_view result_session) {
  std::string command = "am broadcast -a ";
  command += quote_for_device_shell(action);
  command += " -p ";
  command += quote_for_device_shell(operator_package);
  command += " --es 'payload' ";
  command += payload_word;
  if (!result_session.empty()) {
    command += " --es 'result_session' ";
    command += quote_for_device_shell(result_session);
  }
  command += " --receiver-foreground";
  return command;
}

}  // namespace

std::string broadcast_command(std::string_view operator_package, std::string_view payload_json,
                              std::string_view result_session) {
  return broadcast_with(kAgentCommandAction, operator_package, quote_for_device_shell(payload_json),
                        result_session);
}

std::string prepare_result_connection_command(std::string_view operator_package,
                                              std::string_view request_json) {
  return broadcast_with(kPrepareResultConnectionAction, operator_package,
                        quote_for_device_shell(request_json), {});
}

std::string redacted_broadcast_command(std::string_view operator_package,
                                       std::string_view result_session) {
  return broadcast_command(operator_package, "[REDACTED]", result_session);
}

std::string file_broadcast_command(std::string_view operator_package, std::string_view device_path,
                                   std::string_view result_session) {
  const std::string path = quote_for_device_shell(device_path);
  return broadcast_with(kAgentCommandAction, operator_package, "\"$(cat " + path + ")\"",
                        result_session) +
         "; s=$?; rm -f " + path + "; exit $s";
}

}  // namespace clawperator::adb
