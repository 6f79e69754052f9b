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

// The IDAT data: a zlib stream, fed a row at a time so that no copy of a 2.6 MB screen is made
// (fresh pages of a large buffer, zeroed by the kernel, cost more than the compression), into
// output that grows with what it holds (a screen compresses to a few per cent). A screen is
// mostly runs of one colour a row long, which run-length matching (Z_RLE: matches at distance 1
// only) finds as well as a full search does, and faster.
class Deflater {
 public:
  Deflater() {
    if (deflateInit2(&stream_, Z_BEST_SPEED, Z_DEFLATED, 15, 8, Z_RLE) != Z_OK) {
      throw std::runtime_error("screencap: zlib could not start compressing");
    }
  }
  ~Deflater() { deflateEnd(&stream_); }
  Deflater(const Deflater&) = delete;
  Deflater& operator=(const Deflater&) = delete;

  void add(const void* data, std::size_t size) { run(data, size, Z_NO_FLUSH); }
  std::string finish() {
    run(nullptr, 0, Z_FINISH);
    out_.resize(stream_.total_out);
    return std::move(out_);
  }

 private:
  void run(const void* data, std::size_t size, int flush) {
    stream_.next_in = static_cast<Bytef*>(const_cast<void*>(data));
    stream_.avail_in = static_cast<uInt>(size);
    for (;;) {
      if (out_.size() - stream_.total_out < 16384) out_.resize(out_.size() + 65536);
      stream_.next_out = reinterpret_cast<Bytef*>(out_.data()) + stream_.total_out;
      stream_.avail_out = static_cast<uInt>(out_.size() - stream_.total_out);
      const int status = deflate(&stream_, flush);
      if (status == Z_STREAM_END) return;
      if (status != Z_OK && status != Z_BUF_ERROR) {
        throw std::runtime_error("screencap: zlib could not compress the image");
      }
      if (flush != Z_FINISH && stream_.avail_in == 0 && stream_.avail_out > 0) return;
    }
  }

  z_stream stream_{};
  std::string out_;
};

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
  const std::size_t per_byte = 8 / static_cast<std::size_t>(depth);
  Deflater deflater;
  const char filter = 0;  // none, on every row
  std::vector<std::uint8_t> packed(row_bytes);
  for (int y = 0; y < height_; ++y) {
    deflater.add(&filter, 1);
    const std::uint8_t* in = pixels_.data() + static_cast<std::size_t>(y) * width;
    if (depth == 8) {
      deflater.add(in, width);
      continue;
    }
    // The leftmost pixel in the high bits.
    std::fill(packed.begin(), packed.end(), 0);
    for (std::size_t x = 0; x < width; ++x) {
      const int shift = 8 - depth * (1 + static_cast<int>(x % per_byte));
      packed[x / per_byte] = static_cast<std::uint8_t>(packed[x / per_byte] | (in[x] << shift));
    }
    deflater.add(packed.data(), row_bytes);
  }
  put_chunk(png, "IDAT", deflater.finish());
  put_chunk(png, "IEND", "");
  return png;
}

}  // namespace clawperator::vdevice::android
