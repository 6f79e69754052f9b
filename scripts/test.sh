#!/usr/bin/env bash
# Builds everything twice (Release with g++, and Debug with ASan+UBSan with clang) and runs every
# test in both, plus the format check and a short run of each fuzz target. This is what CI runs.
#
# Where the time goes, and why each choice below was made: docs/performance.md, "CI time".
# Each stage's wall time is printed at the end (and kept in build/ci-stages.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."

stages=()
stage_started=0
stage() {
  finish_stage
  echo "== $1" >&2
  stages+=("$1")
  stage_started=$SECONDS
}
stage_times=()
finish_stage() {
  [[ ${#stages[@]} -gt ${#stage_times[@]} ]] && stage_times+=($((SECONDS - stage_started)))
  return 0
}
report_stages() {
  finish_stage
  local i
  mkdir -p build
  : >build/ci-stages.tsv
  for i in "${!stages[@]}"; do
    printf '%s\t%s\n' "${stage_times[$i]}" "${stages[$i]}" >>build/ci-stages.tsv
  done
  echo "== wall seconds per stage (total ${SECONDS} s)" >&2
  column -t -s $'\t' build/ci-stages.tsv >&2 || cat build/ci-stages.tsv >&2
}
trap report_stages EXIT

stage "packages (apt)"
# Everything at once, the sanitizer build's clang and libFuzzer included: one apt-get update.
scripts/install-deps.sh --node --browser --fuzz --video

stage "packages (npm)"
# The clients nobody here wrote, as their lockfiles pin them, from the npm registry: the MCP SDK
# and the MCP Inspector (ctests mcp_sdk, mcp_inspector_strict) and puppeteer-core (ctest browser;
# it drives Debian's chromium, never a downloaded browser).
(cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error)
(cd tests/browser && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)

jobs=$(nproc)
# The integration cases mostly wait on adb and the virtual devices (one ctest test per case,
# tests/integration/CMakeLists.txt): the Release run used a quarter of two cores at four at
# once, so it runs four per core (105 s -> 65 s; docs/performance.md, "CI time"). The sanitizer
# build's binaries are several times slower and its run is mostly CPU: two per core (267 s at
# three at once, 233 s at four); some cases bound a wait to a second, with margins for both.
test_jobs=$((jobs * 4))
sanitizer_test_jobs=$((jobs * 2))

source scripts/build-options.sh
command -v ccache >/dev/null && ccache --zero-stats >/dev/null

stage "format check"
git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror

# The README's first command, then its install, as a new user runs them: on a clean checkout the
# demo builds only what it needs (the release build below then adds the rest), and what it built
# must be enough for `cmake --install build`.
stage "quick start, then install (README)"
demo_log=$(mktemp)
scripts/demo.sh >"$demo_log" 2>&1 || { cat "$demo_log" >&2; exit 1; }
prefix=$(mktemp -d)
cmake --install build --prefix "$prefix" >/dev/null
"$prefix/bin/clawperator" --version >/dev/null
test -s "$prefix/share/man/man1/clawperator.1.gz"
test -s "$prefix/share/bash-completion/completions/clawperator"
rm -rf "$prefix" "$demo_log"

stage "release build (g++)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${build_options[@]}" >/dev/null
cmake --build build -j"$jobs"

stage "release tests"
ctest --test-dir build --output-on-failure -j"$test_jobs"

# clang at -O0 with line tables only compiles the instrumented build in ~60% of g++'s time with
# full debug information, and the reports keep file:line. Coverage instrumentation for libFuzzer
# (CLAWPERATOR_FUZZ) is in the same objects, so the fuzz targets link the core the tests link
# rather than a third build of it.
stage "sanitizer build (clang, ASan + UBSan, fuzz targets)"
CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
  -DCLAWPERATOR_ASAN=ON -DCLAWPERATOR_UBSAN=ON -DCLAWPERATOR_FUZZ=ON "${build_options[@]}" >/dev/null
cmake --build build-asan -j"$jobs"

stage "sanitizer tests"
# The Release run's times per test order this one (ctest starts the longest first), so that no
# long test starts last and runs alone at the end.
mkdir -p build-asan/Testing/Temporary
cp build/Testing/Temporary/CTestCostData.txt build-asan/Testing/Temporary/ 2>/dev/null || true
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$sanitizer_test_jobs"

stage "fuzz smoke (each target ${CLAWPERATOR_FUZZ_SECONDS:-15} s)"
CLAWPERATOR_FUZZ_BUILD=build-asan scripts/fuzz.sh "${CLAWPERATOR_FUZZ_SECONDS:-15}"

if command -v ccache >/dev/null; then
  stage "ccache"
  ccache --show-stats | grep -Ei 'hits|misses|cache size' >&2 || true
fi
