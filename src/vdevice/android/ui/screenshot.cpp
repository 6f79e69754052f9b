#include "vdevice/android/ui/screenshot.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "vdevice/android/formats/png.hpp"
#include "vdevice/android/ui/font.hpp"

namespace clawperator::vdevice::android {
namespace {

constexpr std::uint8_t kBlack = 0;
constexpr std::uint8_t kBackground = 1;
constexpr std::uint8_t kGrey = 2;
constexpr std::uint8_t kAccent = 3;
constexpr Rgb kBackgroundColour{245, 245, 245};
constexpr Rgb kAccentColour{26, 115, 232};
// Material's primary text colour (87 % black) on the light background.
constexpr Rgb kTextColour{33, 33, 33};
// Anti-aliased text: a ramp of colours from the background to the ink (the last one), one for
// ordinary text and one for the accent a clickable node's text is drawn in. 64 steps look
// smooth to text recognition; both ramps and the four wireframe colours fit an 8-bit palette.
constexpr int kRampSteps = 64;
constexpr std::uint8_t kTextRamp = 4;
constexpr std::uint8_t kAccentRamp = kTextRamp + kRampSteps;
constexpr int kStatusBarHeight = 80;
constexpr int kOutline = 3;       // IndexedImage::outline's line width
constexpr int kTextPadding = 24;  // from the node's left and right edges to its text

// Material's type scale in sp: body text, and a title for a tall leaf that cannot be tapped (a
// screen's heading, as examples/scenarios/shop-app.json's "Welcome back" is).
constexpr int kBodySp = 16;
constexpr int kTitleSp = 22;
constexpr int kTitleMinHeightDp = 72;

std::vector<Rgb> screen_palette() {
  std::vector<Rgb> palette = {Rgb{0, 0, 0}, kBackgroundColour, Rgb{158, 158, 158}, kAccentColour};
  for (const Rgb& ink : {kTextColour, kAccentColour}) {
    for (int step = 1; step <= kRampSteps; ++step) {
      const auto mix = [step](std::uint8_t from, std::uint8_t to) {
        return static_cast<std::uint8_t>((from * (kRampSteps - step) + to * step) / kRampSteps);
      };
      palette.push_back({mix(kBackgroundColour.r, ink.r), mix(kBackgroundColour.g, ink.g),
                         mix(kBackgroundColour.b, ink.b)});
    }
  }
  return palette;
}

// sp (or dp) to pixels at the display's density, as Android scales them (1 sp = density/160 px
// at the default font scale).
int to_pixels(int sp, const DisplaySpec& display) {
  return (sp * display.density + 80) / 160;
}

// What the node shows: text drawn but never exposed (a Flutter or canvas app) when the
// scenario has it, else what accessibility reports (password text as bullets).
std::string shown_text(const VisibleNode& node) {
  return node.spec->drawn_text.empty() ? node.text() : node.spec->drawn_text;
}

int text_width(Font& font, const std::u32string& text, int pixel_size) {
  int width = 0;
  for (const char32_t character : text) width += font.glyph(character, pixel_size).advance;
  return width;
}

// One line, left-aligned inside the node and centred vertically, clipped to the inside of its
// outline; a line too long for the node ends in an ellipsis, as a TextView with
// ellipsize="end" does.
void draw_text(IndexedImage& image, const Bounds& box, const std::string& utf8, int pixel_size,
               std::uint8_t ramp) {
  Font& font = screen_font();
  const LineMetrics line = font.metrics(pixel_size);
  std::u32string text = decode_utf8(utf8);
  const int room = box.width() - 2 * kTextPadding;
  if (text_width(font, text, pixel_size) > room) {
    const int ellipsis = font.glyph(U'\u2026', pixel_size).advance;
    while (!text.empty() && text_width(font, text, pixel_size) + ellipsis > room) text.pop_back();
    text += U'\u2026';
  }
  const int clip_left = std::max(box.left + kOutline, 0);
  const int clip_right = std::min(box.right - kOutline, image.width());
  const int clip_top = std::max(box.top + kOutline, 0);
  const int clip_bottom = std::min(box.bottom - kOutline, image.height());
  const int baseline = box.top + (box.height() - line.ascent - line.descent) / 2 + line.ascent;
  int pen = box.left + kTextPadding;
  for (const char32_t character : text) {
    const Glyph& glyph = font.glyph(character, pixel_size);
    for (int row = 0; row < glyph.rows; ++row) {
      const int y = baseline - glyph.top + row;
      if (y < clip_top || y >= clip_bottom) continue;
      const std::uint8_t* coverage =
          glyph.coverage.data() + static_cast<std::ptrdiff_t>(row) * glyph.width;
      for (int column = 0; column < glyph.width; ++column) {
        const int x = pen + glyph.left + column;
        if (x < clip_left || x >= clip_right) continue;
        // Coverage 1..255 to the ramp's steps 1..64; none leaves the background.
        const int step = (coverage[column] * kRampSteps + 127) / 255;
        if (step > 0) image.set(x, y, static_cast<std::uint8_t>(ramp + step - 1));
      }
    }
    pen += glyph.advance;
  }
}

void draw(IndexedImage& image, const VisibleNode& node, const DisplaySpec& display, bool is_root) {
  const Bounds& box = node.bounds;
  const bool clickable = !is_root && node.spec->clickable;
  if (!is_root && !clickable) image.outline(box.left, box.top, box.right, box.bottom, kGrey);
  const std::string text = shown_text(node);
  if (!text.empty() && box.width() > 2 * kTextPadding) {
    const bool title = !clickable && node.children.empty() &&
                       box.height() >= to_pixels(kTitleMinHeightDp, display);
    // Never taller than the node: a short row gets smaller text rather than cut letters.
    const int fits = (box.height() - 2 * kOutline) * 5 / 6;
    const int pixel_size = std::min(to_pixels(title ? kTitleSp : kBodySp, display), fits);
    if (pixel_size >= 6) {
      draw_text(image, box, text, pixel_size, clickable ? kAccentRamp : kTextRamp);
    }
  }
  for (const VisibleNode& child : node.children) draw(image, child, display, false);
  // On top of the children's outlines: what can be tapped stands out.
  if (clickable) image.outline(box.left, box.top, box.right, box.bottom, kAccent);
}

}  // namespace

IndexedImage render_screen(const VisibleTree& tree, const DisplaySpec& display, bool screen_on) {
  IndexedImage image(display.width, display.height, screen_palette());
  if (screen_on) {
    image.fill(0, 0, display.width, display.height, kBackground);
    draw(image, tree.root, display, true);
    image.fill(0, 0, display.width, kStatusBarHeight, kBlack);
  }
  return image;
}

std::string render_screenshot(const VisibleTree& tree, const DisplaySpec& display, bool screen_on) {
  return render_screen(tree, display, screen_on).encode_png();
}

}  // namespace clawperator::vdevice::android
