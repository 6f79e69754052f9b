// The words `operator`, `packages`, `notifications`, `media` and `on-screen-log` take first
// (`operator setup`, `packages list`, `media seek`): the
// commands accept exactly these, and the shell completions offer them.
#pragma once

#include <algorithm>
#include <string_view>
#include <vector>

namespace clawperator::cli {

// Empty for a command that takes no action word.
inline std::vector<std::string_view> action_words(std::string_view command) {
  if (command == "operator") return {"setup", "install"};
  if (command == "packages") return {"list"};
  if (command == "notifications") return {"list", "dismiss", "action"};
  if (command == "media") return {"list", "status", "observe", "play", "pause", "seek"};
  if (command == "on-screen-log") return {"set", "clear"};
  return {};
}

inline bool is_action_word(std::string_view command, std::string_view word) {
  const std::vector<std::string_view> words = action_words(command);
  return std::find(words.begin(), words.end(), word) != words.end();
}

}  // namespace clawperator::cli
