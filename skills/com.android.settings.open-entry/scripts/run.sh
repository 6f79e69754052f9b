#!/bin/sh
# Skill com.android.settings.open-entry: runs its artifact with ENTRY_TEXT (default
# "Network & internet") through `clawperator exec --skill`. skills run sets CLAWPERATOR_BIN,
# CLAWPERATOR_DEVICE_ID and CLAWPERATOR_OPERATOR_PACKAGE; by hand, `clawperator` from PATH
# and the only connected device are used.
set -u

bin=${CLAWPERATOR_BIN:-clawperator}
entry_text=${ENTRY_TEXT:-Network & internet}
set --
if [ -n "${CLAWPERATOR_DEVICE_ID:-}" ]; then
  set -- "$@" --device "$CLAWPERATOR_DEVICE_ID"
fi
if [ -n "${CLAWPERATOR_OPERATOR_PACKAGE:-}" ]; then
  set -- "$@" --operator-package "$CLAWPERATOR_OPERATOR_PACKAGE"
fi
# The registry next to this script, whatever the caller's working directory.
registry="$(cd "$(dirname "$0")/../.." && pwd)/skills-registry.json"

# The value goes into --vars as a JSON string: backslashes and quotes escaped.
escaped=$(printf '%s' "$entry_text" | sed 's/\\/\\\\/g; s/"/\\"/g')
output=$(CLAWPERATOR_SKILLS_REGISTRY="$registry" "$bin" exec "$@" \
  --skill com.android.settings.open-entry --artifact open-entry \
  --vars "{\"ENTRY_TEXT\":\"$escaped\"}")
status=$?
printf '%s\n' "$output"
exit "$status"
