// A minimal PNG writer: palette images (up to 256 colours, written at the smallest bit depth
// that holds the palette), their pixels deflated and the chunks checksummed by zlib. Enough for
// a valid `screencap -p` without an image library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace clawperator::vdevice::android {

struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
};

// An image of palette indices (each below the palette's size), written as a palette PNG of 1,
// 2, 4 or 8 bits a pixel: 2 for a four-colour wireframe, 8 for anti-aliased text's grey ramps.
class IndexedImage {
 public:
  // 1 to 256 colours; the pixels start at index 0.
  IndexedImage(int width, int height, std::vector<Rgb> palette);

  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }
  // Clipped to the image.
  void fill(int left, int top, int right, int bottom, std::uint8_t index);
  void outline(int left, int top, int right, int bottom, std::uint8_t index);
  // One pixel; nothing outside the image.
  void set(int x, int y, std::uint8_t index);
  std::uint8_t at(int x, int y) const;
  const std::vector<Rgb>& palette() const noexcept { return palette_; }
  // Row by row, one index a pixel.
  const std::vector<std::uint8_t>& pixels() const noexcept { return pixels_; }

  std::string encode_png() const;

 private:
  std::uint8_t checked(std::uint8_t index) const;

  int width_;
  int height_;
  std::vector<Rgb> palette_;
  std::vector<std::uint8_t> pixels_;
};

}  // namespace clawperator::vdevice::android
