# CPack: `cpack -G DEB` in the build directory makes a .deb with what
# `cmake --install` installs (the binaries, the shell completions, the man page, the README,
# docs/ and examples/ under share/doc/clawperator).
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "clawperator")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "Clawperator")
set(CPACK_PACKAGE_CONTACT "Clawperator maintainers <maintainers@clawperator.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "clawperator drives Android devices through adb from scripts, CI and AI agents.\n\
It prints one JSON document on stdout and exits with a documented code.")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
# Shared-library dependencies (libc; libstdc++ and libcrypto are linked statically).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# adb is Recommends, not Depends: --adb/$ADB may name an adb from the Android SDK
# (not a Debian package), --adb-server may use an adb server on another host, and
# `clawperator errors`, --validate-only and --dry-run need no adb at all. libcurl is opened
# only by `operator install` (src/download/http.cpp, dlopen: shlibdeps cannot see it), so it is
# recommended too; without it that command answers HOST_DEPENDENCY_MISSING.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "adb, libcurl4")

# Debian has no License field: the license goes in /usr/share/doc/PACKAGE/copyright.
file(WRITE ${CMAKE_BINARY_DIR}/copyright
  "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
  "Upstream-Name: clawperator\n\n"
  "Files: *\n"
  "Copyright: the clawperator authors\n"
  "License: Apache-2.0\n"
  " On Debian systems the full text is in /usr/share/common-licenses/Apache-2.0.\n")
install(FILES ${CMAKE_BINARY_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
# What a user reads and starts from: the README, docs/ and the example payloads and scenarios.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples DESTINATION ${CMAKE_INSTALL_DOCDIR})

include(CPack)
