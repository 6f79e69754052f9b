// A minimal PNG writer: 2-bit palette images, their pixels deflated and the chunks
// checksummed by zlib. Enough for a valid `screencap -p` without an image library.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace clawperator::vdevice::android {

struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
};

// An image of palette indices (0..3), written as a 2-bit palette PNG.
class IndexedImage {
 public:
  IndexedImage(int width, int height, std::array<Rgb, 4> palette);

  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }
  // Clipped to the image.
  void fill(int left, int top, int right, int bottom, std::uint8_t index);
  void outline(int left, int top, int right, int bottom, std::uint8_t index);
  std::uint8_t at(int x, int y) const;
  const std::array<Rgb, 4>& palette() const noexcept { return palette_; }
  // Row by row, one index a pixel.
  const std::vector<std::uint8_t>& pixels() const noexcept { return pixels_; }

  std::string encode_png() const;

 private:
  int width_;
  int height_;
  std::array<Rgb, 4> palette_;
  std::vector<std::uint8_t> pixels_;
};

}  // namespace clawperator::vdevice::android
