#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for the
# given number of seconds (default 30) on its corpus under tests/fuzz/corpus/.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(payload result_stream logcat_line envelope adb_output json_reader jsonrpc serve_body direct_frames)
scripts/install-deps.sh --fuzz
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLAWPERATOR_FUZZ=ON \
  -DCLAWPERATOR_ASAN=ON -DCLAWPERATOR_UBSAN=ON -DCLAWPERATOR_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")
for target in "${targets[@]}"; do
  corpus=tests/fuzz/corpus/$target
  work=$(mktemp -d)
  echo "== fuzz_$target for ${seconds}s" >&2
  status=0
  build-fuzz/tests/fuzz/fuzz_$target -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 "$work" "$corpus" >"$work.log" 2>&1 || status=$?
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done|SUMMARY)' "$work.log" || true
  rm -rf "$work"
  if [[ $status -ne 0 ]]; then
    tail -40 "$work.log" >&2
    echo "fuzz.sh: fuzz_$target found a problem (exit $status)" >&2
    exit 1
  fi
  rm -f "$work.log"
done
