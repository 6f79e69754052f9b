// What was recognised on a screen, and a phrase found in it as the node matchers find text
// (src/ocr/recognised_text.cpp): across words of one line, case folded per character, each run
// of whole words once; the nearest phrases when none reads as it.
#include "clawperator/ocr/recognised_text.hpp"

#include <catch2/catch.hpp>

using namespace clawperator::ocr;

namespace {

// A word of `line` at x = left (30 px a character, 40 px high rows).
Word word_at(std::string text, std::size_t line, int left, double confidence = 90) {
  const int top = 100 + static_cast<int>(line) * 60;
  const int width = static_cast<int>(text.size()) * 30;
  return Word{std::move(text), Box{left, top, left + width, top + 40}, confidence, line};
}

// A shop screen: two buttons read as one line, a title, a repeated label, a caption.
std::vector<Line> shop_screen() {
  return group_lines({
      word_at("Your", 0, 40),
      word_at("basket", 0, 200),
      word_at("Buy", 1, 40, 95),
      word_at("now", 1, 160, 71),
      word_at("Add", 1, 500),
      word_at("to", 1, 620),
      word_at("cart", 1, 700),
      word_at("Details", 2, 40),
      word_at("Details", 2, 600),
      word_at("", 3, 40),  // the engine's empty word: dropped
      word_at("Free", 3, 40, 55),
      word_at("delivery!", 3, 200, 60),
  });
}

}  // namespace

TEST_CASE("words are grouped into lines in reading order", "[ocr]") {
  const std::vector<Line> lines = shop_screen();
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].text == "Your basket");
  CHECK(lines[1].text == "Buy now Add to cart");
  CHECK(lines[1].box == Box{40, 160, 820, 200});
  CHECK(lines[1].confidence == 71);
  CHECK(lines[3].words.size() == 2);
}

TEST_CASE("a phrase of whole words is found across the words of a line", "[ocr]") {
  const std::vector<Line> lines = shop_screen();
  const auto buy = find_phrase(lines, "buy  NOW", PhraseMode::Equals);
  REQUIRE(buy.size() == 1);
  CHECK(buy[0].text == "Buy now");
  CHECK(buy[0].box == Box{40, 160, 250, 200});  // the two words, not the line
  CHECK(buy[0].confidence == 71);
  CHECK(buy[0].line == 1);
  // Part of a word is no whole word; a phrase spanning two lines is not one.
  CHECK(find_phrase(lines, "Bu", PhraseMode::Equals).empty());
  CHECK(find_phrase(lines, "basket Buy", PhraseMode::Equals).empty());
  // Twice on a line: two matches, each with its own box (the ambiguity a caller must resolve).
  const auto details = find_phrase(lines, "details", PhraseMode::Equals);
  REQUIRE(details.size() == 2);
  CHECK(details[0].box.left == 40);
  CHECK(details[1].box.left == 600);
  CHECK(find_phrase(lines, "   ", PhraseMode::Equals).empty());
}

TEST_CASE("contains finds the phrase inside and across words", "[ocr]") {
  const std::vector<Line> lines = shop_screen();
  const auto inside = find_phrase(lines, "ASK", PhraseMode::Contains);
  REQUIRE(inside.size() == 1);
  CHECK(inside[0].text == "basket");
  const auto across = find_phrase(lines, "w add t", PhraseMode::Contains);
  REQUIRE(across.size() == 1);
  CHECK(across[0].text == "now Add to");
  CHECK(across[0].box == Box{160, 160, 680, 200});
  // Each run of words once, however often the phrase occurs in it.
  CHECK(find_phrase(lines, "e", PhraseMode::Contains).size() == 5);
  CHECK(find_phrase(lines, "delivery", PhraseMode::Contains).front().text == "delivery!");
}

TEST_CASE("case folding is the matchers' own", "[ocr]") {
  // A Kelvin sign folds to k, as in a textContains matcher (contract/matcher_text.hpp).
  const std::vector<Line> lines = group_lines({word_at("\u212aiosk", 0, 0)});
  CHECK(find_phrase(lines, "kiosk", PhraseMode::Equals).size() == 1);
}

TEST_CASE("the nearest recognised phrases are offered when none reads as the phrase", "[ocr]") {
  const std::vector<Line> lines = shop_screen();
  const std::vector<std::string> near = nearest_phrases(lines, "Buy mow");
  REQUIRE_FALSE(near.empty());
  CHECK(near.front() == "Buy now");
  CHECK(nearest_phrases(lines, "Free delivery").front() == "Free delivery!");
  CHECK(nearest_phrases(lines, "Checkout").empty());
  CHECK(nearest_phrases(lines, "Details", 1).size() == 1);
}
