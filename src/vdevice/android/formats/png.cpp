#include "vdevice/android/formats/png.hpp"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace clawperator::vdevice::android {
namespace {

void put_u32(std::string& out, std::uint32_t value) {
  out += static_cast<char>((value >> 24) & 0xFF);
  out += static_cast<char>((value >> 16) & 0xFF);
  out += static_cast<char>((value >> 8) & 0xFF);
  out += static_cast<char>(value & 0xFF);
}

void put_chunk(std::string& out, std::string_view type, std::string_view data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  std::string body(type);
  body += data;
  out += body;
  put_u32(out,
          static_cast<std::uint32_t>(crc32_z(
              crc32_z(0, Z_NULL, 0), reinterpret_cast<const Bytef*>(body.data()), body.size())));
}

// The IDAT data: a zlib stream. The wireframes are mostly runs of one colour, which even the
// fastest level shrinks to a few per cent of the raw rows.
std::string zlib_compress(std::string_view data) {
  uLongf size = compressBound(static_cast<uLong>(data.size()));
  std::string out(size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                reinterpret_cast<const Bytef*>(data.data()), static_cast<uLong>(data.size()),
                Z_BEST_SPEED) != Z_OK) {
    throw std::runtime_error("screencap: zlib could not compress the image");
  }
  out.resize(size);
  return out;
}

}  // namespace

IndexedImage::IndexedImage(int width, int height, std::vector<Rgb> palette)
    : width_(std::max(width, 1)),
      height_(std::max(height, 1)),
      palette_(std::move(palette)),
      pixels_(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_), 0) {
  if (palette_.empty() || palette_.size() > 256) {
    throw std::invalid_argument("a palette image has 1 to 256 colours");
  }
}

// A PNG decoder refuses an index past the palette (and the H.264 writer would read past it):
// a drawing bug, not a pixel to write.
std::uint8_t IndexedImage::checked(std::uint8_t index) const {
  if (index >= palette_.size()) {
    throw std::out_of_range("palette index " + std::to_string(index) + " of " +
                            std::to_string(palette_.size()) + " colours");
  }
  return index;
}

void IndexedImage::fill(int left, int top, int right, int bottom, std::uint8_t index) {
  index = checked(index);
  left = std::clamp(left, 0, width_);
  right = std::clamp(right, 0, width_);
  top = std::clamp(top, 0, height_);
  bottom = std::clamp(bottom, 0, height_);
  for (int y = top; y < bottom; ++y) {
    auto row = pixels_.begin() + static_cast<std::ptrdiff_t>(y) * width_;
    std::fill(row + left, row + std::max(left, right), index);
  }
}

void IndexedImage::set(int x, int y, std::uint8_t index) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  pixels_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
          static_cast<std::size_t>(x)] = checked(index);
}

void IndexedImage::outline(int left, int top, int right, int bottom, std::uint8_t index) {
  if (right <= left || bottom <= top) return;
  constexpr int kLine = 3;
  fill(left, top, right, std::min(bottom, top + kLine), index);
  fill(left, std::max(top, bottom - kLine), right, bottom, index);
  fill(left, top, std::min(right, left + kLine), bottom, index);
  fill(std::max(left, right - kLine), top, right, bottom, index);
}

std::uint8_t IndexedImage::at(int x, int y) const {
  return pixels_[static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
                 static_cast<std::size_t>(x)];
}

std::string IndexedImage::encode_png() const {
  // The fewest bits a pixel that tell the palette's colours apart: a four-colour wireframe
  // stays a quarter of the bytes, a screen with text's grey ramps needs 8.
  int depth = 1;
  while ((std::size_t{1} << depth) < palette_.size()) depth *= 2;
  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string header;
  put_u32(header, static_cast<std::uint32_t>(width_));
  put_u32(header, static_cast<std::uint32_t>(height_));
  header += static_cast<char>(depth);
  header += static_cast<char>(3);  // colour type: palette
  header += std::string(3, '\0');  // deflate, adaptive filtering, no interlace
  put_chunk(png, "IHDR", header);
  std::string palette;
  for (const Rgb& colour : palette_) {
    palette += static_cast<char>(colour.r);
    palette += static_cast<char>(colour.g);
    palette += static_cast<char>(colour.b);
  }
  put_chunk(png, "PLTE", palette);

  const auto width = static_cast<std::size_t>(width_);
  const std::size_t row_bytes = (width * static_cast<std::size_t>(depth) + 7) / 8;
  std::string raw((row_bytes + 1) * static_cast<std::size_t>(height_), '\0');
  const int per_byte = 8 / depth;
  for (int y = 0; y < height_; ++y) {
    // Each row: the filter byte (0: none), then the pixels, the leftmost in the high bits.
    char* out = raw.data() + static_cast<std::size_t>(y) * (row_bytes + 1) + 1;
    const std::uint8_t* in = pixels_.data() + static_cast<std::size_t>(y) * width;
    if (depth == 8) {
      std::copy(in, in + width, reinterpret_cast<std::uint8_t*>(out));
      continue;
    }
    for (std::size_t x = 0; x < width; ++x) {
      const int shift = 8 - depth * (1 + static_cast<int>(x % static_cast<std::size_t>(per_byte)));
      out[x / static_cast<std::size_t>(per_byte)] =
          static_cast<char>(static_cast<std::uint8_t>(out[x / static_cast<std::size_t>(per_byte)]) |
                            static_cast<std::uint8_t>(in[x] << shift));
    }
  }
  put_chunk(png, "IDAT", zlib_compress(raw));
  put_chunk(png, "IEND", "");
  return png;
}

}  // namespace clawperator::vdevice::android
