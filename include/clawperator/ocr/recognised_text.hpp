// Text recognised on a screenshot (issue 51, OCR-backed targeting): the words an OCR engine
// read, with their boxes and confidences, grouped into lines; a phrase found among them the way
// the node matchers find text (contract/matcher_text.hpp: each character case folded; here also
// runs of white space as one, since an engine reports words, not spaces), across the words of
// one line; and, when none is, the recognised phrases nearest to it, as NODE_NOT_FOUND offers
// near matches (hierarchy/near_match.hpp). Pure: no engine, no image.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/hierarchy/tree.hpp"

namespace clawperator::ocr {

// In screen pixels, right and bottom exclusive: the one rectangle of the screen, a node's
// (hierarchy/tree.hpp), so that a recognised phrase and the node under it compare directly.
using Box = hierarchy::Bounds;
// The smallest box holding both.
Box united(const Box& a, const Box& b) noexcept;

struct Word {
  std::string text;  // UTF-8, no white space
  Box box;
  double confidence = 0;  // 0..100, the engine's
  std::size_t line = 0;   // the text line it belongs to, numbered in reading order
};

struct Line {
  std::string text;  // its words joined by one space
  Box box;
  double confidence = 0;  // its least confident word's
  std::vector<Word> words;
};

// The words grouped by `line`, in the order the lines and words came; empty words dropped.
std::vector<Line> group_lines(const std::vector<Word>& words);

enum class PhraseMode {
  Equals,    // a run of whole words of one line reads as the phrase
  Contains,  // the phrase occurs in one line's text, within words or across them
};

struct PhraseMatch {
  std::string text;       // what the words read (as recognised, not folded)
  Box box;                // the words' boxes united
  double confidence = 0;  // the least confident word's
  std::size_t line = 0;   // the index into the lines searched
};

// Every place the phrase is read, line by line, left to right; Equals never matches a run
// twice, Contains reports each line once per distinct run of words. A blank phrase matches
// nothing.
std::vector<PhraseMatch> find_phrase(const std::vector<Line>& lines, std::string_view phrase,
                                     PhraseMode mode);

// Up to `limit` recognised phrases close to `phrase` (case, spacing, a few character edits,
// one holding the other: hierarchy::closeness), closest first: each line, and each run of as
// many words as the phrase has (one fewer, one more), once each.
std::vector<std::string> nearest_phrases(const std::vector<Line>& lines, std::string_view phrase,
                                         std::size_t limit = 5);

}  // namespace clawperator::ocr
