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
  # The instrumented executables are linked at fixed addresses. As position-independent
  # executables each start costs the dynamic loader ~2.1 million relative relocations (the
  # coverage PC table, __sancov_pcs, and ASan's descriptors of every global) and the page faults
  # of applying them: 280 ms
  # of `clawperator --version`, against 113 ms without (LSan's exit scan is most of the rest).
  # The suites start these binaries thousands of times (docs/performance.md, "CI time"). Only this
  # test build changes; the release binaries stay position-independent.
  add_link_options($<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
endif()

# Under sanitizers the build is -O0 (scripts/test.sh: clang compiles it in ~60 % of g++'s time),
# except what the CPU-bound tests spend their time in: the JSON and result-transport layers,
# whose unit tests are exhaustive and differential loops (every UTF-8 boundary, random documents
# against nlohmann, every chunk sequence on both paths), those tests, and Catch's runner
# (catch_main), through which every one of their 127,000 assertions passes. At -O1 unit_json
# runs in 14 s instead of 41 s and unit_transport in 14 s instead of 65 s (alone, 2026-12-07),
# for about 40 s more of compiling when nothing is cached. ASan and UBSan insert their checks
# before the optimiser runs, so -O1 keeps them.
function(clawperator_optimise_under_sanitizers)
  if(NOT _clawperator_sanitizers)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    target_compile_options(${target} PRIVATE -O1)
  endforeach()
endfunction()
