#include "clawperator/image/png_scale.hpp"

#include <png.h>

#include <algorithm>
#include <cstring>

namespace clawperator::image {
namespace {

constexpr std::uint64_t kChannels = 4;

// The PNG as a whole is at fault: no path.
Unexpected<Problem> failure(std::string message) {
  return Unexpected(Problem{"", std::move(message)});
}

// The simplified API reports through the struct: its message, or ours when it has none.
std::string libpng_message(const png_image& image, std::string_view fallback) {
  const std::size_t length = strnlen(image.message, sizeof image.message);
  if (length == 0) return std::string(fallback);
  return std::string(image.message, length);
}

png_image fresh_image() {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  return image;
}

std::string bound_problem(Size size) {
  if (size.width == 0 || size.height == 0) return "the PNG has no pixels";
  if (size.width > kMaxSide || size.height > kMaxSide ||
      std::uint64_t{size.width} * size.height > kMaxPixels) {
    return "the PNG is " + std::to_string(size.width) + "x" + std::to_string(size.height) +
           ", larger than " + std::to_string(kMaxSide) + " px a side or " +
           std::to_string(kMaxPixels >> 20) + " Mpx";
  }
  return {};
}

// Reads the header into `image` (libpng's state stays open for png_image_finish_read) and
// checks the bounds; on failure the state is freed.
Expected<Size, Problem> begin_read(png_image& image, std::string_view png) {
  if (png.empty()) return failure("not a PNG image: no bytes");
  if (png_image_begin_read_from_memory(&image, png.data(), png.size()) == 0) {
    png_image_free(&image);
    return failure("not a PNG image: " + libpng_message(image, "unreadable header"));
  }
  const Size size{image.width, image.height};
  if (std::string problem = bound_problem(size); !problem.empty()) {
    png_image_free(&image);
    return failure(std::move(problem));
  }
  return size;
}

// One axis of the area average, in exact integers: output i covers [i*from, (i+1)*from) in
// units where a source pixel is `to` wide, so every weight is the overlap's length and the
// weights of one output add up to `from`.
struct Span {
  std::uint32_t first = 0;
  std::vector<std::uint64_t> weights;
};

std::vector<Span> spans(std::uint32_t from, std::uint32_t to) {
  std::vector<Span> out(to);
  for (std::uint32_t i = 0; i < to; ++i) {
    const std::uint64_t low = std::uint64_t{i} * from;
    const std::uint64_t high = low + from;
    const std::uint64_t first = low / to;
    const std::uint64_t last = (high - 1) / to;
    out[i].first = static_cast<std::uint32_t>(first);
    for (std::uint64_t j = first; j <= last; ++j) {
      out[i].weights.push_back(std::min(high, (j + 1) * to) - std::max(low, j * to));
    }
  }
  return out;
}

std::uint8_t rounded_ratio(std::uint64_t numerator, std::uint64_t denominator) {
  if (denominator == 0) return 0;
  return static_cast<std::uint8_t>(
      std::min<std::uint64_t>(255, (numerator + denominator / 2) / denominator));
}

}  // namespace

Expected<Size, Problem> png_size(std::string_view png) {
  png_image image = fresh_image();
  auto size = begin_read(image, png);
  if (size) png_image_free(&image);
  return size;
}

Expected<RgbaImage, Problem> decode_png(std::string_view png) {
  png_image image = fresh_image();
  CLAWPERATOR_TRY_ASSIGN(const Size size, begin_read(image, png));
  image.format = PNG_FORMAT_RGBA;
  RgbaImage out;
  out.size = size;
  out.pixels.resize(std::uint64_t{size.width} * size.height * kChannels);
  if (png_image_finish_read(&image, nullptr, out.pixels.data(), 0, nullptr) == 0) {
    png_image_free(&image);
    return failure("broken PNG image: " + libpng_message(image, "undecodable pixels"));
  }
  return out;
}

Size fitted_size(Size size, std::uint32_t max_dimension) {
  max_dimension = std::max<std::uint32_t>(1, max_dimension);
  const std::uint32_t longer = std::max(size.width, size.height);
  if (longer <= max_dimension) return size;
  const auto shorter = [&](std::uint32_t side) {
    const std::uint64_t scaled =
        (std::uint64_t{side} * max_dimension * 2 + longer) / (std::uint64_t{longer} * 2);
    return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, scaled));
  };
  if (size.width >= size.height) return {max_dimension, shorter(size.height)};
  return {shorter(size.width), max_dimension};
}

RgbaImage scale_down(const RgbaImage& source, Size target) {
  const Size from = source.size;
  target.width = std::clamp<std::uint32_t>(target.width, 1, from.width);
  target.height = std::clamp<std::uint32_t>(target.height, 1, from.height);
  const std::vector<Span> columns = spans(from.width, target.width);
  const std::vector<Span> rows = spans(from.height, target.height);
  // Sums of weight * alpha and weight * colour * alpha: exact, below 2^42 for 64 Mpx.
  std::vector<std::uint64_t> row_sums(std::size_t{target.width} * kChannels);
  std::vector<std::uint64_t> sums(row_sums.size());
  std::int64_t summed_row = -1;  // a source row shared by two output rows is summed once
  const std::uint64_t area = std::uint64_t{from.width} * from.height;

  RgbaImage out;
  out.size = target;
  out.pixels.resize(std::size_t{target.width} * target.height * kChannels);
  for (std::uint32_t y = 0; y < target.height; ++y) {
    std::fill(sums.begin(), sums.end(), 0);
    const Span& row_span = rows[y];
    for (std::size_t k = 0; k < row_span.weights.size(); ++k) {
      const std::uint32_t source_row = row_span.first + static_cast<std::uint32_t>(k);
      if (summed_row != source_row) {
        const std::uint8_t* line =
            source.pixels.data() + std::size_t{source_row} * from.width * kChannels;
        for (std::uint32_t x = 0; x < target.width; ++x) {
          std::uint64_t* sum = &row_sums[std::size_t{x} * kChannels];
          std::fill(sum, sum + kChannels, 0);
          const Span& column = columns[x];
          for (std::size_t c = 0; c < column.weights.size(); ++c) {
            const std::uint8_t* pixel = line + (std::size_t{column.first} + c) * kChannels;
            const std::uint64_t weighted_alpha = column.weights[c] * pixel[3];
            sum[0] += weighted_alpha * pixel[0];
            sum[1] += weighted_alpha * pixel[1];
            sum[2] += weighted_alpha * pixel[2];
            sum[3] += weighted_alpha;
          }
        }
        summed_row = source_row;
      }
      const std::uint64_t weight = row_span.weights[k];
      for (std::size_t i = 0; i < sums.size(); ++i) sums[i] += weight * row_sums[i];
    }
    std::uint8_t* pixel = out.pixels.data() + std::size_t{y} * target.width * kChannels;
    for (std::uint32_t x = 0; x < target.width; ++x, pixel += kChannels) {
      const std::uint64_t* sum = &sums[std::size_t{x} * kChannels];
      for (std::size_t c = 0; c < 3; ++c) pixel[c] = rounded_ratio(sum[c], sum[3]);
      pixel[3] = rounded_ratio(sum[3], area);
    }
  }
  return out;
}

Expected<std::string, Problem> encode_png(const RgbaImage& image) {
  if (std::string problem = bound_problem(image.size); !problem.empty()) {
    return failure(std::move(problem));
  }
  const std::size_t pixel_count = std::size_t{image.size.width} * image.size.height;
  if (image.pixels.size() != pixel_count * kChannels) {
    return failure("the pixel buffer does not match the image size");
  }
  bool opaque = true;
  for (std::size_t i = 3; i < image.pixels.size() && opaque; i += kChannels) {
    opaque = image.pixels[i] == 255;
  }
  std::vector<std::uint8_t> rgb;
  if (opaque) {
    rgb.resize(pixel_count * 3);
    for (std::size_t i = 0; i < pixel_count; ++i) {
      std::memcpy(&rgb[i * 3], &image.pixels[i * kChannels], 3);
    }
  }
  const void* buffer = opaque ? static_cast<const void*>(rgb.data()) : image.pixels.data();
  // A first guess (screens compress well); libpng says how much more it needs, once.
  std::string out(pixel_count / 2 + 4096, '\0');
  for (int attempt = 0; attempt < 2; ++attempt) {
    png_image png = fresh_image();
    png.width = image.size.width;
    png.height = image.size.height;
    png.format = opaque ? PNG_FORMAT_RGB : PNG_FORMAT_RGBA;
    png_alloc_size_t size = out.size();
    const int written = png_image_write_to_memory(&png, out.data(), &size, 0, buffer, 0, nullptr);
    png_image_free(&png);
    if (written != 0) {
      out.resize(size);
      return out;
    }
    if (size <= out.size()) {
      return failure("could not encode the PNG image: " + libpng_message(png, "write failed"));
    }
    out.assign(size, '\0');
  }
  return failure("could not encode the PNG image: its size kept growing");
}

Expected<FittedPng, Problem> fit_png(std::string_view png, std::uint32_t max_dimension) {
  CLAWPERATOR_TRY_ASSIGN(const Size original, png_size(png));
  const Size target = fitted_size(original, max_dimension);
  if (target == original) return FittedPng{std::string(png), original, original};
  CLAWPERATOR_TRY_ASSIGN(const RgbaImage decoded, decode_png(png));
  CLAWPERATOR_TRY_ASSIGN(std::string encoded, encode_png(scale_down(decoded, target)));
  return FittedPng{std::move(encoded), original, target};
}

}  // namespace clawperator::image
