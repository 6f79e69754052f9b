#!/bin/sh
# A stand-in for scrcpy 3.x (tests/integration/evidence_test.cpp): --version, and a recording
# with --record=FILE --time-limit=N made of ffmpeg's test pattern at real time; SIGTERM makes
# ffmpeg write the file's index, as scrcpy's own handler does. Options scrcpy 3 would not take
# from us are refused, so the test also checks the command line we build.
record= limit=
for argument in "$@"; do
  case "$argument" in
    --version) echo "scrcpy 3.1 <https://github.com/Genymobile/scrcpy>"; exit 0 ;;
    --record=*) record=${argument#--record=} ;;
    --time-limit=*) limit=${argument#--time-limit=} ;;
    --serial=?*|--max-size=[0-9]*|--no-window|--no-playback|--no-audio) ;;
    *) echo "ERROR: unexpected option $argument" >&2; exit 2 ;;
  esac
done
[ -n "$record" ] && [ -n "$limit" ] || { echo "ERROR: --record and --time-limit needed" >&2; exit 2; }
[ -n "$ADB" ] || { echo "ERROR: ADB is not set" >&2; exit 2; }
exec ffmpeg -nostdin -loglevel error -re -f lavfi -i testsrc=size=360x640:rate=10 -t "$limit" \
  -pix_fmt yuv420p -c:v libx264 -f mp4 "$record"
