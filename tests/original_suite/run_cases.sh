#!/usr/bin/env bash
# Runs each of the original's compiled test files (run.sh passes them, relative to its
# apps/node) in a node:test process of its own, the CLI stand-in pointing at BINARY.
#   run_cases.sh BINARY WORK FILE...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
binary=$1
work=$2
shift 2
for test_file in "$@"; do
  name=${test_file#dist/test/}
  name=${name%.test.js}
  echo "run_cases.sh: $name" >&2
  # A failing case is the classification's business, not a reason to stop.
  CLAWPERATOR_SUITE_FILE=$name CLAWPERATOR_UNDER_TEST=$binary \
    CLAWPERATOR_SUITE_INVOCATIONS=$work/invocations.jsonl \
    timeout --kill-after=10 900 node --import "$here/case_hooks.mjs" --test \
    --test-reporter="$here/reporter.mjs" "$test_file" >>"$work/results.jsonl" \
    2>>"$work/test-output.txt" || true
done
