#!/usr/bin/env bash
# The quick start: installs what is missing, builds, starts a virtual Android
# device behind a private adb server, and runs real executions against it
# through the real adb. Everything started here is stopped when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
source scripts/build-options.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${build_options[@]}" >/dev/null
# cli_docs: the completions and man pages `cmake --install build` installs (README, "Install").
cmake --build build -j"$(nproc)" --target clawperator clawperator-vdevice cli_docs
export PATH="$PWD/build/src:$PWD/build/src/vdevice:$PATH"

cat <<'TXT'

== A virtual phone (clawperator-vdevice) behind a private adb server; then:
   clawperator devices
   clawperator doctor                                    (is everything ready? what to fix)
   clawperator exec examples/demo-snapshot-click.json   (open Settings, snapshot, click, read)
   clawperator exec examples/invalid/missing-uri.json   (a validation error: exit 2, nothing sent)
   clawperator errors NODE_NOT_FOUND
TXT
clawperator-vdevice with -- sh -c '
  show() { printf "\n$ clawperator %s\n" "$*"; clawperator "$@"; printf "(exit %d)\n" "$?"; }
  show devices --output pretty
  show doctor --output pretty
  show exec examples/demo-snapshot-click.json --output pretty
  show exec examples/invalid/missing-uri.json
  show errors NODE_NOT_FOUND
  true'
