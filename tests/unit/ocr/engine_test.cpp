// Tesseract on real glyphs (src/ocr/tesseract_engine.cpp): a shop screen drawn by a real
// headless Chromium with the system's fonts, read back, and the phrases found where they were
// drawn. Skips without Chromium (scripts/install-deps.sh --browser).
#include "clawperator/ocr/engine.hpp"

#include <catch2/catch.hpp>
#include <chrono>

#include "headless_chromium.hpp"
#include "skip.hpp"

using namespace clawperator::ocr;

namespace {

// Where each label is drawn, in CSS pixels at device scale 1 (the screenshot's pixels).
constexpr const char* kShopHtml = R"(<!doctype html><html><body style="margin:0;background:#f5f5f5;
font-family:Roboto,'DejaVu Sans',sans-serif">
<div style="position:absolute;left:40px;top:120px;font-size:40px">Your basket</div>
<button style="position:absolute;left:40px;top:300px;width:400px;height:120px;font-size:42px">Buy now</button>
<button style="position:absolute;left:560px;top:300px;width:460px;height:120px;font-size:42px">Add to cart</button>
<div style="position:absolute;left:40px;top:600px;font-size:36px">Details</div>
<div style="position:absolute;left:600px;top:600px;font-size:36px">Details</div>
<div style="position:absolute;left:40px;top:2200px;font-size:28px">Free delivery over 20 euros</div>
</body></html>)";

bool holds(const Box& outer, int x, int y) {
  return x >= outer.left && x < outer.right && y >= outer.top && y < outer.bottom;
}

}  // namespace

TEST_CASE("ocr: Tesseract reads a 1080x2400 screen drawn with real fonts",
          "[ocr][chromium][may-skip]") {
  const auto png = clawperator::testing::screenshot_of_html(kShopHtml, 1080, 2400);
  if (!png) SKIP_TEST("no headless Chromium at /usr/bin/chromium to draw the screen");
  const auto started = std::chrono::steady_clock::now();
  const auto words = recognise_png(*png);
  const auto took = std::chrono::steady_clock::now() - started;
  REQUIRE(words);
  const std::vector<Line> lines = group_lines(*words);
  INFO("read in " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms");
  for (const Line& line : lines) INFO(line.text);

  // The button's centre is where the phrase's box is: a tap there lands on it.
  const auto buy = find_phrase(lines, "buy now", PhraseMode::Equals);
  REQUIRE(buy.size() == 1);
  const int x = (buy[0].box.left + buy[0].box.right) / 2;
  const int y = (buy[0].box.top + buy[0].box.bottom) / 2;
  CHECK(holds(Box{40, 300, 440, 420}, x, y));
  CHECK(buy[0].confidence > 60);
  CHECK(find_phrase(lines, "Add to cart", PhraseMode::Equals).size() == 1);
  // Drawn twice: two places, for the caller's ambiguity rule.
  const auto details = find_phrase(lines, "Details", PhraseMode::Equals);
  REQUIRE(details.size() == 2);
  CHECK(details[0].box.left < 300);
  CHECK(details[1].box.left > 500);
  CHECK(find_phrase(lines, "delivery over", PhraseMode::Contains).size() == 1);
  CHECK(find_phrase(lines, "Checkout", PhraseMode::Equals).empty());
  CHECK(nearest_phrases(lines, "Buy mow").front() == "Buy now");

  // A region reads only its part, its boxes still in the screen's coordinates.
  RecogniseOptions top;
  top.region = Box{0, 250, 1080, 450};
  const auto part = recognise_png(*png, top);
  REQUIRE(part);
  const std::vector<Line> part_lines = group_lines(*part);
  const auto buy_again = find_phrase(part_lines, "buy now", PhraseMode::Equals);
  REQUIRE(buy_again.size() == 1);
  CHECK(buy_again[0].box == buy[0].box);
  CHECK(find_phrase(part_lines, "Details", PhraseMode::Equals).empty());
}

TEST_CASE("ocr: what cannot be read is said, by kind", "[ocr]") {
  const auto not_png = recognise_png("GIF89a");
  REQUIRE_FALSE(not_png);
  CHECK(not_png.error().kind == OcrError::Kind::ImageInvalid);
  RecogniseOptions odd;
  odd.language = "../eng";
  const auto bad_name = recognise_png("x", odd);
  REQUIRE_FALSE(bad_name);
  CHECK(bad_name.error().kind == OcrError::Kind::LanguageMissing);
}
