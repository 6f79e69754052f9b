// The font `screencap` draws the screen's text with: glyphs rasterised by FreeType, anti-aliased
// (8-bit coverage), cached by size and character so that a screen's repeated letters and every
// later frame of a screenrecord cost a lookup. Roboto (Android's own font) when the build found
// it, else DejaVu Sans (src/vdevice/CMakeLists.txt); CLAWPERATOR_VDEVICE_FONT names another.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace clawperator::vdevice::android {

// One character at one size: its coverage (0 = background, 255 = ink), row by row, placed
// relative to the pen on the baseline (x right, y down).
struct Glyph {
  int left = 0;  // from the pen to the bitmap's first column
  int top = 0;   // from the baseline up to the bitmap's first row
  int width = 0;
  int rows = 0;
  int advance = 0;  // where the pen goes next, in whole pixels
  std::vector<std::uint8_t> coverage;
};

// A size's vertical extent: the line is ascent + descent pixels tall.
struct LineMetrics {
  int ascent = 0;   // above the baseline
  int descent = 0;  // below it (positive)
};

class Font {
 public:
  // Throws std::runtime_error (naming the file and what to do) when FreeType cannot load it.
  explicit Font(const std::string& path);
  ~Font();
  Font(const Font&) = delete;
  Font& operator=(const Font&) = delete;

  // Safe from several threads (screencap and a screenrecord's encoder); the reference stays
  // valid as long as the font.
  const Glyph& glyph(char32_t character, int pixel_size);
  LineMetrics metrics(int pixel_size);
  const std::string& path() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The process's font: CLAWPERATOR_VDEVICE_FONT, else the one the build found; loaded on first
// use. Throws as Font's constructor does.
Font& screen_font();

// UTF-8 as code points; a byte that starts no valid sequence becomes U+FFFD.
std::u32string decode_utf8(std::string_view text);

}  // namespace clawperator::vdevice::android
