#include "clawperator/image/png_scale.hpp"

#include <png.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "vdevice/android/formats/png.hpp"

namespace {

using namespace clawperator;
using namespace clawperator::image;

// A PNG written by libpng from `buffer` laid out as `format` (16-bit for the linear formats).
std::string written_png(std::uint32_t width, std::uint32_t height, png_uint_32 format,
                        const void* buffer, const void* colormap = nullptr,
                        png_uint_32 colormap_entries = 0) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = format;
  image.colormap_entries = colormap_entries;
  png_alloc_size_t size = 0;
  REQUIRE(png_image_write_to_memory(&image, nullptr, &size, 0, buffer, 0, colormap) != 0);
  std::string out(size, '\0');
  REQUIRE(png_image_write_to_memory(&image, out.data(), &size, 0, buffer, 0, colormap) != 0);
  out.resize(size);
  return out;
}

// IHDR's bit depth and colour type (bytes 24 and 25 of a PNG).
std::pair<int, int> depth_and_type(const std::string& png) {
  REQUIRE(png.size() > 26);
  return {static_cast<unsigned char>(png[24]), static_cast<unsigned char>(png[25])};
}

std::vector<std::uint8_t> rgba(const RgbaImage& image, std::uint32_t x, std::uint32_t y) {
  const auto* pixel = image.pixels.data() + (std::size_t{y} * image.size.width + x) * 4;
  return {pixel, pixel + 4};
}

void put_u32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((value >> shift) & 0xFF);
}

void put_chunk(std::string& out, const std::string& type, const std::string& data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::string body = type + data;
  out += body;
  put_u32(out, static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(body.data()),
                                                static_cast<uInt>(body.size()))));
}

// A well-formed header claiming width x height (8-bit RGB), then an IDAT chunk's start: as
// far as a header read goes.
std::string header_only(std::uint32_t width, std::uint32_t height) {
  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string header;
  put_u32(header, width);
  put_u32(header, height);
  header += std::string("\x08\x02\x00\x00\x00", 5);
  put_chunk(png, "IHDR", header);
  put_chunk(png, "IDAT", std::string(8, '\0'));
  return png;
}

RgbaImage solid(Size size, std::vector<std::uint8_t> colour) {
  RgbaImage image;
  image.size = size;
  for (std::size_t i = 0; i < std::size_t{size.width} * size.height; ++i) {
    image.pixels.insert(image.pixels.end(), colour.begin(), colour.end());
  }
  return image;
}

}  // namespace

TEST_CASE("every PNG colour type decodes to 8-bit RGBA", "[image]") {
  SECTION("RGBA, 8 bits") {
    const std::uint8_t pixels[] = {255, 0, 0, 255, 0, 0, 255, 0};
    const std::string png = written_png(2, 1, PNG_FORMAT_RGBA, pixels);
    CHECK(depth_and_type(png) == std::pair{8, 6});
    auto image = decode_png(png);
    REQUIRE(image);
    CHECK(image->size == Size{2, 1});
    CHECK(image->pixels == std::vector<std::uint8_t>(pixels, pixels + 8));
  }
  SECTION("RGB, 8 bits") {
    const std::uint8_t pixels[] = {10, 20, 30, 40, 50, 60};
    const std::string png = written_png(1, 2, PNG_FORMAT_RGB, pixels);
    CHECK(depth_and_type(png) == std::pair{8, 2});
    auto image = decode_png(png);
    REQUIRE(image);
    CHECK(image->size == Size{1, 2});
    CHECK(rgba(*image, 0, 0) == std::vector<std::uint8_t>{10, 20, 30, 255});
    CHECK(rgba(*image, 0, 1) == std::vector<std::uint8_t>{40, 50, 60, 255});
  }
  SECTION("grey and grey with alpha") {
    const std::uint8_t grey[] = {0, 128, 255};
    const std::string png = written_png(3, 1, PNG_FORMAT_GRAY, grey);
    CHECK(depth_and_type(png) == std::pair{8, 0});
    auto image = decode_png(png);
    REQUIRE(image);
    CHECK(rgba(*image, 1, 0) == std::vector<std::uint8_t>{128, 128, 128, 255});
    const std::uint8_t grey_alpha[] = {200, 255, 7, 0};
    const std::string with_alpha = written_png(2, 1, PNG_FORMAT_GA, grey_alpha);
    CHECK(depth_and_type(with_alpha) == std::pair{8, 4});
    auto decoded = decode_png(with_alpha);
    REQUIRE(decoded);
    CHECK(rgba(*decoded, 0, 0) == std::vector<std::uint8_t>{200, 200, 200, 255});
    CHECK(rgba(*decoded, 1, 0)[3] == 0);
  }
  SECTION("16 bits a channel, RGB with alpha and grey") {
    const std::uint16_t pixels[] = {65535, 0, 0, 65535, 0, 0, 0, 0};
    const std::string png = written_png(2, 1, PNG_FORMAT_LINEAR_RGB_ALPHA, pixels);
    CHECK(depth_and_type(png) == std::pair{16, 6});
    auto image = decode_png(png);
    REQUIRE(image);
    CHECK(rgba(*image, 0, 0) == std::vector<std::uint8_t>{255, 0, 0, 255});
    CHECK(rgba(*image, 1, 0)[3] == 0);
    const std::uint16_t grey[] = {0, 65535};
    const std::string grey_png = written_png(1, 2, PNG_FORMAT_LINEAR_Y, grey);
    CHECK(depth_and_type(grey_png) == std::pair{16, 0});
    auto decoded = decode_png(grey_png);
    REQUIRE(decoded);
    CHECK(rgba(*decoded, 0, 1) == std::vector<std::uint8_t>{255, 255, 255, 255});
  }
  SECTION("palette, 8 bits and the virtual device's 2-bit screencap") {
    const std::uint8_t colormap[] = {0, 0, 0, 0, 200, 100};
    const std::uint8_t indices[] = {1, 0, 1, 1};
    const std::string png = written_png(2, 2, PNG_FORMAT_RGB_COLORMAP, indices, colormap, 2);
    CHECK(depth_and_type(png).second == 3);
    auto image = decode_png(png);
    REQUIRE(image);
    CHECK(rgba(*image, 0, 0) == std::vector<std::uint8_t>{0, 200, 100, 255});
    CHECK(rgba(*image, 1, 0) == std::vector<std::uint8_t>{0, 0, 0, 255});

    vdevice::android::IndexedImage screen(5, 3,
                                          {{255, 255, 255}, {10, 20, 30}, {0, 0, 0}, {90, 90, 90}});
    screen.fill(1, 1, 3, 2, 1);
    const std::string screencap = screen.encode_png();
    CHECK(depth_and_type(screencap) == std::pair{2, 3});
    auto decoded = decode_png(screencap);
    REQUIRE(decoded);
    CHECK(decoded->size == Size{5, 3});
    CHECK(rgba(*decoded, 0, 0) == std::vector<std::uint8_t>{255, 255, 255, 255});
    CHECK(rgba(*decoded, 2, 1) == std::vector<std::uint8_t>{10, 20, 30, 255});
  }
  SECTION("the virtual device's screencap at 1, 4 and 8 bits: the fewest that hold the palette") {
    for (const auto& [colours, depth] :
         {std::pair{2, 1}, std::pair{16, 4}, std::pair{17, 8}, std::pair{256, 8}}) {
      std::vector<vdevice::android::Rgb> palette;
      for (int i = 0; i < colours; ++i) {
        palette.push_back({static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(255 - i), 7});
      }
      // 7 columns: the packed depths end a row in the middle of a byte.
      vdevice::android::IndexedImage screen(7, 2, palette);
      for (int x = 0; x < 7; ++x) screen.set(x, 1, static_cast<std::uint8_t>((x * 5) % colours));
      const std::string screencap = screen.encode_png();
      INFO(colours << " colours");
      CHECK(depth_and_type(screencap) == std::pair{depth, 3});
      auto decoded = decode_png(screencap);
      REQUIRE(decoded);
      for (int x = 0; x < 7; ++x) {
        const auto index = static_cast<std::uint8_t>((x * 5) % colours);
        CHECK(rgba(*decoded, static_cast<std::uint32_t>(x), 1) ==
              std::vector<std::uint8_t>{index, static_cast<std::uint8_t>(255 - index), 7, 255});
        CHECK(rgba(*decoded, static_cast<std::uint32_t>(x), 0) ==
              std::vector<std::uint8_t>{0, 255, 7, 255});
      }
    }
    // An index past the palette is a drawing bug, never a pixel a decoder would refuse.
    vdevice::android::IndexedImage four(2, 2, std::vector<vdevice::android::Rgb>(4));
    CHECK_THROWS_AS(four.set(0, 0, 4), std::out_of_range);
    CHECK_THROWS_AS(four.fill(0, 0, 1, 1, 9), std::out_of_range);
  }
}

TEST_CASE("fitted sizes keep the aspect ratio and never grow", "[image]") {
  CHECK(fitted_size({1080, 2400}, 1024) == Size{461, 1024});
  CHECK(fitted_size({2400, 1080}, 1024) == Size{1024, 461});
  CHECK(fitted_size({100, 50}, 64) == Size{64, 32});
  CHECK(fitted_size({4096, 4096}, 64) == Size{64, 64});
  CHECK(fitted_size({3, 1000}, 64) == Size{1, 64});
  CHECK(fitted_size({1080, 2400}, 2400) == Size{1080, 2400});
  CHECK(fitted_size({50, 40}, 64) == Size{50, 40});
  CHECK(fitted_size({50, 40}, 4096) == Size{50, 40});
}

TEST_CASE("scale_down is an exact, alpha-weighted area average", "[image]") {
  // 3 → 2: each output covers one and a half source pixels.
  RgbaImage row;
  row.size = {3, 1};
  row.pixels = {0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255};
  const RgbaImage thirds = scale_down(row, {2, 1});
  CHECK(rgba(thirds, 0, 0) == std::vector<std::uint8_t>{30, 30, 30, 255});
  CHECK(rgba(thirds, 1, 0) == std::vector<std::uint8_t>{150, 150, 150, 255});

  // Left half red, right half blue, 4x2 → 2x1.
  RgbaImage halves;
  halves.size = {4, 2};
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 4; ++x) {
      const std::vector<std::uint8_t> colour = x < 2 ? std::vector<std::uint8_t>{255, 0, 0, 255}
                                                     : std::vector<std::uint8_t>{0, 0, 255, 255};
      halves.pixels.insert(halves.pixels.end(), colour.begin(), colour.end());
    }
  }
  const RgbaImage two = scale_down(halves, {2, 1});
  CHECK(rgba(two, 0, 0) == std::vector<std::uint8_t>{255, 0, 0, 255});
  CHECK(rgba(two, 1, 0) == std::vector<std::uint8_t>{0, 0, 255, 255});

  // A transparent pixel lends no colour.
  RgbaImage clear;
  clear.size = {2, 1};
  clear.pixels = {255, 0, 0, 255, 0, 255, 0, 0};
  CHECK(rgba(scale_down(clear, {1, 1}), 0, 0) == std::vector<std::uint8_t>{255, 0, 0, 128});

  // A screen-sized solid colour stays that colour at a non-integer ratio.
  const RgbaImage scaled = scale_down(solid({1080, 2400}, {12, 34, 56, 255}), {461, 1024});
  CHECK(scaled.size == Size{461, 1024});
  CHECK(scaled.pixels == solid({461, 1024}, {12, 34, 56, 255}).pixels);

  // Never larger than the source.
  CHECK(scale_down(row, {10, 10}).size == Size{3, 1});
}

TEST_CASE("fit_png scales the virtual device's screen and keeps small images as they are",
          "[image]") {
  vdevice::android::IndexedImage screen(1080, 2400,
                                        {{255, 255, 255}, {10, 20, 30}, {0, 0, 0}, {90, 90, 90}});
  screen.fill(0, 0, 1080, 1200, 1);
  const std::string screencap = screen.encode_png();
  auto fitted = fit_png(screencap, 1024);
  REQUIRE(fitted);
  CHECK(fitted->original == Size{1080, 2400});
  CHECK(fitted->size == Size{461, 1024});
  CHECK(depth_and_type(fitted->png) == std::pair{8, 2});  // opaque: RGB
  auto size = png_size(fitted->png);
  REQUIRE(size);
  CHECK(*size == Size{461, 1024});
  auto decoded = decode_png(fitted->png);
  REQUIRE(decoded);
  CHECK(rgba(*decoded, 0, 0) == std::vector<std::uint8_t>{10, 20, 30, 255});
  CHECK(rgba(*decoded, 460, 1023) == std::vector<std::uint8_t>{255, 255, 255, 255});

  auto same = fit_png(screencap, 2400);
  REQUIRE(same);
  CHECK(same->png == screencap);
  CHECK(same->size == Size{1080, 2400});
  CHECK(same->original == Size{1080, 2400});

  // Transparency survives the round trip: RGBA out.
  RgbaImage clear = solid({200, 100}, {1, 2, 3, 0});
  auto encoded = encode_png(clear);
  REQUIRE(encoded);
  auto halved = fit_png(*encoded, 100);
  REQUIRE(halved);
  CHECK(depth_and_type(halved->png) == std::pair{8, 6});
  CHECK(halved->size == Size{100, 50});
}

TEST_CASE("oversized images are refused before their pixels are read", "[image]") {
  auto wide = png_size(header_only(16385, 1));
  REQUIRE_FALSE(wide);
  CHECK(wide.error().text() == "the PNG is 16385x1, larger than 16384 px a side or 64 Mpx");
  auto many = decode_png(header_only(8193, 8193));
  REQUIRE_FALSE(many);
  CHECK(many.error().text() == "the PNG is 8193x8193, larger than 16384 px a side or 64 Mpx");
  CHECK_FALSE(fit_png(header_only(16384, 4097), 1024));
  // At the bounds the header is accepted (these pixels are never decoded).
  CHECK(png_size(header_only(16384, 1)).value() == Size{16384, 1});
  CHECK(png_size(header_only(8192, 8192)).value() == Size{8192, 8192});
  CHECK_FALSE(encode_png(RgbaImage{{16385, 1}, std::vector<std::uint8_t>(16385 * 4)}));
}

TEST_CASE("bytes that are not a whole PNG are refused as values", "[image]") {
  CHECK(png_size("").error().text() == "not a PNG image: no bytes");
  auto text = decode_png("hello, world");
  REQUIRE_FALSE(text);
  CHECK(text.error().text().rfind("not a PNG image: ", 0) == 0);
  CHECK_FALSE(decode_png(std::string("\x89PNG\r\n\x1a\n", 8)));

  const std::uint8_t pixels[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::string png = written_png(2, 2, PNG_FORMAT_RGB, pixels);
  REQUIRE(decode_png(png));
  // Cut inside the image data.
  auto cut = decode_png(png.substr(0, png.size() - 20));
  REQUIRE_FALSE(cut);
  CHECK(cut.error().text().rfind("broken PNG image: ", 0) == 0);
  // A flipped byte in IDAT: its CRC no longer matches.
  std::string flipped = png;
  const std::size_t idat = flipped.find("IDAT");
  REQUIRE(idat != std::string::npos);
  flipped[idat + 6] = static_cast<char>(flipped[idat + 6] ^ 0x55);
  auto corrupt = fit_png(flipped, 1);
  REQUIRE_FALSE(corrupt);
  CHECK(corrupt.error().text().rfind("broken PNG image: ", 0) == 0);
  // Pixels that do not match the stated size are not encoded.
  CHECK(encode_png(RgbaImage{{2, 2}, std::vector<std::uint8_t>(3)}).error().text() ==
        "the pixel buffer does not match the image size");
}
