// The words on a screenshot, read by Tesseract (Debian libtesseract5 with tesseract-ocr-eng;
// other languages from their tesseract-ocr-LANG packages). The library is opened with dlopen
// on the first recognition, as libcurl is (src/download/http.cpp): linked, it and Leptonica's
// image libraries would load at every start of `clawperator`, --version included; only the
// commands that read text on the screen pay for it (issue 51).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/ocr/recognised_text.hpp"

namespace clawperator::ocr {

struct RecogniseOptions {
  // Tesseract's language names joined by '+' ("eng", "deu+eng"): letters, digits, '_' and
  // '+' only.
  std::string language = "eng";
  // Only this part of the image is read (clipped to it); the words' boxes are still in the
  // image's coordinates.
  std::optional<Box> region;
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
// it), and its calls are serialised.
Expected<std::vector<Word>, OcrError> recognise_png(std::string_view png,
                                                    const RecogniseOptions& options = {});

}  // namespace clawperator::ocr
