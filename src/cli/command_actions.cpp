// The device-interaction commands (docs/payload.md §7): each
// builds a one-step execution from its flags and sends it through exec.
#include "command_actions_support.hpp"

namespace clawperator::cli {

void register_action_commands(CommandLine root, std::vector<Command>& commands) {
  actions::register_observe_commands(root, commands);
  actions::register_element_commands(root, commands);
  actions::register_navigation_commands(root, commands);
  actions::register_service_commands(root, commands);
  actions::register_gesture_commands(root, commands);
}

}  // namespace clawperator::cli
