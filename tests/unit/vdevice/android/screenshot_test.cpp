// The screen screencap and screenrecord draw (src/vdevice/android/ui/screenshot.cpp): each
// node's text (or drawnText) in the font, one line inside the node, ended with an ellipsis when
// too long for it.
#include "vdevice/android/ui/screenshot.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace clawperator::vdevice::android;

namespace {

constexpr std::uint8_t kBackground = 1;  // screenshot.cpp's palette

// A screen of one node at `box` with the given texts, on a 1080x2400 display at 420 dpi.
IndexedImage screen_with(const Bounds& box, const std::string& text,
                         const std::string& drawn_text = "") {
  static NodeSpec root_spec;
  static NodeSpec node_spec;
  node_spec.text = text;
  node_spec.drawn_text = drawn_text;
  VisibleTree tree;
  tree.root.spec = &root_spec;
  tree.root.bounds = {0, 0, 1080, 2400};
  VisibleNode node;
  node.spec = &node_spec;
  node.bounds = box;
  tree.root.children.push_back(node);
  return render_screen(tree, DisplaySpec{}, true);
}

// Pixels other than the background in [left, right) x [top, bottom).
int inked(const IndexedImage& image, int left, int top, int right, int bottom) {
  int count = 0;
  for (int y = top; y < bottom; ++y) {
    for (int x = left; x < right; ++x) count += image.at(x, y) == kBackground ? 0 : 1;
  }
  return count;
}

}  // namespace

TEST_CASE("screencap draws a node's text in the font, one line inside the node",
          "[vdevice][android]") {
  const Bounds box{100, 500, 700, 680};
  const IndexedImage image = screen_with(box, "Buy now");
  // Inside the outline (3 px) and the padding (24 px): the glyphs.
  CHECK(inked(image, box.left + 3, box.top + 3, box.right - 3, box.bottom - 3) > 500);
  // Left-aligned: nothing in the padding, nothing past the short word.
  CHECK(inked(image, box.left + 3, box.top + 3, box.left + 20, box.bottom - 3) == 0);
  CHECK(inked(image, box.left + 400, box.top + 3, box.right - 3, box.bottom - 3) == 0);
  // Centred vertically: nothing in the top and bottom quarters.
  CHECK(inked(image, box.left + 3, box.top + 3, box.right - 3, box.top + 45) == 0);
  CHECK(inked(image, box.left + 3, box.bottom - 45, box.right - 3, box.bottom - 3) == 0);
  // Nothing outside the node but its outline.
  CHECK(inked(image, 0, 100, 1080, box.top) == 0);
  CHECK(inked(image, 0, box.bottom, 1080, 2400) == 0);
}

TEST_CASE("screencap ends a line too long for its node with an ellipsis, inside the node",
          "[vdevice][android]") {
  const Bounds box{0, 500, 400, 680};
  const std::string long_text = "A product name far too long for a button this narrow";
  const IndexedImage image = screen_with(box, long_text);
  // Text up to the right padding, none in it, none past the node.
  CHECK(inked(image, box.right - 120, box.top + 3, box.right - 24, box.bottom - 3) > 0);
  CHECK(inked(image, box.right - 20, box.top + 3, box.right - 3, box.bottom - 3) == 0);
  CHECK(inked(image, box.right, box.top, 1080, box.bottom) == 0);
  // What it shows is a start of the text with "…" after it, drawn whole: the same pixels as
  // that line in a node wide enough for it, which has no ink past the narrow node's room. (A
  // line cut at the node's edge instead would match no such line.)
  const Bounds wide{0, 500, 1080, 680};
  bool ellipsised = false;
  for (std::size_t length = long_text.size(); length > 0 && !ellipsised; --length) {
    const IndexedImage whole = screen_with(wide, long_text.substr(0, length) + "\u2026");
    if (inked(whole, box.right - 24, wide.top + 3, wide.right - 3, wide.bottom - 3) != 0) continue;
    bool same = true;
    for (int y = box.top + 3; y < box.bottom - 3 && same; ++y) {
      for (int x = box.left + 3; x < box.right - 24 && same; ++x)
        same = whole.at(x, y) == image.at(x, y);
    }
    ellipsised = same;
  }
  CHECK(ellipsised);
}

TEST_CASE("screencap draws drawnText instead of text", "[vdevice][android]") {
  const Bounds box{0, 500, 1080, 680};
  const IndexedImage exposed = screen_with(box, "Buy now");
  const IndexedImage drawn = screen_with(box, "", "Buy now");
  const IndexedImage both = screen_with(box, "Exposed words", "Buy now");
  CHECK(inked(drawn, 3, 503, 1077, 677) > 500);
  CHECK(drawn.pixels() == exposed.pixels());
  CHECK(both.pixels() == exposed.pixels());
  CHECK(screen_with(box, "").pixels() != exposed.pixels());
}
