// A function of a library opened with dlopen, by name: how the libraries only some commands need
// are reached (libcurl: src/download/http.cpp; Tesseract: src/ocr/tesseract_engine.cpp), so
// that linking them does not load them, and their dependencies, at every start.
// Header-only and in no layer (cmake/CheckLayering.cmake).
#pragma once

#include <dlfcn.h>

namespace clawperator {

// Sets `out` to `library`'s `name`, a function of out's type; false when it has none.
template <typename Function>
bool resolve_symbol(void* library, const char* name, Function& out) {
  out = reinterpret_cast<Function>(::dlsym(library, name));
  return out != nullptr;
}

}  // namespace clawperator
