// The font screencap draws text with (src/vdevice/android/ui/font.cpp): anti-aliased glyphs,
// cached, and a clear error for a font file that cannot be loaded.
#include "vdevice/android/ui/font.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <stdexcept>
#include <string>

using namespace clawperator::vdevice::android;

TEST_CASE("the screen's font draws anti-aliased glyphs and caches them", "[vdevice][android]") {
  Font& font = screen_font();
  // 16 sp at 420 dpi (src/vdevice/android/ui/screenshot.cpp).
  const Glyph& b = font.glyph(U'B', 42);
  CHECK(b.width > 10);
  CHECK(b.rows > 20);
  CHECK(b.advance > b.width / 2);
  CHECK(b.coverage.size() == static_cast<std::size_t>(b.width * b.rows));
  // Edges in between ink and background: many levels, not a bilevel bitmap.
  const std::set<std::uint8_t> levels(b.coverage.begin(), b.coverage.end());
  CHECK(levels.count(0) == 1);
  CHECK(levels.size() > 16);
  // The cache: the same glyph, not a second rasterisation; another size, another glyph.
  CHECK(&font.glyph(U'B', 42) == &b);
  CHECK(font.glyph(U'B', 58).rows > b.rows);
  const LineMetrics line = font.metrics(42);
  CHECK(line.ascent > b.top - 1);
  CHECK(line.descent > 0);
  // A space has an advance and no ink.
  const Glyph& space = font.glyph(U' ', 42);
  CHECK(space.advance > 0);
  CHECK(space.coverage.empty());
}

TEST_CASE("a font file that cannot be loaded is named, with what to do", "[vdevice][android]") {
  try {
    Font font("/nonexistent/Missing-Regular.ttf");
    FAIL("loaded a font that does not exist");
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    CHECK(message.find("/nonexistent/Missing-Regular.ttf") != std::string::npos);
    CHECK(message.find("CLAWPERATOR_VDEVICE_FONT") != std::string::npos);
    CHECK(message.find("fonts-roboto-unhinted") != std::string::npos);
  }
}

TEST_CASE("UTF-8 decodes to code points, a stray byte to U+FFFD", "[vdevice][android]") {
  CHECK(decode_utf8("Buy now") == U"Buy now");
  CHECK(decode_utf8("12 \u20ac \u2026") == U"12 \u20ac \u2026");
  CHECK(decode_utf8("a\xff"
                    "b") == U"a\uFFFDb");
  // A sequence cut short at the end.
  CHECK(decode_utf8("x\xe2\x82") == U"x\uFFFD\uFFFD");
}
