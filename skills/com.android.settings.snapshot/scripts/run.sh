#!/bin/sh
# Skill com.android.settings.snapshot: opens Settings on its start screen and prints a
# snapshot. skills run sets CLAWPERATOR_BIN, CLAWPERATOR_DEVICE_ID and
# CLAWPERATOR_OPERATOR_PACKAGE; by hand, `clawperator` from PATH and the only connected device
# are used.
set -u

bin=${CLAWPERATOR_BIN:-clawperator}
set --
if [ -n "${CLAWPERATOR_DEVICE_ID:-}" ]; then
  set -- "$@" --device "$CLAWPERATOR_DEVICE_ID"
fi
if [ -n "${CLAWPERATOR_OPERATOR_PACKAGE:-}" ]; then
  set -- "$@" --operator-package "$CLAWPERATOR_OPERATOR_PACKAGE"
fi

command_id="settings-snapshot-$(date +%s)-$$"
execution='{"commandId":"'"$command_id"'","taskId":"settings-snapshot","source":"skill-settings-snapshot","expectedFormat":"android-ui-automator","timeoutMs":30000,"actions":[{"id":"close","type":"close_app","params":{"applicationId":"com.android.settings"}},{"id":"open","type":"open_app","params":{"applicationId":"com.android.settings"}},{"id":"snap","type":"snapshot"}]}'

output=$("$bin" exec "$@" --execution "$execution")
status=$?
printf '%s\n' "$output"
exit "$status"
