#include "vdevice/android/ui/screenshot.hpp"

#include <algorithm>

#include "vdevice/android/formats/png.hpp"

namespace clawperator::vdevice::android {
namespace {

constexpr std::uint8_t kBlack = 0;
constexpr std::uint8_t kBackground = 1;
constexpr std::uint8_t kGrey = 2;
constexpr std::uint8_t kAccent = 3;
constexpr int kStatusBarHeight = 80;

void draw(IndexedImage& image, const VisibleNode& node, bool is_root) {
  const Bounds& box = node.bounds;
  const bool clickable = !is_root && node.spec->clickable;
  if (!is_root && !clickable) image.outline(box.left, box.top, box.right, box.bottom, kGrey);
  const std::string text = node.text();
  if (!text.empty() && box.width() > 48 && box.height() > 12) {
    const int bar_height = std::min(box.height() / 3, 40);
    const int top = box.top + (box.height() - bar_height) / 2;
    const int length = std::min(static_cast<int>(text.size()) * 22, box.width() - 48);
    image.fill(box.left + 24, top, box.left + 24 + length, top + bar_height, kGrey);
  }
  for (const VisibleNode& child : node.children) draw(image, child, false);
  // On top of the children's outlines: what can be tapped stands out.
  if (clickable) image.outline(box.left, box.top, box.right, box.bottom, kAccent);
}

}  // namespace

IndexedImage render_screen(const VisibleTree& tree, const DisplaySpec& display, bool screen_on) {
  IndexedImage image(display.width, display.height,
                     {Rgb{0, 0, 0}, Rgb{245, 245, 245}, Rgb{158, 158, 158}, Rgb{26, 115, 232}});
  if (screen_on) {
    image.fill(0, 0, display.width, display.height, kBackground);
    draw(image, tree.root, true);
    image.fill(0, 0, display.width, kStatusBarHeight, kBlack);
  }
  return image;
}

std::string render_screenshot(const VisibleTree& tree, const DisplaySpec& display, bool screen_on) {
  return render_screen(tree, display, screen_on).encode_png();
}

}  // namespace clawperator::vdevice::android
