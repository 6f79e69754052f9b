// A "virtual APK": a real ZIP file that the virtual device installs in place of an Android
// package. Its entry `vdevice-manifest.json` says which package it is:
//   {"package": "com.example.app", "versionName": "1.2", "versionCode": 12}
// `adb install` streams the file to `cmd package install`, which reads that entry; nothing else
// in the archive matters (filler only makes an APK as large as a test needs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::vdevice::android {

inline constexpr std::string_view kVirtualApkManifestEntry = "vdevice-manifest.json";

struct VirtualApkManifest {
  std::string package;
  std::string version_name;
  std::int64_t version_code = 0;
};

// Why `name` cannot be an Android package name (at least two '.'-separated segments, each a
// letter followed by letters, digits or '_'), if it cannot: a predicate of the name ("is
// empty", "has an empty segment"), no path.
Expected<void, Problem> check_package_name(std::string_view name);

// The bytes of a virtual APK: the manifest entry (deflated), then `filler_bytes` of
// deterministic pseudo-random data in assets/filler.bin (stored). The same arguments always
// give the same bytes. The manifest is written as given, unchecked, so
// that tests can build broken packages too.
std::string make_virtual_apk(const VirtualApkManifest& manifest, std::size_t filler_bytes = 0);

enum class ApkReadErrorKind {
  NotAnApk,           // not a ZIP archive at all
  ManifestMalformed,  // a ZIP, but without a readable, valid vdevice-manifest.json
};

struct ApkReadError {
  ApkReadErrorKind problem;
  std::string detail;
};

Expected<VirtualApkManifest, ApkReadError> read_virtual_apk(std::string_view bytes);

}  // namespace clawperator::vdevice::android
