# Sourced by scripts/demo.sh and scripts/test.sh, which share the build/ directory: the same
# generator and options for both, so that neither reconfigures (or refuses) the other's build.
# Why each one: docs/performance.md, "CI time".
#
# Ninja; each folder's sources compiled in batches (cmake/ClawperatorUnity.cmake), a third of
# the CPU time of one file at a time, since the heavy headers are parsed and instantiated once
# a batch; and ccache when the machine has it (scripts/install-deps.sh installs it). A clone in
# another directory hits the same cache: base_dir makes the command lines relative and the
# hashed sources hold no absolute path (tests read theirs from one generated file each,
# cmake/ClawperatorTestLocations.cmake). Correct without a cache: it only ever skips a compile.
build_options=(-G Ninja -DCLAWPERATOR_UNITY=ON)
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
  build_options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
