# The instant fake adb (tests/support/fake_adb.cpp), shared by the binary tests and the
# benchmarks: defined once, whichever of them is configured first.
function(clawperator_add_fake_adb)
  if(TARGET fake_adb)
    return()
  endif()
  add_executable(fake_adb ${PROJECT_SOURCE_DIR}/tests/support/fake_adb.cpp
                          ${PROJECT_SOURCE_DIR}/src/transport/sha256.cpp)
  target_include_directories(fake_adb PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(fake_adb PRIVATE clawperator_warnings OpenSSL::Crypto)
endfunction()
