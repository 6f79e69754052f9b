// Tesseract through its C API, opened with dlopen (include/clawperator/ocr/engine.hpp says why).
// The header is Debian libtesseract-dev's; the library is opened by the soname CMake found.
#include <tesseract/capi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "clawperator/dynamic_symbol.hpp"
#include "clawperator/image/png_scale.hpp"
#include "clawperator/ocr/engine.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::ocr {
namespace {

// The entry points used here, resolved once.
struct Tesseract {
  decltype(&TessBaseAPICreate) create = nullptr;
  decltype(&TessBaseAPIDelete) destroy = nullptr;
  decltype(&TessBaseAPIInit4) init = nullptr;
  decltype(&TessBaseAPISetVariable) set_variable = nullptr;
  decltype(&TessBaseAPISetPageSegMode) set_page_seg_mode = nullptr;
  decltype(&TessBaseAPISetImage) set_image = nullptr;
  decltype(&TessBaseAPISetSourceResolution) set_resolution = nullptr;
  decltype(&TessBaseAPIRecognize) recognize = nullptr;
  decltype(&TessBaseAPIGetIterator) iterator = nullptr;
  decltype(&TessResultIteratorGetPageIterator) page_iterator = nullptr;
  decltype(&TessPageIteratorIsAtBeginningOf) at_beginning_of = nullptr;
  decltype(&TessPageIteratorBoundingBox) bounding_box = nullptr;
  decltype(&TessResultIteratorGetUTF8Text) text = nullptr;
  decltype(&TessResultIteratorConfidence) confidence = nullptr;
  decltype(&TessResultIteratorNext) next = nullptr;
  decltype(&TessResultIteratorDelete) delete_iterator = nullptr;
  decltype(&TessDeleteText) delete_text = nullptr;
};

Unexpected<OcrError> failed(OcrError::Kind kind, std::string message) {
  return Unexpected(OcrError{kind, std::move(message)});
}

// Debian's Tesseract is built with OpenMP: its LSTM runs each line's gates on four threads,
// which on a phone screen's short lines wait for each other more than they work: on the two
// busy cores here a search took three times the CPU, and longer, than on one thread
// (docs/performance.md, "Text recognition"). With no active level allowed, no parallel region
// starts a team: the effect of OMP_THREAD_LIMIT=1, which Tesseract's documentation advises,
// without changing the environment under a server's other threads. Only Tesseract uses OpenMP
// here.
void one_thread_for_openmp(void* tesseract) {
  void (*set_max_active_levels)(int) = nullptr;
  if (resolve_symbol(tesseract, "omp_set_max_active_levels", set_max_active_levels)) {
    set_max_active_levels(0);
  }
}

// Loaded on the first recognition; never unloaded (a server's other threads may be in it).
const Expected<Tesseract, OcrError>& tesseract_library() {
  static const Expected<Tesseract, OcrError> loaded = []() -> Expected<Tesseract, OcrError> {
    void* library = ::dlopen(CLAWPERATOR_TESSERACT_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* why = ::dlerror();
      return failed(OcrError::Kind::EngineMissing,
                    std::string(CLAWPERATOR_TESSERACT_SONAME) + " could not be loaded" +
                        (why != nullptr ? std::string(": ") + why : std::string()));
    }
    Tesseract api;
    if (!resolve_symbol(library, "TessBaseAPICreate", api.create) ||
        !resolve_symbol(library, "TessBaseAPIDelete", api.destroy) ||
        !resolve_symbol(library, "TessBaseAPIInit4", api.init) ||
        !resolve_symbol(library, "TessBaseAPISetVariable", api.set_variable) ||
        !resolve_symbol(library, "TessBaseAPISetPageSegMode", api.set_page_seg_mode) ||
        !resolve_symbol(library, "TessBaseAPISetImage", api.set_image) ||
        !resolve_symbol(library, "TessBaseAPISetSourceResolution", api.set_resolution) ||
        !resolve_symbol(library, "TessBaseAPIRecognize", api.recognize) ||
        !resolve_symbol(library, "TessBaseAPIGetIterator", api.iterator) ||
        !resolve_symbol(library, "TessResultIteratorGetPageIterator", api.page_iterator) ||
        !resolve_symbol(library, "TessPageIteratorIsAtBeginningOf", api.at_beginning_of) ||
        !resolve_symbol(library, "TessPageIteratorBoundingBox", api.bounding_box) ||
        !resolve_symbol(library, "TessResultIteratorGetUTF8Text", api.text) ||
        !resolve_symbol(library, "TessResultIteratorConfidence", api.confidence) ||
        !resolve_symbol(library, "TessResultIteratorNext", api.next) ||
        !resolve_symbol(library, "TessResultIteratorDelete", api.delete_iterator) ||
        !resolve_symbol(library, "TessDeleteText", api.delete_text)) {
      return failed(OcrError::Kind::EngineMissing,
                    std::string(CLAWPERATOR_TESSERACT_SONAME) + " lacks a function of its C API");
    }
    one_thread_for_openmp(library);
    return api;
  }();
  return loaded;
}

// The LSTM recogniser alone (it measured the same as the default mode; said, so that a
// traineddata with the legacy models does not run both). Without the word lists: a screen's
// labels are names and numbers as often as words; with them no label more was found, and on
// one set of screens each search took a fifth longer (docs/performance.md, "Text
// recognition"). They can only be left out at initialisation.
int initialise(const Tesseract& api, TessBaseAPI* handle, const std::string& language) {
  static char load_system_dawg[] = "load_system_dawg";
  static char load_freq_dawg[] = "load_freq_dawg";
  static char no[] = "0";
  std::array<char*, 2> names{load_system_dawg, load_freq_dawg};
  std::array<char*, 2> values{no, no};
  // nullptr: TESSDATA_PREFIX, else the data directory Debian's build names.
  return api.init(handle, nullptr, language.c_str(), tesseract::OEM_LSTM_ONLY, nullptr, 0,
                  names.data(), values.data(), names.size(), 0);
}

// One initialised engine of a language, used by one call at a time.
struct Engine {
  TessBaseAPI* handle = nullptr;
  std::mutex busy;
};

bool valid_language(std::string_view language) {
  return !language.empty() && language.size() <= 64 &&
         std::all_of(language.begin(), language.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '+';
         });
}

// The engine of `language`, initialised once (loading its traineddata takes most of a first
// call); kept for the process's life.
Expected<Engine*, OcrError> engine_for(const Tesseract& api, const std::string& language) {
  static std::mutex mutex;
  // Never destroyed: at exit a server's call thread may still be in an engine, and an engine
  // freed with its handle still allocated would be a leak (LeakSanitizer says so); reachable
  // from here, it is neither.
  static auto& engines = *new std::map<std::string, std::unique_ptr<Engine>>();
  const std::lock_guard lock(mutex);
  if (const auto found = engines.find(language); found != engines.end()) {
    return found->second.get();
  }
  auto engine = std::make_unique<Engine>();
  engine->handle = api.create();
  if (engine->handle == nullptr) {
    return failed(OcrError::Kind::EngineMissing, "Tesseract could not create an engine");
  }
  // Its own diagnostics would go to stderr, beside ours: they are not our output.
  api.set_variable(engine->handle, "debug_file", "/dev/null");
  if (initialise(api, engine->handle, language) != 0) {
    api.destroy(engine->handle);
    return failed(OcrError::Kind::LanguageMissing, "Tesseract has no traineddata for '" + language +
                                                       "' (Debian: apt install tesseract-ocr-" +
                                                       language.substr(0, language.find('+')) +
                                                       "; or set TESSDATA_PREFIX)");
  }
  // A screen holds scattered labels, not paragraphs: find as much text as possible in no order.
  api.set_page_seg_mode(engine->handle, tesseract::PSM_SPARSE_TEXT);
  // The image is dark on light already (against_background): a line read again inverted,
  // when its confidence is low, found nothing more, and took up to a quarter more time.
  api.set_variable(engine->handle, "tessedit_do_invert", "0");
  return engines.emplace(language, std::move(engine)).first->second.get();
}

// What Tesseract reads: the region's pixels as 8-bit grey (what it binarises first anyway: a
// quarter of RGBA), scaled down as RecogniseOptions::downscale_short_side_to says; and how to
// map its pixels back onto the screen's.
struct ReadableImage {
  std::vector<std::uint8_t> grey;
  image::Size size;
  Box region;
  double scale_x = 1;  // the image's pixels per screen pixel
  double scale_y = 1;

  Box on_screen(int left, int top, int right, int bottom) const {
    return Box{region.left + static_cast<long>(std::floor(left / scale_x)),
               region.top + static_cast<long>(std::floor(top / scale_y)),
               region.left + static_cast<long>(std::ceil(right / scale_x)),
               region.top + static_cast<long>(std::ceil(bottom / scale_y))};
  }
};

image::RgbaImage cropped(const image::RgbaImage& rgba, const Box& region) {
  image::RgbaImage part;
  part.size = image::Size{static_cast<std::uint32_t>(region.width()),
                          static_cast<std::uint32_t>(region.height())};
  const std::size_t row_bytes = static_cast<std::size_t>(region.width()) * 4;
  part.pixels.resize(row_bytes * part.size.height);
  for (long y = region.top; y < region.bottom; ++y) {
    const std::uint8_t* from = &rgba.pixels[(static_cast<std::size_t>(y) * rgba.size.width +
                                             static_cast<std::size_t>(region.left)) *
                                            4];
    std::copy(from, from + row_bytes,
              part.pixels.begin() + static_cast<std::ptrdiff_t>(
                                        static_cast<std::size_t>(y - region.top) * row_bytes));
  }
  return part;
}

// Pixels in a flat run at least `run` long, across or down: a screen's backgrounds (pages,
// bars, buttons, cards) and the lines drawn on them (outlines, dividers) are flat; a glyph's
// strokes are shorter than a few times the text's height.
std::vector<bool> flat_background(const std::vector<std::uint8_t>& grey, image::Size size,
                                  std::size_t run) {
  const std::size_t width = size.width;
  const std::size_t height = size.height;
  std::vector<bool> flat(grey.size(), false);
  // Along one row or column: `count` pixels `step` apart from `first`.
  const auto mark_runs = [&](std::size_t first, std::size_t count, std::size_t step) {
    std::size_t start = 0;
    for (std::size_t i = 1; i <= count; ++i) {
      const bool ends =
          i == count || std::abs(int{grey[first + i * step]} - int{grey[first + start * step]}) > 2;
      if (!ends) continue;
      if (i - start >= run) {
        for (std::size_t k = start; k < i; ++k) flat[first + k * step] = true;
      }
      start = i;
    }
  };
  for (std::size_t y = 0; y < height; ++y) mark_runs(y * width, width, 1);
  for (std::size_t x = 0; x < width; ++x) mark_runs(x, height, width);
  return flat;
}

// Each pixel as its distance from the background nearest to it, dark on white whatever the
// colours: light text on a dark theme, a filled button or a coloured bar reads as dark text
// on a light page does (Tesseract binarises the whole page at one threshold, and a bar darker
// than it would hide its text), and outlines and dividers vanish into the background they are
// flat like (the virtual device outlines each node close around its text).
void against_background(std::vector<std::uint8_t>& grey, image::Size size, std::size_t run) {
  const std::vector<bool> flat = flat_background(grey, size, run);
  const std::size_t width = size.width;
  const std::size_t height = size.height;
  constexpr std::uint32_t kFar = 0xFFFFFFFF;
  // The nearest flat pixel's value (chamfer distance, two passes).
  std::vector<std::uint32_t> distance(grey.size(), kFar);
  std::vector<std::uint8_t> background(grey.size(), 0);
  for (std::size_t i = 0; i < grey.size(); ++i) {
    if (flat[i]) {
      distance[i] = 0;
      background[i] = grey[i];
    }
  }
  const auto take = [&](std::size_t to, std::size_t from, std::uint32_t step) {
    if (distance[from] != kFar && distance[from] + step < distance[to]) {
      distance[to] = distance[from] + step;
      background[to] = background[from];
    }
  };
  for (std::size_t y = 0; y < height; ++y) {
    for (std::size_t x = 0; x < width; ++x) {
      const std::size_t i = y * width + x;
      if (x > 0) take(i, i - 1, 3);
      if (y > 0) {
        take(i, i - width, 3);
        if (x > 0) take(i, i - width - 1, 4);
        if (x + 1 < width) take(i, i - width + 1, 4);
      }
    }
  }
  for (std::size_t y = height; y-- > 0;) {
    for (std::size_t x = width; x-- > 0;) {
      const std::size_t i = y * width + x;
      if (x + 1 < width) take(i, i + 1, 3);
      if (y + 1 < height) {
        take(i, i + width, 3);
        if (x + 1 < width) take(i, i + width + 1, 4);
        if (x > 0) take(i, i + width - 1, 4);
      }
    }
  }
  for (std::size_t i = 0; i < grey.size(); ++i) {
    if (distance[i] == kFar) continue;  // no flat background anywhere: as it is
    // Doubled: grey secondary text on a page, blue on a dark card, come out near black.
    const int away = std::abs(int{grey[i]} - int{background[i]}) * 2;
    grey[i] = static_cast<std::uint8_t>(255 - std::min(255, away));
  }
}

ReadableImage readable(const image::RgbaImage& screen, const Box& region,
                       std::uint32_t short_side_limit) {
  ReadableImage out;
  out.region = region;
  const std::uint32_t short_side = std::min(screen.size.width, screen.size.height);
  const double scale = short_side_limit != 0 && short_side > short_side_limit
                           ? static_cast<double>(short_side_limit) / short_side
                           : 1.0;
  const bool whole = region == Box{0, 0, screen.size.width, screen.size.height};
  image::RgbaImage part;
  if (!whole) part = cropped(screen, region);
  const image::RgbaImage& unscaled = whole ? screen : part;
  image::RgbaImage scaled;
  if (scale < 1) {
    const auto side = [scale](long length) {
      return static_cast<std::uint32_t>(std::max(1L, std::lround(length * scale)));
    };
    scaled = image::scale_down(unscaled, image::Size{side(region.width()), side(region.height())});
  }
  const image::RgbaImage& source = scale < 1 ? scaled : unscaled;
  out.size = source.size;
  out.scale_x = static_cast<double>(source.size.width) / region.width();
  out.scale_y = static_cast<double>(source.size.height) / region.height();
  out.grey.resize(static_cast<std::size_t>(source.size.width) * source.size.height);
  const std::uint8_t* pixel = source.pixels.data();
  for (std::uint8_t& grey : out.grey) {
    // Rec. 601 luma, in integers.
    grey = static_cast<std::uint8_t>((299 * pixel[0] + 587 * pixel[1] + 114 * pixel[2]) / 1000);
    pixel += 4;
  }
  // A twelfth of the screen's short side as read: 50 px at 600, longer than the tallest stroke
  // of 24 sp text there (about 25 px), shorter than the flat rows between lines of text.
  const auto run = static_cast<std::size_t>(std::lround(short_side * scale / 12));
  against_background(out.grey, out.size, std::max<std::size_t>(16, run));
  return out;
}

Expected<std::vector<Word>, OcrError> recognise(const image::RgbaImage& screen,
                                                const RecogniseOptions& options) {
  const long width = screen.size.width;
  const long height = screen.size.height;
  Box region{0, 0, width, height};
  if (options.region) {
    region = Box{std::clamp(options.region->left, 0L, width),
                 std::clamp(options.region->top, 0L, height),
                 std::clamp(options.region->right, 0L, width),
                 std::clamp(options.region->bottom, 0L, height)};
  }
  if (region.width() <= 0 || region.height() <= 0) {
    return failed(OcrError::Kind::ImageInvalid, "the region holds no pixel of the screenshot");
  }
  const auto& api = tesseract_library();
  if (!api) return Unexpected(api.error());
  auto engine = engine_for(*api, options.language);
  if (!engine) return Unexpected(engine.error());
  const ReadableImage image = readable(screen, region, options.downscale_short_side_to);

  const std::lock_guard busy((*engine)->busy);
  TessBaseAPI* handle = (*engine)->handle;
  const int columns = static_cast<int>(image.size.width);
  api->set_image(handle, image.grey.data(), columns, static_cast<int>(image.size.height), 1,
                 columns);
  // A phone's screen is read at about its own density; stating one keeps Tesseract from
  // guessing (and from saying so on stderr).
  api->set_resolution(handle, 300);
  if (api->recognize(handle, nullptr) != 0) {
    return failed(OcrError::Kind::RecognitionFailed, "Tesseract could not read the screenshot");
  }
  std::vector<Word> words;
  TessResultIterator* iterator = api->iterator(handle);
  if (iterator == nullptr) return words;  // nothing recognised
  std::size_t line = 0;
  bool first = true;
  do {
    const TessPageIterator* page = api->page_iterator(iterator);
    if (!first && api->at_beginning_of(page, tesseract::RIL_TEXTLINE)) ++line;
    first = false;
    char* text = api->text(iterator, tesseract::RIL_WORD);
    if (text == nullptr) continue;
    Word word;
    word.text = text;
    api->delete_text(text);
    int left = 0, top = 0, right = 0, bottom = 0;
    if (!api->bounding_box(page, tesseract::RIL_WORD, &left, &top, &right, &bottom)) continue;
    word.box = image.on_screen(left, top, right, bottom);
    word.confidence = api->confidence(iterator, tesseract::RIL_WORD);
    word.line = line;
    words.push_back(std::move(word));
  } while (api->next(iterator, tesseract::RIL_WORD));
  api->delete_iterator(iterator);
  return words;
}

// The words of the last kCachedRecognitions recognitions, most recent first.
class RecognitionCache {
 public:
  std::optional<std::vector<Word>> find(const std::string& key) {
    const std::lock_guard lock(mutex_);
    const auto found = std::find_if(entries_.begin(), entries_.end(),
                                    [&key](const Entry& entry) { return entry.key == key; });
    if (found == entries_.end()) return std::nullopt;
    std::rotate(entries_.begin(), found, found + 1);
    ++counts_.answered_from_cache;
    return entries_.front().words;
  }
  void keep(std::string key, const std::vector<Word>& words) {
    const std::lock_guard lock(mutex_);
    ++counts_.recognised;
    entries_.push_front(Entry{std::move(key), words});
    if (entries_.size() > kCachedRecognitions) entries_.pop_back();
  }
  RecognitionCounts counts() {
    const std::lock_guard lock(mutex_);
    return counts_;
  }

 private:
  struct Entry {
    std::string key;
    std::vector<Word> words;
  };
  std::mutex mutex_;
  std::deque<Entry> entries_;
  RecognitionCounts counts_;
};

RecognitionCache& recognition_cache() {
  // Never destroyed: a server's call thread may still use it at exit.
  static auto& cache = *new RecognitionCache();
  return cache;
}

// The PNG's SHA-256 and every option that changes what is read.
std::string cache_key(std::string_view png, const RecogniseOptions& options) {
  transport::Sha256 hash;
  hash.update(png);
  std::string key = hash.finish_hex() + ' ' + options.language + ' ' +
                    std::to_string(options.downscale_short_side_to);
  if (options.region) {
    for (const long side : {options.region->left, options.region->top, options.region->right,
                            options.region->bottom}) {
      key += ' ' + std::to_string(side);
    }
  }
  return key;
}

}  // namespace

Expected<std::vector<Word>, OcrError> recognise_png(std::string_view png,
                                                    const RecogniseOptions& options) {
  if (!valid_language(options.language)) {
    return failed(OcrError::Kind::LanguageMissing,
                  "'" + options.language + "' is no Tesseract language name (eng, deu+eng, …)");
  }
  std::string key = cache_key(png, options);
  if (auto cached = recognition_cache().find(key)) return std::move(*cached);
  const auto decoded = image::decode_png(png);
  if (!decoded) {
    return failed(OcrError::Kind::ImageInvalid, "the screenshot: " + decoded.error().text());
  }
  auto words = recognise(*decoded, options);
  if (words) recognition_cache().keep(std::move(key), *words);
  return words;
}

RecognitionCounts recognition_counts() {
  return recognition_cache().counts();
}

}  // namespace clawperator::ocr
