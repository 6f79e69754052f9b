# Warnings are errors everywhere in our own code.
add_library(clawperator_warnings INTERFACE)
target_compile_options(clawperator_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Werror -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
# g++ 12 reports false -Wrestrict overlaps inside libstdc++'s std::string at -O2
# (GCC bug 105651); the check stays on for every other compiler.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(clawperator_warnings INTERFACE -Wno-restrict)
endif()
# In a unity batch (cmake/ClawperatorUnity.cmake) every .cpp but the batch itself is an included
# file, which g++ judges as a header: a class of a named namespace with a member of a type from
# the file's anonymous namespace (src/adb/server_relay.cpp's ServerRelay::Impl,
# src/exec/warm_followers.cpp's WarmFollowers::Pool) would break the ODR there, but a .cpp is
# included by one batch only.
if(CLAWPERATOR_UNITY AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(clawperator_warnings INTERFACE -Wno-subobject-linkage)
endif()
