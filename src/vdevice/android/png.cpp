#include "clawperator/vdevice/android/png.hpp"

#include <algorithm>

namespace clawperator::vdevice::android {
namespace {

constexpr std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

constexpr auto kCrcTable = make_crc_table();

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
  put_u32(out, crc32(body));
}

// zlib stream of stored blocks (at most 65535 bytes each).
std::string zlib_stored(std::string_view data) {
  std::string out;
  out += static_cast<char>(0x78);
  out += static_cast<char>(0x01);
  std::size_t offset = 0;
  do {
    const std::size_t length = std::min<std::size_t>(65535, data.size() - offset);
    const bool last = offset + length == data.size();
    out += static_cast<char>(last ? 1 : 0);
    out += static_cast<char>(length & 0xFF);
    out += static_cast<char>((length >> 8) & 0xFF);
    out += static_cast<char>(~length & 0xFF);
    out += static_cast<char>((~length >> 8) & 0xFF);
    out.append(data.substr(offset, length));
    offset += length;
  } while (offset < data.size());
  put_u32(out, adler32(data));
  return out;
}

}  // namespace

std::uint32_t crc32(std::string_view bytes, std::uint32_t crc) {
  crc = ~crc;
  for (const char c : bytes) {
    crc = kCrcTable[(crc ^ static_cast<unsigned char>(c)) & 0xFFU] ^ (crc >> 8);
  }
  return ~crc;
}

std::uint32_t adler32(std::string_view bytes) {
  constexpr std::uint32_t kModulus = 65521;
  std::uint32_t a = 1;
  std::uint32_t b = 0;
  for (const char c : bytes) {
    a = (a + static_cast<unsigned char>(c)) % kModulus;
    b = (b + a) % kModulus;
  }
  return (b << 16) | a;
}

IndexedImage::IndexedImage(int width, int height, std::array<Rgb, 4> palette)
    : width_(std::max(width, 1)),
      height_(std::max(height, 1)),
      palette_(palette),
      pixels_(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_), 0) {}

void IndexedImage::fill(int left, int top, int right, int bottom, std::uint8_t index) {
  left = std::clamp(left, 0, width_);
  right = std::clamp(right, 0, width_);
  top = std::clamp(top, 0, height_);
  bottom = std::clamp(bottom, 0, height_);
  for (int y = top; y < bottom; ++y) {
    auto row = pixels_.begin() + static_cast<std::ptrdiff_t>(y) * width_;
    std::fill(row + left, row + std::max(left, right), static_cast<std::uint8_t>(index & 3U));
  }
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
  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string header;
  put_u32(header, static_cast<std::uint32_t>(width_));
  put_u32(header, static_cast<std::uint32_t>(height_));
  header += static_cast<char>(2);  // bit depth
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

  const std::size_t row_bytes = (static_cast<std::size_t>(width_) * 2 + 7) / 8;
  std::string raw;
  raw.reserve((row_bytes + 1) * static_cast<std::size_t>(height_));
  for (int y = 0; y < height_; ++y) {
    raw += '\0';  // filter: none
    std::uint8_t byte = 0;
    int filled = 0;
    for (int x = 0; x < width_; ++x) {
      byte = static_cast<std::uint8_t>(byte | (at(x, y) << (6 - 2 * filled)));
      if (++filled == 4) {
        raw += static_cast<char>(byte);
        byte = 0;
        filled = 0;
      }
    }
    if (filled > 0) raw += static_cast<char>(byte);
  }
  put_chunk(png, "IDAT", zlib_stored(raw));
  put_chunk(png, "IEND", "");
  return png;
}

}  // namespace clawperator::vdevice::android
