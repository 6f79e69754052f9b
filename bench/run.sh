#!/usr/bin/env bash
# Builds in Release and measures: whole-process start (--version, --help),
# validation, and exec against an instant fake adb (hyperfine); then the
# micro-benchmarks (Google Benchmark). Prints tables for docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --bench
build=build-bench
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLAWPERATOR_BUILD_TESTS=OFF \
  -DCLAWPERATOR_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
bin=$PWD/$build/src/clawperator
fake=$PWD/$build/bench/fake_adb

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export FAKE_ADB_DIR=$work CLAWPERATOR_STATE_DIR=$work/state ADB=$fake

payload=examples/snapshot.json
# One warm-up exec fills the readiness cache, as in an agent's loop.
"$bin" exec "$payload" --device fake-1 >/dev/null

hyperfine -N --warmup 20 --runs 300 --export-markdown "$work/process.md" \
  -n "clawperator --version" "$bin --version" \
  -n "clawperator --help" "$bin --help" \
  -n "exec --validate-only" "$bin exec $payload --validate-only" \
  -n "exec (fake adb, --device)" "$bin exec $payload --device fake-1" \
  -n "exec (fake adb, device discovery)" "$bin exec $payload"
echo "## Whole process (hyperfine)"
cat "$work/process.md"

echo
echo "## Peak RSS"
for args in "--version" "exec $payload --validate-only" "exec $payload --device fake-1"; do
  rss=$(/usr/bin/time -f %M "$bin" $args 2>&1 >/dev/null | tail -1)
  echo "- clawperator $args: ${rss} KiB"
done

echo
echo "## adb calls per exec (strace)"
if command -v strace >/dev/null; then
  strace -f -e trace=execve -o "$work/trace" "$bin" exec "$payload" --device fake-1 >/dev/null
  grep -c 'execve(".*fake_adb' "$work/trace" | sed 's/^/- spawns: /'
else
  echo "(install strace to count spawns)"
fi

echo
echo "## Micro-benchmarks"
"$PWD/$build/bench/micro_benchmarks" --benchmark_min_time=0.2
