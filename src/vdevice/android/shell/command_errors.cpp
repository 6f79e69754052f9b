#include <string>

#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {

CommandResult fail(CommandContext& context, const std::string& message, int status) {
  context.output.err(message + "\n");
  return {status, nullptr};
}

CommandResult java_exception(CommandContext& context, const std::string& verb,
                             std::string_view type, const std::string& message) {
  return fail(
      context,
      "Exception occurred while executing '" + verb + "':\n" + std::string(type) + ": " + message,
      255);
}

}  // namespace clawperator::vdevice::android
