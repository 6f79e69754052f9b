// `adb version` output: which adb the host runs (doctor's host.adb.* checks).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clawperator::adb {

struct AdbVersion {
  std::string protocol;      // "1.0.41" (the line "Android Debug Bridge version 1.0.41")
  std::string release;       // "29.0.6-debian" (the line "Version 29.0.6-debian"), may be empty
  std::string installed_as;  // "/usr/lib/android-sdk/platform-tools/adb", may be empty
};

// nullopt when the text does not come from adb.
std::optional<AdbVersion> parse_adb_version(std::string_view text);

// The oldest adb whose behaviour we rely on: shell v2 (exit codes, separate stderr)
// arrived with 1.0.36 (Android 7).
inline constexpr std::string_view kMinimumAdbProtocol = "1.0.36";

// Compares dotted numeric versions ("1.0.41" >= "1.0.36"); false when unparsable.
bool version_at_least(std::string_view version, std::string_view minimum);

}  // namespace clawperator::adb
