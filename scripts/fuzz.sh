#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for the
# given number of seconds (default 30) on its corpus under tests/fuzz/corpus/.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(payload result_stream logcat_line envelope adb_output json_reader jsonrpc serve_body direct_frames recording_events shell_v2 report operator_metadata)
# CLAWPERATOR_FUZZ_BUILD names a build that already has the targets: CI's sanitizer build
# (scripts/test.sh), configured with CLAWPERATOR_FUZZ=ON, so the core is compiled once for both.
build=${CLAWPERATOR_FUZZ_BUILD:-build-fuzz}
if [[ -z ${CLAWPERATOR_FUZZ_BUILD:-} ]]; then
  scripts/install-deps.sh --fuzz
  CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLAWPERATOR_FUZZ=ON \
    -DCLAWPERATOR_ASAN=ON -DCLAWPERATOR_UBSAN=ON -DCLAWPERATOR_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")
# One fuzzer per core at a time (each is one single-threaded process): the CI smoke run takes
# half as long on two cores. Each one's report is printed when it ends, in target order.
fuzz_one() {
  local target=$1 corpus=tests/fuzz/corpus/$1 work status=0
  work=$(mktemp -d)
  "$build"/tests/fuzz/fuzz_$target -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 "$work" "$corpus" >"$logs/$target.log" 2>&1 || status=$?
  rm -rf "$work"
  echo "$status" >"$logs/$target.status"
}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
running=0
for target in "${targets[@]}"; do
  if ((running >= $(nproc))); then
    wait -n
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait
failed=""
for target in "${targets[@]}"; do
  echo "== fuzz_$target for ${seconds}s" >&2
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done|SUMMARY)' "$logs/$target.log" || true
  if [[ $(cat "$logs/$target.status") -ne 0 ]]; then
    tail -40 "$logs/$target.log" >&2
    echo "fuzz.sh: fuzz_$target found a problem (exit $(cat "$logs/$target.status"))" >&2
    failed=yes
  fi
done
[[ -z $failed ]]
