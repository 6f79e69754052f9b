#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the demo need, only
# those missing. Needs root (or sudo) when something must be installed.
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev catch2 libssl-dev
  zlib1g-dev libzip-dev libexpat1-dev
  adb clang-format
)
for option in "$@"; do
  case "$option" in
    --bench) packages+=(libbenchmark-dev hyperfine strace time) ;;
    # libFuzzer and the sanitizer runtimes come with Debian's clang.
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    *) echo "install-deps: unknown option $option (use --bench, --fuzz)" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo for: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
