// PNG in memory → pixels → a smaller PNG in memory, for the MCP screenshot's maxDimension
// (docs/mcp.md). Any PNG libpng reads (palette, grey, RGB, with or without alpha, 1 to 16 bits
// a channel) decodes to 8-bit RGBA; dimensions are bounded before any pixel memory is taken;
// every failure is a value, whatever the bytes. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::image {

// Larger images are refused before decoding: 16384 px a side, 64 Mpx (256 MiB of RGBA).
inline constexpr std::uint32_t kMaxSide = 16384;
inline constexpr std::uint64_t kMaxPixels = std::uint64_t{64} << 20;

struct Size {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  friend bool operator==(const Size&, const Size&) = default;
};

// 8-bit RGBA, not premultiplied, rows top to bottom without padding.
struct RgbaImage {
  Size size;
  std::vector<std::uint8_t> pixels;  // width * height * 4
};

// The size the IHDR states, after the bounds above; nothing else is decoded.
Expected<Size, Problem> png_size(std::string_view png);

Expected<RgbaImage, Problem> decode_png(std::string_view png);

// The size that fits `size` within max_dimension on its longer side, aspect ratio kept (the
// shorter side rounded, at least 1); never larger than `size`. max_dimension >= 1.
Size fitted_size(Size size, std::uint32_t max_dimension);

// Area average (box filter) down to `target` (each side <= the source's, >= 1), weighted by
// alpha so that transparent pixels lend no colour.
RgbaImage scale_down(const RgbaImage& source, Size target);

// RGB when every pixel is opaque, else RGBA; 8 bits a channel.
Expected<std::string, Problem> encode_png(const RgbaImage& image);

struct FittedPng {
  std::string png;  // the input bytes unchanged when they already fit
  Size original;
  Size size;
};

// decode → scale_down → encode when the longer side exceeds max_dimension; else only the
// header is read.
Expected<FittedPng, Problem> fit_png(std::string_view png, std::uint32_t max_dimension);

}  // namespace clawperator::image
