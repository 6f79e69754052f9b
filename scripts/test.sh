#!/usr/bin/env bash
# Builds everything twice (Release, and Debug with ASan+UBSan) and runs every
# test in both, plus the format check and a short run of each fuzz target.
# This is what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
# Everything at once, the fuzz step's clang included: one apt-get update.
scripts/install-deps.sh --node --browser --fuzz
# The clients nobody here wrote, as their lockfiles pin them, from the npm registry: the MCP SDK
# (ctest mcp_sdk) and puppeteer-core (ctest browser; it drives Debian's chromium, never a
# downloaded browser).
(cd tests/mcp && npm ci --no-audit --no-fund --loglevel=error)
(cd tests/browser && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)

jobs=$(nproc)
# The integration cases mostly wait on adb and the virtual devices (one ctest test per case,
# tests/integration/CMakeLists.txt): twice as many at once as there are cores in Release. The
# sanitizer build's binaries are several times slower, and some cases bound a wait to a second:
# there, one case per core.
test_jobs=$((jobs * 2))

echo "== format check" >&2
git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror

echo "== release build" >&2
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$test_jobs"

echo "== sanitizer build (ASan + UBSan)" >&2
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCLAWPERATOR_ASAN=ON -DCLAWPERATOR_UBSAN=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"

echo "== fuzz smoke (each target ${CLAWPERATOR_FUZZ_SECONDS:-15} s)" >&2
scripts/fuzz.sh "${CLAWPERATOR_FUZZ_SECONDS:-15}"
