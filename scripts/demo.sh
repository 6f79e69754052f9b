#!/usr/bin/env bash
# The quick start: installs what is missing, builds, and shows what the CLI
# does with the sample payloads under examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target clawperator
bin=build/src/clawperator

run() {
  printf '\n$ clawperator %s\n' "$*"
  set +e
  "$bin" "$@"
  printf '(exit %d)\n' "$?"
  set -e
}

echo "== valid payloads: validated and planned, no device needed"
run exec examples/snapshot.json --validate-only
run exec examples/login.json --dry-run
run --timeout 20000 exec examples/scroll.json --dry-run --output pretty

echo
echo "== one of each kind of validation error (exit 2, nothing sent)"
run exec examples/invalid/missing-uri.json --validate-only
run exec examples/invalid/unknown-action.json --validate-only
run exec examples/invalid/out-of-range.json --validate-only
run exec examples/invalid/unknown-key.json --validate-only
run exec examples/invalid/malformed.json --validate-only
run exec --validate-only
run exce
run errors NODE_NOT_FOUND
