// Text the virtual device draws but does not expose (examples/scenarios/drawn-text.json, a
// Flutter-like shop whose labels are `drawnText`), through the real adb: the screenshot has real
// glyphs inside the node and nowhere else, the hierarchy has not the words, a tap by
// coordinates still does what the node does, and Tesseract reads the words off the screenshot.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "clawperator/image/png_scale.hpp"
#include "farm_fixture.hpp"
#include "flutter_shop.hpp"
#include "media_probe.hpp"
#include "skip.hpp"

using clawperator::testing::Farm;
using clawperator::testing::kSnapshot;
using clawperator::testing::open_flutter_shop;
using clawperator::testing::program_on_path;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;

namespace {

// The "Buy now" button as the scenario lays it out: below a 240 px title and a 160 px line,
// 180 px tall, the full width of the 1080x2400 display.
constexpr int kButtonLeft = 0;
constexpr int kButtonTop = 400;
constexpr int kButtonRight = 1080;
constexpr int kButtonBottom = 580;
const std::string kButtonBounds = "[0,400][1080,580]";

Farm shop() {
  return Farm({"drawn-text"});
}

std::string screenshot(const Farm& farm) {
  const RunResult shot = farm.adb({"-s", farm.serials().front(), "exec-out", "screencap", "-p"});
  INFO(shot.err);
  REQUIRE(shot.exit_code == 0);
  return shot.out;
}

// The Operator's hierarchy of the screen (what `clawperator snapshot` and uiautomator show).
std::string hierarchy(const Farm& farm) {
  const json document = single_document(farm.exec(json::array({kSnapshot})));
  const json& text = document["envelope"]["stepResults"][0]["data"]["text"];
  REQUIRE(text.is_string());
  return text.get<std::string>();
}

struct Colour {
  std::uint8_t r, g, b;
  friend auto operator<=>(const Colour&, const Colour&) = default;
};

Colour colour_at(const clawperator::image::RgbaImage& image, int x, int y) {
  const std::size_t at = (static_cast<std::size_t>(y) * image.size.width + x) * 4;
  return {image.pixels[at], image.pixels[at + 1], image.pixels[at + 2]};
}

}  // namespace

TEST_CASE(
    "screenshot of drawn text: glyphs inside the node only, not in the hierarchy, "
    "a tap by coordinates follows the node",
    "[integration][vdevice][screenshot]") {
  Farm farm = shop();
  open_flutter_shop(farm);
  const std::string& serial = farm.serials().front();

  // The hierarchy has the button (clickable, where the scenario lays it out) but not its words.
  const std::string before = hierarchy(farm);
  INFO(before);
  CHECK(before.find("Buy now") == std::string::npos);
  CHECK(before.find("Add to cart") == std::string::npos);
  CHECK(before.find("bounds=\"" + kButtonBounds + "\"") != std::string::npos);
  CHECK(before.find("Order placed") == std::string::npos);

  // Decoded by libpng (src/image/png_scale.cpp), not by the device's own writer.
  const auto image = clawperator::image::decode_png(screenshot(farm));
  REQUIRE(image);
  REQUIRE(image->size.width == 1080);
  REQUIRE(image->size.height == 2400);
  // The background is the screen's most common colour; the outline that of the button's edge.
  const Colour background = colour_at(*image, 540, 2000);
  const Colour outline = colour_at(*image, kButtonLeft + 1, (kButtonTop + kButtonBottom) / 2);
  CHECK(background != outline);

  // Inside the button, within its outline: the glyphs, in many levels of the ink's ramp
  // (anti-aliasing), some of them near the full ink (darker than the light background).
  std::set<Colour> levels;
  int glyph_pixels = 0;
  int ink_pixels = 0;
  int ink_left = kButtonRight, ink_right = kButtonLeft, ink_top = kButtonBottom,
      ink_bottom = kButtonTop;
  for (int y = kButtonTop + 3; y < kButtonBottom - 3; ++y) {
    for (int x = kButtonLeft + 3; x < kButtonRight - 3; ++x) {
      const Colour colour = colour_at(*image, x, y);
      if (colour == background) continue;
      ++glyph_pixels;
      levels.insert(colour);
      if (colour.r + colour.g + colour.b < 3 * 160) ++ink_pixels;
      ink_left = std::min(ink_left, x);
      ink_right = std::max(ink_right, x + 1);
      ink_top = std::min(ink_top, y);
      ink_bottom = std::max(ink_bottom, y + 1);
    }
  }
  INFO("glyph pixels " << glyph_pixels << ", levels " << levels.size() << ", ink box x " << ink_left
                       << ".." << ink_right << " y " << ink_top << ".." << ink_bottom);
  CHECK(levels.size() >= 16);
  CHECK(glyph_pixels > 1000);
  CHECK(ink_pixels > 500);
  // One short line: left-aligned after the padding, "Buy now" at 16 sp (42 px at 420 dpi) is a
  // few hundred pixels wide and about a letter tall, centred in the 180 px button.
  CHECK(ink_left >= kButtonLeft + 20);
  CHECK(ink_left <= kButtonLeft + 40);
  CHECK(ink_right - ink_left > 100);
  CHECK(ink_right - ink_left < 400);
  CHECK(ink_bottom - ink_top > 20);
  CHECK(ink_bottom - ink_top < 80);
  CHECK(ink_top > kButtonTop + 40);
  CHECK(ink_bottom < kButtonBottom - 40);

  // Outside every node's text: the empty filler below the caption holds the background only.
  int stray = 0;
  for (int y = 1200; y < 2390; y += 3) {
    for (int x = 10; x < 1070; x += 3) stray += colour_at(*image, x, y) == background ? 0 : 1;
  }
  CHECK(stray == 0);

  // A tap by coordinates at the button's centre does what the button does.
  const RunResult tapped = farm.adb({"-s", serial, "shell", "input", "tap",
                                     std::to_string((kButtonLeft + kButtonRight) / 2),
                                     std::to_string((kButtonTop + kButtonBottom) / 2)});
  INFO(tapped.out << tapped.err);
  REQUIRE(tapped.exit_code == 0);
  const std::string after = hierarchy(farm);
  INFO(after);
  CHECK(after.find("Order placed") != std::string::npos);
}

TEST_CASE("screenshot of drawn text: Tesseract reads the drawn words",
          "[integration][vdevice][screenshot][may-skip]") {
  const auto tesseract = program_on_path("tesseract");
  if (!tesseract) {
    SKIP_TEST(
        "no tesseract: tesseract-ocr and tesseract-ocr-eng (scripts/install-deps.sh --video)");
  }
  Farm farm = shop();
  open_flutter_shop(farm);
  const std::string path = farm.log_dir() + "-shop.png";
  std::ofstream(path, std::ios::binary) << screenshot(farm);
  // Sparse text (page segmentation mode 11): a screen's labels, not a page's paragraphs.
  const RunResult read =
      clawperator::testing::run_binary(*tesseract, {path, "stdout", "--psm", "11"});
  std::filesystem::remove(path);
  INFO(read.out << read.err);
  REQUIRE(read.exit_code == 0);
  CHECK(read.out.find("Buy now") != std::string::npos);
  CHECK(read.out.find("Add to cart") != std::string::npos);
  CHECK(read.out.find("Free delivery") != std::string::npos);
}
