#include "vdevice/android/ui/font.hpp"

#include <ft2build.h>
#include FT_FREETYPE_H

#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "vdevice/android/ui/font_location.hpp"

namespace clawperator::vdevice::android {
namespace {

// 26.6 fixed point (FreeType's unit for pixel metrics) to whole pixels, rounded.
int whole_pixels(FT_Pos value) {
  return static_cast<int>((value + 32) >> 6);
}

}  // namespace

struct Font::State {
  std::string path;
  FT_Library library = nullptr;
  FT_Face face = nullptr;
  std::mutex mutex;
  // Keyed by size, then character: unordered_map keeps references to its values valid.
  std::unordered_map<std::uint64_t, Glyph> glyphs;
  std::map<int, LineMetrics> metrics;
  int current_size = 0;

  // FreeType's face holds one size at a time; called with the mutex held.
  void use_size(int pixel_size) {
    if (pixel_size == current_size) return;
    if (const FT_Error error = FT_Set_Pixel_Sizes(face, 0, static_cast<FT_UInt>(pixel_size))) {
      throw std::runtime_error("the virtual device's font " + path + " has no size " +
                               std::to_string(pixel_size) + " px (FreeType error " +
                               std::to_string(error) + ")");
    }
    current_size = pixel_size;
  }
};

Font::Font(const std::string& path) : state_(std::make_unique<State>()) {
  state_->path = path;
  if (const FT_Error error = FT_Init_FreeType(&state_->library)) {
    throw std::runtime_error("FreeType did not start (error " + std::to_string(error) + ")");
  }
  if (const FT_Error error = FT_New_Face(state_->library, path.c_str(), 0, &state_->face)) {
    FT_Done_FreeType(state_->library);
    throw std::runtime_error("the virtual device cannot load its font " + path +
                             " (FreeType error " + std::to_string(error) +
                             "): install fonts-roboto-unhinted (scripts/install-deps.sh) or set "
                             "CLAWPERATOR_VDEVICE_FONT to a TrueType font file");
  }
}

Font::~Font() {
  FT_Done_Face(state_->face);
  FT_Done_FreeType(state_->library);
}

const std::string& Font::path() const noexcept {
  return state_->path;
}

const Glyph& Font::glyph(char32_t character, int pixel_size) {
  const std::lock_guard lock(state_->mutex);
  const std::uint64_t key = (static_cast<std::uint64_t>(pixel_size) << 32) | character;
  if (auto found = state_->glyphs.find(key); found != state_->glyphs.end()) return found->second;
  state_->use_size(pixel_size);
  Glyph glyph;
  // A character the font lacks draws as its .notdef box (index 0), as Android's tofu does.
  const FT_UInt index = FT_Get_Char_Index(state_->face, character);
  if (FT_Load_Glyph(state_->face, index, FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL) == 0) {
    const FT_GlyphSlot slot = state_->face->glyph;
    const FT_Bitmap& bitmap = slot->bitmap;
    glyph.left = slot->bitmap_left;
    glyph.top = slot->bitmap_top;
    glyph.width = static_cast<int>(bitmap.width);
    glyph.rows = static_cast<int>(bitmap.rows);
    glyph.advance = whole_pixels(slot->advance.x);
    glyph.coverage.resize(static_cast<std::size_t>(glyph.width) *
                          static_cast<std::size_t>(glyph.rows));
    for (int y = 0; y < glyph.rows; ++y) {
      const unsigned char* row = bitmap.buffer + static_cast<std::ptrdiff_t>(y) * bitmap.pitch;
      std::copy(row, row + glyph.width,
                glyph.coverage.begin() + static_cast<std::ptrdiff_t>(y) * glyph.width);
    }
  }
  return state_->glyphs.emplace(key, std::move(glyph)).first->second;
}

LineMetrics Font::metrics(int pixel_size) {
  const std::lock_guard lock(state_->mutex);
  if (auto found = state_->metrics.find(pixel_size); found != state_->metrics.end()) {
    return found->second;
  }
  state_->use_size(pixel_size);
  const FT_Size_Metrics& size = state_->face->size->metrics;
  const LineMetrics metrics{whole_pixels(size.ascender), whole_pixels(-size.descender)};
  state_->metrics.emplace(pixel_size, metrics);
  return metrics;
}

Font& screen_font() {
  // Loaded once, on the first screen drawn: a device that is never captured needs no font.
  static Font font([] {
    const char* chosen = std::getenv("CLAWPERATOR_VDEVICE_FONT");
    return std::string(chosen != nullptr && *chosen != '\0' ? chosen : kBuiltFontFile);
  }());
  return font;
}

std::u32string decode_utf8(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const int length = lead < 0x80           ? 1
                       : (lead >> 5) == 0x6  ? 2
                       : (lead >> 4) == 0xE  ? 3
                       : (lead >> 3) == 0x1E ? 4
                                             : 0;
    char32_t code = length == 1   ? lead
                    : length == 2 ? (lead & 0x1FU)
                    : length == 3 ? (lead & 0x0FU)
                                  : (lead & 0x07U);
    bool valid = length > 0 && at + static_cast<std::size_t>(length) <= text.size();
    for (int i = 1; valid && i < length; ++i) {
      const auto next = static_cast<unsigned char>(text[at + static_cast<std::size_t>(i)]);
      valid = (next & 0xC0U) == 0x80U;
      code = (code << 6) | (next & 0x3FU);
    }
    if (!valid) {
      out += U'\uFFFD';
      ++at;
      continue;
    }
    out += code;
    at += static_cast<std::size_t>(length);
  }
  return out;
}

}  // namespace clawperator::vdevice::android
