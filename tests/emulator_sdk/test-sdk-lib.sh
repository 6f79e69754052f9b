# Shared by the test SDK's tools (emulator, avdmanager, sdkmanager): where the AVDs are, what
# is installed, and the fault switches. Sourced, never run. See docs/vdevice.md, "The test SDK".

# Where the real tools keep AVDs: $ANDROID_AVD_HOME, else $ANDROID_USER_HOME/avd, else
# $HOME/.android/avd.
avd_home() {
  if [ -n "${ANDROID_AVD_HOME:-}" ]; then
    printf '%s\n' "$ANDROID_AVD_HOME"
  elif [ -n "${ANDROID_USER_HOME:-}" ]; then
    printf '%s\n' "$ANDROID_USER_HOME/avd"
  else
    printf '%s\n' "${HOME:?HOME is not set}/.android/avd"
  fi
}

# True when CLAWPERATOR_TEST_SDK_FAULT (comma-separated) names $1.
fault() {
  case ",${CLAWPERATOR_TEST_SDK_FAULT:-}," in
    *",$1,"*) return 0 ;;
    *) return 1 ;;
  esac
}

# True when the package path $2 is recorded installed in the SDK $1.
installed() {
  [ -f "$1/.installed" ] && grep -qxF -- "$2" "$1/.installed"
}
