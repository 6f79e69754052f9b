#!/bin/sh
# Skill com.example.settings.about-phone: two executions, each a checkpoint of the result line
# (docs/skills.md, "The result line"). skills run sets CLAWPERATOR_BIN and ANDROID_SERIAL.
set -u
bin=${CLAWPERATOR_BIN:-clawperator}
payloads="$(cd "$(dirname "$0")/.." && pwd)/payloads"

# Runs one payload (its JSON document goes to our stdout) and says how it went.
checkpoint() {
  if "$bin" exec "$payloads/$1.json"; then outcome=ok; else outcome=failed; fi
}

checkpoint settings-opened
opened=$outcome
about=skipped
if [ "$opened" = ok ]; then
  checkpoint about-phone-shown
  about=$outcome
fi
status=failed
if [ "$opened" = ok ] && [ "$about" = ok ]; then status=success; fi

printf '[Clawperator-Skill-Result]{"contractVersion":"1.0.0","skillId":"com.example.settings.about-phone","status":"%s","checkpoints":[{"id":"settings_opened","status":"%s"},{"id":"about_phone_shown","status":"%s"}]}\n' \
  "$status" "$opened" "$about"
[ "$status" = success ]
