# lld when it is installed (Debian `lld`, scripts/install-deps.sh): it links the test binaries in
# a fifth of GNU ld's time (tests/unit/unit_tests: 0.34 s against 1.9 s, docs/performance.md
# "CI time"), which is most of a one-file rebuild once the file itself is compiled. The
# binaries are the same program either way; -DCLAWPERATOR_LLD=OFF keeps the system linker.
option(CLAWPERATOR_LLD "Link with lld when the compiler can use it" ON)
if(CLAWPERATOR_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld CLAWPERATOR_HAVE_LLD)
  if(CLAWPERATOR_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
