#include "clawperator/suggest.hpp"

#include <algorithm>
#include <vector>

namespace clawperator {

namespace {

// Levenshtein's distance with one row of the table.
template <typename Text>
std::size_t levenshtein(Text a, Text b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  return levenshtein(a, b);
}

std::size_t edit_distance(std::u32string_view a, std::u32string_view b) {
  return levenshtein(a, b);
}

std::optional<std::string> suggest_command(std::string_view typed,
                                           std::span<const std::string> candidates) {
  const std::size_t limit = std::max<std::size_t>(2, typed.size() / 2);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(typed, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

std::optional<std::string> suggest_flag(std::string_view typed,
                                        std::span<const std::string> candidates) {
  std::optional<std::string> best;
  double best_similarity = 0.75;
  for (const std::string& candidate : candidates) {
    const double longest = static_cast<double>(std::max(typed.size(), candidate.size()));
    if (longest == 0) continue;
    const double similarity = 1.0 - static_cast<double>(edit_distance(typed, candidate)) / longest;
    if (similarity > best_similarity) {
      best_similarity = similarity;
      best = candidate;
    }
  }
  return best;
}

}  // namespace clawperator
