#!/usr/bin/env bash
# The original Clawperator CLI's own CLI-level tests, run against this binary: its compiled
# tests spawn `node dist/cli/index.js …`, and cli_stand_in.mjs, copied there, runs ours with the
# same words. Each case that ran the CLI and failed must be listed in differences.tsv against a
# row of docs/compatibility.md (classify.mjs); the run exits 1 otherwise.
#
# Needs git, node (20 or newer) and npm, and reaches the original's repository and the npm
# registry. CI reaches neither GitHub nor the original, so a developer runs it (docs/
# compatibility.md §6); CI runs the harness's own test (tests/original_suite/harness_test.mjs).
#
#   tests/original_suite/run.sh [--source GIT-URL-OR-PATH] [--rev COMMIT] [--binary PATH]
#                               [--vdevice PATH] [--work DIR]
#
# The cases run with one virtual device behind a private adb server (clawperator-vdevice, by
# default beside the binary's folder), as a user's would run with a phone attached: a case that
# needs a device (skills run) reaches one, and no case reaches a real phone.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repository=$(cd "$here/../.." && pwd)
source_repository=https://github.com/clawperator/clawperator.git
# 0.5.3 (2026-03-28), the baseline docs/compatibility.md compares with.
revision=bc2878aedb190be877b1c0302ec0ff5cc8168402
binary=$repository/build/src/clawperator
vdevice=
work=${TMPDIR:-/tmp}/clawperator-original-suite

usage() {
  sed -n '/^#   tests/,/^$/p' "$0" | sed 's/^# \{0,3\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
    --source) source_repository=${2:?--source needs a value}; shift 2 ;;
    --rev) revision=${2:?--rev needs a value}; shift 2 ;;
    --binary) binary=${2:?--binary needs a value}; shift 2 ;;
    --vdevice) vdevice=${2:?--vdevice needs a value}; shift 2 ;;
    --work) work=${2:?--work needs a value}; shift 2 ;;
    -h | --help) usage ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
binary=$(realpath "$binary")
[[ -x $binary ]] || { echo "run.sh: no executable at $binary (build first)" >&2; exit 2; }
vdevice=$(realpath "${vdevice:-$(dirname "$binary")/vdevice/clawperator-vdevice}")
[[ -x $vdevice ]] || { echo "run.sh: no executable at $vdevice (build first)" >&2; exit 2; }

original=$work/original
mkdir -p "$work"
if [[ ! -d $original/.git ]]; then
  git clone --quiet --no-checkout "$source_repository" "$original"
fi
if ! git -C "$original" cat-file -e "$revision^{commit}" 2>/dev/null; then
  git -C "$original" fetch --quiet "$source_repository" "$revision" ||
    git -C "$original" fetch --quiet "$source_repository"
fi
git -C "$original" checkout --quiet --force --detach "$revision"

cd "$original/apps/node"
rm -rf dist
npm ci --no-audit --no-fund --loglevel=error >&2
npx --no-install tsc >&2
cp "$here/cli_stand_in.mjs" dist/cli/index.js

# The files whose cases spawn the CLI; the others test the original's modules in process.
mapfile -t test_files < <(grep -rlE '"cli", "index\.js"|cli/index\.js' dist/test \
  --include='*.test.js' | sort)

results=$work/results.jsonl
invocations=$work/invocations.jsonl
: >"$results"
: >"$invocations"
: >"$work/test-output.txt"
"$vdevice" with -- "$here/run_cases.sh" "$binary" "$work" "${test_files[@]}"

node "$here/classify.mjs" --results "$results" --invocations "$invocations" \
  --differences "$here/differences.tsv" --compatibility "$repository/docs/compatibility.md"
