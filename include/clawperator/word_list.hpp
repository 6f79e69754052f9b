// The '|'-separated word lists the subcommand families use to say which subcommands take a flag
// ("start|stop|pull"): the same text as their usage lines.
#pragma once

#include <algorithm>
#include <string_view>

namespace clawperator {

// Whether `word` is one of the '|'-separated words of `list`.
constexpr bool listed_in(std::string_view list, std::string_view word) noexcept {
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find('|', start), list.size());
    if (list.substr(start, end - start) == word) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace clawperator
