// The words a command family takes first (`operator setup`, `skills run`, `evidence verify`) and
// what some of them take next (`evidence video start`, `evidence verify DIR`): one table that
// the commands check their words against, their usage lines print, and the shell completions
// (tools/generate_cli_docs.cpp) offer.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/path_values.hpp"
#include "clawperator/word_list.hpp"

namespace clawperator::cli {

struct FamilyWords {
  std::string_view command;
  std::string_view words;  // '|'-separated, in the order the usage line gives them
};

inline constexpr FamilyWords kFamilyWords[] = {
    {"operator", "setup|install"},
    {"packages", "list"},
    {"notifications", "list|dismiss|action"},
    {"media", "list|status|observe|play|pause|seek"},
    {"on-screen-log", "set|clear"},
    {"skills", "list|get|search|compile-artifact|init|new|validate|run|install|update|sync"},
    {"recording", "start|stop|pull|parse|compile|replay|export|compare"},
    {"emulator", "list|inspect|create|start|stop|delete|status|provision"},
    {"evidence", "capture|verify|video"},
    {"webview", "list|query|click|type|eval|wait|screenshot"},
};

struct FollowingWords {
  std::string_view command;
  std::string_view action;
  // '|'-separated words, or kFileValue / kDirectoryValue for a path.
  std::string_view next;
};

inline constexpr FollowingWords kFollowingWords[] = {
    {"evidence", "video", "start|status|stop|recover"},
    {"evidence", "verify", kDirectoryValue},
    {"skills", "init", kDirectoryValue},
};

// The family's words, '|'-separated; empty for a command that takes no action word.
constexpr std::string_view action_word_list(std::string_view command) noexcept {
  for (const FamilyWords& family : kFamilyWords) {
    if (family.command == command) return family.words;
  }
  return {};
}

// What follows `command action`; empty when nothing in particular does.
constexpr std::string_view following_word_list(std::string_view command,
                                               std::string_view action) noexcept {
  for (const FollowingWords& row : kFollowingWords) {
    if (row.command == command && row.action == action) return row.next;
  }
  return {};
}

inline std::vector<std::string_view> split_word_list(std::string_view list) {
  std::vector<std::string_view> words;
  std::size_t start = 0;
  while (!list.empty() && start <= list.size()) {
    const std::size_t end = std::min(list.find('|', start), list.size());
    words.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

inline std::vector<std::string_view> action_words(std::string_view command) {
  return split_word_list(action_word_list(command));
}

inline bool is_action_word(std::string_view command, std::string_view word) {
  const std::string_view list = action_word_list(command);
  return !list.empty() && listed_in(list, word);
}

}  // namespace clawperator::cli
