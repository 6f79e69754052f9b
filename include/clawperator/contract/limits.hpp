// Limits of the execution payload contract (docs/payload.md §5, "Size and limits"). The Operator
// relies on them: they never loosen.
#pragma once

#include <cstddef>

namespace clawperator::contract::limits {

inline constexpr std::size_t kMaxExecutionActions = 50;
inline constexpr double kMinExecutionTimeoutMs = 1000;
inline constexpr double kMaxExecutionTimeoutMs = 120000;
// UTF-8 bytes of the compact, normalised execution JSON.
inline constexpr std::size_t kMaxPayloadBytes = 64000;
// Raw bytes read from a payload file or stdin before JSON parsing. Larger than
// kMaxPayloadBytes so that an indented payload still fits; anything above it is
// refused without being read whole.
inline constexpr std::size_t kMaxPayloadInputBytes = 1024 * 1024;
inline constexpr std::size_t kMaxIdLength = 128;
inline constexpr std::size_t kMaxSourceLength = 64;
inline constexpr std::size_t kMaxActionTypeLength = 64;
inline constexpr std::size_t kMaxMatcherValueLength = 512;
inline constexpr std::size_t kMaxUriLength = 2048;
inline constexpr std::size_t kMaxTextLength = 512;
inline constexpr std::size_t kMaxExpectedPackageLength = 512;
inline constexpr double kMaxSleepMs = 120000;
inline constexpr double kMaxWaitForNavigationMs = 30000;
inline constexpr double kMaxSettleDelayMs = 10000;
inline constexpr double kMaxScrollDurationMs = 120000;
inline constexpr int kMinMaxScrolls = 1;
inline constexpr int kMaxMaxScrolls = 200;
inline constexpr int kMinNoPositionChangeThreshold = 1;
inline constexpr int kMaxNoPositionChangeThreshold = 20;
// Declarative only: enforced by the Operator, documented for callers.
inline constexpr int kMaxRetryAttemptsPerStep = 10;
inline constexpr std::size_t kMaxSnapshotLines = 2000;
inline constexpr std::size_t kMaxSnapshotBytes = 262144;

}  // namespace clawperator::contract::limits
