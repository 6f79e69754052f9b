#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the demo need, only
# those missing. Needs root (or sudo) when something must be installed.
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  # scripts/test.sh builds with Ninja and caches compiles with ccache (docs/performance.md, "CI time").
  ninja-build ccache
  # lld links in a fifth of GNU ld's time (cmake/ClawperatorLinker.cmake).
  lld
  libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev catch2 libssl-dev
  zlib1g-dev libzip-dev libexpat1-dev
  # The MCP screenshot's maxDimension: PNG decode and encode (linked statically).
  libpng-dev
  # The virtual device draws the screen's text with FreeType and Roboto, Android's own font
  # (src/vdevice/CMakeLists.txt finds the file; DejaVu Sans when Roboto is missing).
  libfreetype-dev fonts-roboto-unhinted
  adb clang-format
  # clawperator serve: the HTTP library, the XML parser of /query, curl for its API tests
  libcpp-httplib-dev libexpat1-dev curl
  # operator install: libcurl's headers (the library is loaded on the first download); the
  # tests make a certificate authority with openssl for their HTTPS server.
  libcurl4-openssl-dev openssl
  # webview: Boost.Beast (header-only) speaks HTTP and WebSocket to DevTools
  # (src/webview/cdp_client.cpp); the tests drive a real headless Chromium when it is there.
  libboost-dev
  # Text on the screen the tree does not hold (issue 51): Tesseract's C API header (the library
  # is opened on the first recognition: src/ocr/tesseract_engine.cpp) and its English data.
  libtesseract-dev tesseract-ocr-eng
  # The install test renders the man pages (man -l, col); the completion tests drive bash,
  # fish and zsh (on a pseudo-terminal: tests/cli/zsh_complete.zsh) through their own completion.
  man-db bsdextrautils bash fish zsh
  # A JUnit reader nobody here wrote reads the reports of --report junit=FILE (tests/report).
  python3-junitparser
  # The CI recipe's test reads examples/ci/github-actions.yml with a YAML parser nobody here
  # wrote and runs its steps, which read provision's output with jq (tests/ci/).
  python3-yaml jq
)
for option in "$@"; do
  case "$option" in
    # The OCR benchmark draws its screens with these fonts (bench/ocr_screens.py; Roboto is
    # the build's).
    --bench)
      packages+=(libbenchmark-dev libsimdjson-dev hyperfine strace time)
      packages+=(fonts-dejavu-core fonts-liberation2 fonts-noto-core)
      ;;
    # libFuzzer and the sanitizer runtimes come with Debian's clang.
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    # The clients nobody here wrote (tests/mcp: the MCP SDK; tests/browser: puppeteer-core):
    # Node.js and npm, kept when another origin's node (e.g. NodeSource's, with its npm) is there.
    --node)
      command -v node >/dev/null || packages+=(nodejs)
      command -v npm >/dev/null || packages+=(npm)
      ;;
    # Video and screen evidence: ffprobe checks every recording (docs/evidence.md), the tests
    # read the virtual device's MP4s with it and decode them with ffmpeg, and read the words it
    # draws on its screenshots with Tesseract (tests/integration/drawn_text_test.cpp).
    --video) packages+=(ffmpeg tesseract-ocr) ;;
    # The inspector's browser test drives Debian's chromium (never a downloaded browser).
    --browser) packages+=(chromium) ;;
    *) echo "install-deps: unknown option $option (use --bench, --fuzz, --node, --browser, --video)" >&2; exit 2 ;;
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
