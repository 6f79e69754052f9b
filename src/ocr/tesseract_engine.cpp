// Tesseract through its C API, opened with dlopen (include/clawperator/ocr/engine.hpp says why).
// The header is Debian libtesseract-dev's; the library is opened by the soname CMake found.
#include <tesseract/capi.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "clawperator/dynamic_symbol.hpp"
#include "clawperator/image/png_scale.hpp"
#include "clawperator/ocr/engine.hpp"

namespace clawperator::ocr {
namespace {

// The entry points used here, resolved once.
struct Tesseract {
  decltype(&TessBaseAPICreate) create = nullptr;
  decltype(&TessBaseAPIDelete) destroy = nullptr;
  decltype(&TessBaseAPIInit3) init = nullptr;
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
        !resolve_symbol(library, "TessBaseAPIInit3", api.init) ||
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
    return api;
  }();
  return loaded;
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
  // nullptr: TESSDATA_PREFIX, else the data directory Debian's build names.
  if (api.init(engine->handle, nullptr, language.c_str()) != 0) {
    api.destroy(engine->handle);
    return failed(OcrError::Kind::LanguageMissing, "Tesseract has no traineddata for '" + language +
                                                       "' (Debian: apt install tesseract-ocr-" +
                                                       language.substr(0, language.find('+')) +
                                                       "; or set TESSDATA_PREFIX)");
  }
  // A screen holds scattered labels, not paragraphs: find as much text as possible in no order.
  api.set_page_seg_mode(engine->handle, tesseract::PSM_SPARSE_TEXT);
  return engines.emplace(language, std::move(engine)).first->second.get();
}

// The region's pixels as 8-bit grey (what Tesseract binarises first anyway: a quarter of RGBA).
std::vector<std::uint8_t> grey_region(const image::RgbaImage& rgba, const Box& region) {
  std::vector<std::uint8_t> grey(static_cast<std::size_t>(region.width()) *
                                 static_cast<std::size_t>(region.height()));
  const std::size_t stride = rgba.size.width;
  std::size_t out = 0;
  for (long y = region.top; y < region.bottom; ++y) {
    for (long x = region.left; x < region.right; ++x) {
      const std::uint8_t* pixel =
          &rgba.pixels[(static_cast<std::size_t>(y) * stride + static_cast<std::size_t>(x)) * 4];
      // Rec. 601 luma, in integers.
      grey[out++] =
          static_cast<std::uint8_t>((299 * pixel[0] + 587 * pixel[1] + 114 * pixel[2]) / 1000);
    }
  }
  return grey;
}

}  // namespace

Expected<std::vector<Word>, OcrError> recognise_png(std::string_view png,
                                                    const RecogniseOptions& options) {
  if (!valid_language(options.language)) {
    return failed(OcrError::Kind::LanguageMissing,
                  "'" + options.language + "' is no Tesseract language name (eng, deu+eng, …)");
  }
  auto decoded = image::decode_png(png);
  if (!decoded) {
    return failed(OcrError::Kind::ImageInvalid, "the screenshot: " + decoded.error().text());
  }
  const long width = decoded->size.width;
  const long height = decoded->size.height;
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
  const std::vector<std::uint8_t> grey = grey_region(*decoded, region);

  const std::lock_guard busy((*engine)->busy);
  TessBaseAPI* handle = (*engine)->handle;
  const int columns = static_cast<int>(region.width());
  api->set_image(handle, grey.data(), columns, static_cast<int>(region.height()), 1, columns);
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
    word.box = Box{left + region.left, top + region.top, right + region.left, bottom + region.top};
    word.confidence = api->confidence(iterator, tesseract::RIL_WORD);
    word.line = line;
    words.push_back(std::move(word));
  } while (api->next(iterator, tesseract::RIL_WORD));
  api->delete_iterator(iterator);
  return words;
}

}  // namespace clawperator::ocr
