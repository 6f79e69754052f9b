// Which Operator versions this CLI speaks to (docs/wire-protocol.md §10).
// We are a separate implementation of the host, so the original's exact-equality
// rule does not apply: any release from kMinimumOperatorVersion up is compatible.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clawperator::contract {

struct ReleaseVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;
  friend auto operator<=>(const ReleaseVersion&, const ReleaseVersion&) = default;
};

inline constexpr ReleaseVersion kMinimumOperatorVersion{0, 5, 0};

// Trimmed, with one trailing "-d" (debug build) removed.
std::string normalize_version(std::string_view text);
// "X.Y.Z" only (after normalize_version); prereleases and build metadata are refused.
std::optional<ReleaseVersion> parse_release_version(std::string_view text);
std::string to_string(const ReleaseVersion& version);
// ">=0.5.0", as reported to users.
std::string supported_operator_range();

enum class Compatibility { Compatible, TooOld, Invalid };

// The verdict for a versionName read from the device.
Compatibility operator_compatibility(std::string_view apk_version_name);

}  // namespace clawperator::contract
