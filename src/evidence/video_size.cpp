// The video size's rule (docs/evidence.md), on its own: the front ends check a request with it
// before anything starts, and the fuzz targets link it without the video session's I/O.
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "clawperator/evidence/video.hpp"

namespace clawperator::evidence {

Expected<void, Problem> check_video_size(std::string_view size) {
  const std::size_t x = size.find('x');
  int width = 0, height = 0;
  const auto whole = [](std::string_view text, int& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() && !text.empty() &&
           text.front() != '-' && text.front() != '+';
  };
  if (x == std::string_view::npos || !whole(size.substr(0, x), width) ||
      !whole(size.substr(x + 1), height)) {
    return Unexpected(Problem{"", "the size must be WIDTHxHEIGHT, such as 720x1280"});
  }
  if (width < 16 || height < 16 || width > 4096 || height > 4096 || width % 2 != 0 ||
      height % 2 != 0) {
    return Unexpected(Problem{"", "the width and height must be even numbers from 16 to 4096"});
  }
  return {};
}

}  // namespace clawperator::evidence
