#include "clawperator/ocr/recognised_text.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "clawperator/contract/matcher_text.hpp"
#include "clawperator/hierarchy/near_match.hpp"

namespace clawperator::ocr {
namespace {

bool is_space(char32_t c) noexcept {
  return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == U'\u00a0';
}

// `text` case folded, runs of white space as one space, none at either end.
std::u32string folded(std::string_view text) {
  std::u32string out;
  for (const char32_t c : contract::case_folded(text)) {
    if (is_space(c)) {
      if (!out.empty() && out.back() != U' ') out.push_back(U' ');
    } else {
      out.push_back(c);
    }
  }
  if (!out.empty() && out.back() == U' ') out.pop_back();
  return out;
}

std::size_t word_count(const std::u32string& text) {
  return text.empty() ? 0
                      : static_cast<std::size_t>(std::count(text.begin(), text.end(), U' ')) + 1;
}

// The words [first, last] of `line` as one match.
PhraseMatch match_of(const Line& line, std::size_t index, std::size_t first, std::size_t last) {
  PhraseMatch match;
  match.line = index;
  match.box = line.words[first].box;
  match.confidence = line.words[first].confidence;
  for (std::size_t i = first; i <= last; ++i) {
    const Word& word = line.words[i];
    match.text += (i == first ? "" : " ") + word.text;
    match.box = united(match.box, word.box);
    match.confidence = std::min(match.confidence, word.confidence);
  }
  return match;
}

// A line's folded text, and where each word starts and ends in it.
struct FoldedLine {
  std::u32string text;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
};

FoldedLine fold_line(const Line& line) {
  FoldedLine out;
  for (const Word& word : line.words) {
    const std::u32string folded_word = folded(word.text);
    if (!out.text.empty()) out.text.push_back(U' ');
    out.spans.emplace_back(out.text.size(), out.text.size() + folded_word.size());
    out.text += folded_word;
  }
  return out;
}

}  // namespace

Box united(const Box& a, const Box& b) noexcept {
  return Box{std::min(a.left, b.left), std::min(a.top, b.top), std::max(a.right, b.right),
             std::max(a.bottom, b.bottom)};
}

std::vector<Line> group_lines(const std::vector<Word>& words) {
  std::vector<Line> lines;
  std::optional<std::size_t> current;
  for (const Word& word : words) {
    if (folded(word.text).empty()) continue;
    if (!current || *current != word.line) {
      lines.push_back(Line{word.text, word.box, word.confidence, {word}});
      current = word.line;
      continue;
    }
    Line& line = lines.back();
    line.text += " " + word.text;
    line.box = united(line.box, word.box);
    line.confidence = std::min(line.confidence, word.confidence);
    line.words.push_back(word);
  }
  return lines;
}

std::vector<PhraseMatch> find_phrase(const std::vector<Line>& lines, std::string_view phrase,
                                     PhraseMode mode) {
  std::vector<PhraseMatch> found;
  const std::u32string wanted = folded(phrase);
  if (wanted.empty()) return found;
  const std::size_t wanted_words = word_count(wanted);
  for (std::size_t index = 0; index < lines.size(); ++index) {
    const Line& line = lines[index];
    const FoldedLine folded_line = fold_line(line);
    if (mode == PhraseMode::Equals) {
      for (std::size_t first = 0; first + wanted_words <= line.words.size();) {
        const std::size_t last = first + wanted_words - 1;
        const auto [begin, unused_end] = folded_line.spans[first];
        const std::size_t end = folded_line.spans[last].second;
        if (folded_line.text.compare(begin, end - begin, wanted) == 0) {
          found.push_back(match_of(line, index, first, last));
          first = last + 1;  // never the same words twice
        } else {
          ++first;
        }
      }
      continue;
    }
    std::optional<std::pair<std::size_t, std::size_t>> previous;
    for (std::size_t at = folded_line.text.find(wanted); at != std::u32string::npos;
         at = folded_line.text.find(wanted, at + 1)) {
      const std::size_t end = at + wanted.size();
      std::size_t first = 0;
      while (folded_line.spans[first].second <= at) ++first;
      std::size_t last = first;
      while (last + 1 < line.words.size() && folded_line.spans[last + 1].first < end) ++last;
      if (previous && previous->first == first && previous->second == last) continue;
      previous = std::pair{first, last};
      found.push_back(match_of(line, index, first, last));
    }
  }
  return found;
}

std::vector<std::string> nearest_phrases(const std::vector<Line>& lines, std::string_view phrase,
                                         std::size_t limit) {
  struct Candidate {
    std::string text;
    hierarchy::Closeness closeness;
    std::size_t edits;
    std::size_t order;
  };
  std::vector<Candidate> candidates;
  const std::size_t wanted_words = word_count(folded(phrase));
  if (wanted_words == 0) return {};
  const auto consider = [&](std::string text) {
    if (std::any_of(candidates.begin(), candidates.end(),
                    [&](const Candidate& seen) { return seen.text == text; })) {
      return;
    }
    std::size_t edits = 0;
    if (const auto close = hierarchy::closeness(phrase, text, edits)) {
      candidates.push_back({std::move(text), *close, edits, candidates.size()});
    }
  };
  for (const Line& line : lines) {
    consider(line.text);
    for (std::size_t length = std::max<std::size_t>(1, wanted_words - 1);
         length <= wanted_words + 1; ++length) {
      for (std::size_t first = 0; first + length <= line.words.size(); ++first) {
        consider(match_of(line, 0, first, first + length - 1).text);
      }
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    if (a.closeness != b.closeness) return a.closeness < b.closeness;
    if (a.edits != b.edits) return a.edits < b.edits;
    return a.order < b.order;
  });
  std::vector<std::string> nearest;
  for (const Candidate& candidate : candidates) {
    if (nearest.size() == limit) break;
    nearest.push_back(candidate.text);
  }
  return nearest;
}

}  // namespace clawperator::ocr
