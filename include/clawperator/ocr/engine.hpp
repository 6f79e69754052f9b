// The words on a screenshot, read by Tesseract (Debian libtesseract5 with tesseract-ocr-eng;
// other languages from their tesseract-ocr-LANG packages). The library is opened with dlopen
// on the first recognition, as libcurl is (src/download/http.cpp): linked, it and Leptonica's
// image libraries would load at every start of `clawperator`, --version included; only the
// commands that read text on the screen pay for it (issue 51).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/ocr/recognised_text.hpp"

namespace clawperator::ocr {

inline constexpr std::uint32_t kReadableShortSide = 600;

struct RecogniseOptions {
  // Tesseract's language names joined by '+' ("eng", "deu+eng"): letters, digits, '_' and
  // '+' only.
  std::string language = "eng";
  // Only this part of the image is read (clipped to it); the words' boxes are still in the
  // image's coordinates.
  std::optional<Box> region;
  // A screen whose shorter side is longer than this is read scaled down to it (0: never):
  // a phone is about 400 dp wide, so at 600 px its 14 sp text is still about 20 px tall, the
  // height Tesseract reads reliably, and a third of a 1080 px screen's pixels are read
  // (docs/performance.md, "Text recognition"). The scale is the whole screen's, a region's
  // too: it follows the screen's density. The words' boxes are in the screen's pixels either
  // way.
  std::uint32_t downscale_short_side_to = kReadableShortSide;
};

struct OcrError {
  enum class Kind {
    EngineMissing,    // libtesseract cannot be loaded, or lacks a function
    LanguageMissing,  // no traineddata for the language (or the name is not one)
    ImageInvalid,     // not a PNG we decode, or an empty region
    RecognitionFailed,
  };
  Kind kind = Kind::RecognitionFailed;
  std::string message;
};

// Every word Tesseract reads in `png`, in reading order, with its line number (Word::line).
// Thread-safe: one engine per language is kept for the process's life (a server's calls reuse
// it), and its calls are serialised. The words of the last kCachedRecognitions (PNG, options)
// pairs are kept, keyed by the PNG's SHA-256: the same screenshot searched again (another
// phrase in one command, a server's next call on an unchanged screen) is not read again.
Expected<std::vector<Word>, OcrError> recognise_png(std::string_view png,
                                                    const RecogniseOptions& options = {});

inline constexpr std::size_t kCachedRecognitions = 16;

// How often recognise_png, in this process, ran Tesseract and how often it answered from its
// cache instead; for a server's statistics and the tests.
struct RecognitionCounts {
  std::uint64_t recognised = 0;
  std::uint64_t answered_from_cache = 0;
};
RecognitionCounts recognition_counts();

}  // namespace clawperator::ocr
