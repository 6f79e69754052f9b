// Tesseract on real glyphs (src/ocr/tesseract_engine.cpp): a shop screen drawn by a real
// headless Chromium with the system's fonts, read back, and the phrases found where they were
// drawn. Skips without Chromium (scripts/install-deps.sh --browser).
#include "clawperator/ocr/engine.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>

#include "clawperator/image/png_scale.hpp"
#include "headless_chromium.hpp"
#include "skip.hpp"
#include "vdevice/android/ui/screenshot.hpp"

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

// The virtual device's look (src/vdevice/android/ui/screenshot.cpp): each node outlined close
// around its text, the ones that can be tapped in the accent colour; and a dark bar and a
// filled button with light text on them.
constexpr const char* kOutlinedHtml = R"(<!doctype html><html><body style="margin:0;
background:#f5f5f5;font-family:Roboto,'DejaVu Sans',sans-serif;font-size:42px">
<div style="position:absolute;left:0;top:0;width:1080px;height:160px;background:#202124;
color:#e8eaed"><span style="position:absolute;left:40px;top:50px">Coffee beans</span></div>
<div style="position:absolute;left:0;top:400px;width:534px;height:174px;border:3px solid #1a73e8;
color:#1a73e8"><span style="position:absolute;left:24px;top:60px">Details</span></div>
<div style="position:absolute;left:540px;top:400px;width:534px;height:174px;
border:3px solid #1a73e8;color:#1a73e8"><span style="position:absolute;left:24px;top:60px">Details</span></div>
<div style="position:absolute;left:40px;top:800px;width:440px;height:130px;background:#1a73e8;
color:#fff;border-radius:12px"><span style="position:absolute;left:100px;top:40px">Buy now</span></div>
</body></html>)";

// Where a tap on the phrase would land: its box's centre.
bool lands_in(const PhraseMatch& match, const Box& target) {
  return target.holds((match.box.left + match.box.right) / 2.0,
                      (match.box.top + match.box.bottom) / 2.0);
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

TEST_CASE("ocr: text inside outlines, on a dark bar and on a filled button is read",
          "[ocr][chromium][may-skip]") {
  const auto png = clawperator::testing::screenshot_of_html(kOutlinedHtml, 1080, 2400);
  if (!png) SKIP_TEST("no headless Chromium at /usr/bin/chromium to draw the screen");
  const auto words = recognise_png(*png);
  REQUIRE(words);
  const std::vector<Line> lines = group_lines(*words);
  for (const Line& line : lines) INFO(line.text);
  const auto details = find_phrase(lines, "Details", PhraseMode::Equals);
  REQUIRE(details.size() == 2);
  CHECK(lands_in(details[0], Box{0, 400, 540, 580}));
  CHECK(lands_in(details[1], Box{540, 400, 1080, 580}));
  const auto title = find_phrase(lines, "Coffee beans", PhraseMode::Equals);
  REQUIRE(title.size() == 1);
  CHECK(lands_in(title[0], Box{0, 0, 1080, 160}));
  const auto buy = find_phrase(lines, "Buy now", PhraseMode::Equals);
  REQUIRE(buy.size() == 1);
  CHECK(lands_in(buy[0], Box{40, 800, 480, 930}));
}

TEST_CASE("ocr: the virtual device's screen, each node outlined around its text, is read",
          "[ocr]") {
  namespace android = clawperator::vdevice::android;
  // The shop of examples/scenarios/drawn-text.json, laid out as the device lays it out: the
  // two "Details" side by side, outlined in the accent colour.
  struct Drawn {
    android::Bounds bounds;
    const char* text;
    bool clickable;
  };
  const std::vector<Drawn> drawn = {{{0, 80, 1080, 240}, "Coffee beans", false},
                                    {{0, 400, 1080, 580}, "Buy now", true},
                                    {{0, 580, 1080, 760}, "Add to cart", true},
                                    {{0, 760, 540, 940}, "Details", true},
                                    {{540, 760, 1080, 940}, "Details", true},
                                    {{0, 940, 1080, 988}, "Free delivery over 30 EUR", false}};
  android::NodeSpec root_spec;
  std::vector<android::NodeSpec> specs(drawn.size());
  android::VisibleTree tree;
  tree.root.spec = &root_spec;
  tree.root.bounds = {0, 0, 1080, 2400};
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    specs[i].drawn_text = drawn[i].text;
    specs[i].clickable = drawn[i].clickable;
    android::VisibleNode node;
    node.spec = &specs[i];
    node.bounds = drawn[i].bounds;
    tree.root.children.push_back(node);
  }
  const std::string png = android::render_screenshot(tree, android::DisplaySpec{}, true);
  const auto words = recognise_png(png);
  REQUIRE(words);
  const std::vector<Line> lines = group_lines(*words);
  for (const Line& line : lines) INFO(line.text);
  const auto box_of = [](const android::Bounds& bounds) {
    return Box{bounds.left, bounds.top, bounds.right, bounds.bottom};
  };
  const auto details = find_phrase(lines, "Details", PhraseMode::Equals);
  REQUIRE(details.size() == 2);
  CHECK(lands_in(details[0], box_of(drawn[3].bounds)));
  CHECK(lands_in(details[1], box_of(drawn[4].bounds)));
  for (const std::size_t once : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
    INFO(drawn[once].text);
    const auto found = find_phrase(lines, drawn[once].text, PhraseMode::Equals);
    REQUIRE(found.size() == 1);
    CHECK(lands_in(found[0], box_of(drawn[once].bounds)));
  }
}

TEST_CASE("ocr: a screen read scaled down gives the boxes it gives read at full size",
          "[ocr][chromium][may-skip]") {
  const auto png = clawperator::testing::screenshot_of_html(kShopHtml, 1080, 2400);
  if (!png) SKIP_TEST("no headless Chromium at /usr/bin/chromium to draw the screen");
  RecogniseOptions full_size;
  full_size.downscale_short_side_to = 0;
  RecogniseOptions scaled;
  scaled.downscale_short_side_to = 540;  // half the screen's pixels a side
  const auto full_words = recognise_png(*png, full_size);
  const auto scaled_words = recognise_png(*png, scaled);
  REQUIRE(full_words);
  REQUIRE(scaled_words);
  const std::vector<Line> full_lines = group_lines(*full_words);
  const std::vector<Line> scaled_lines = group_lines(*scaled_words);
  for (const char* phrase : {"Your basket", "Buy now", "Add to cart", "Free delivery over"}) {
    INFO(phrase);
    const auto at_full_size = find_phrase(full_lines, phrase, PhraseMode::Contains);
    const auto at_half_size = find_phrase(scaled_lines, phrase, PhraseMode::Contains);
    REQUIRE(at_full_size.size() == 1);
    REQUIRE(at_half_size.size() == 1);
    // One pixel read is two of the screen's; the engine's boxes are a pixel or two loose.
    const Box& full = at_full_size[0].box;
    const Box& half = at_half_size[0].box;
    CHECK(std::abs(full.left - half.left) <= 6);
    CHECK(std::abs(full.top - half.top) <= 6);
    CHECK(std::abs(full.right - half.right) <= 6);
    CHECK(std::abs(full.bottom - half.bottom) <= 6);
  }
}

TEST_CASE("ocr: the same screenshot with the same options is read once", "[ocr]") {
  clawperator::image::RgbaImage blank;
  blank.size = {64, 48};
  blank.pixels.assign(64 * 48 * 4, 255);
  const auto png = clawperator::image::encode_png(blank);
  REQUIRE(png);
  const RecognitionCounts before = recognition_counts();
  const auto first = recognise_png(*png);
  REQUIRE(first);
  const auto again = recognise_png(*png);
  REQUIRE(again);
  CHECK(again->size() == first->size());
  RecogniseOptions part;
  part.region = Box{0, 0, 32, 48};
  REQUIRE(recognise_png(*png, part));
  REQUIRE(recognise_png(*png, part));
  const RecognitionCounts after = recognition_counts();
  // The whole image and its left half: two recognitions; each asked again: two answers kept.
  CHECK(after.recognised - before.recognised == 2);
  CHECK(after.answered_from_cache - before.answered_from_cache == 2);
}

TEST_CASE("ocr: a screenshot searched again returns the words it read the first time",
          "[ocr][chromium][may-skip]") {
  const auto png = clawperator::testing::screenshot_of_html(kShopHtml, 720, 1280);
  if (!png) SKIP_TEST("no headless Chromium at /usr/bin/chromium to draw the screen");
  const RecognitionCounts before = recognition_counts();
  const auto first = recognise_png(*png);
  const auto again = recognise_png(*png);
  REQUIRE(first);
  REQUIRE(again);
  REQUIRE(again->size() == first->size());
  REQUIRE_FALSE(first->empty());
  for (std::size_t i = 0; i < first->size(); ++i) {
    CHECK((*again)[i].text == (*first)[i].text);
    CHECK((*again)[i].box == (*first)[i].box);
  }
  const RecognitionCounts after = recognition_counts();
  CHECK(after.recognised - before.recognised == 1);
  CHECK(after.answered_from_cache - before.answered_from_cache == 1);
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
