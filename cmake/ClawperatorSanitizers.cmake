# Sanitizers apply to every target of the build (library, binaries, tests),
# so that the instrumented library is never linked into an uninstrumented test.
set(_clawperator_sanitizers "")
if(CLAWPERATOR_ASAN)
  list(APPEND _clawperator_sanitizers address)
endif()
if(CLAWPERATOR_UBSAN)
  list(APPEND _clawperator_sanitizers undefined)
endif()
if(CLAWPERATOR_FUZZ)
  # Everything is instrumented for coverage; only the fuzz targets get libFuzzer's main.
  list(APPEND _clawperator_sanitizers fuzzer-no-link)
endif()
if(_clawperator_sanitizers)
  list(JOIN _clawperator_sanitizers "," _clawperator_sanitizer_list)
  add_compile_options(-fsanitize=${_clawperator_sanitizer_list} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_clawperator_sanitizer_list})
endif()
