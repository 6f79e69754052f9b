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
// How deep arrays and objects may nest in JSON a caller sends (a payload, an HTTP body):
// JSON_TOO_DEEP beyond. A payload nests about ten deep (execution, actions, params, a matcher
// and its ancestors); an evidence context is the caller's own object, 16 KiB at most.
inline constexpr std::size_t kMaxJsonDepth = 64;
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
// Notifications and media (docs/payload.md §8).
inline constexpr std::size_t kMaxApplicationIdLength = 512;
inline constexpr std::size_t kMaxMediaSessionIdLength = 128;
inline constexpr std::size_t kMaxNotificationKeyLength = 4096;
inline constexpr std::size_t kMaxNotificationActionIdLength = 128;
inline constexpr int kMaxListLimit = 100;
inline constexpr int kMaxListTextChars = 1024;
inline constexpr int kMaxObserveDurationMs = 30000;
inline constexpr int kMaxControlWaitMs = 30000;
inline constexpr double kMaxPositionMs = 9007199254740991.0;  // 2^53 - 1
inline constexpr int kMaxPositionToleranceMs = 60000;
// The on-screen log panel (docs/payload.md §9).
inline constexpr std::size_t kMaxPanelTextLength = 2048;
inline constexpr int kMaxPanelOffsetDp = 1000;
inline constexpr int kMinPanelWidthDp = 80;
inline constexpr int kMaxPanelWidthDp = 600;
inline constexpr int kMinPanelFontSizeSp = 8;
inline constexpr int kMaxPanelFontSizeSp = 24;
inline constexpr int kMinPanelTtlMs = 1000;
inline constexpr int kMaxPanelTtlMs = 3600000;
// query_ui (docs/payload.md §10.1).
inline constexpr int kMinQueryLimit = 1;
inline constexpr int kMaxQueryLimit = 1000;
inline constexpr int kDefaultQueryLimit = 100;
// A screen point's coordinates: non-negative 32-bit integers.
inline constexpr double kMaxPointCoordinate = 2147483647;
// swipe durationMs, drag holdDurationMs and moveDurationMs.
inline constexpr double kMinGestureDurationMs = 1;
inline constexpr double kMaxGestureDurationMs = 10000;
// show_toast text, in UTF-16 code units.
inline constexpr std::size_t kMaxToastTextLength = 2048;
// The Operator's own cap on query_ui's data.query, in UTF-8 bytes: PAYLOAD_TOO_LARGE above it.
inline constexpr std::size_t kMaxQueryResultBytes = 262144;
// Compact snapshots (snapshot --compact, docs/contract.md §3.3).
inline constexpr int kMaxCompactNodes = 1000;
inline constexpr int kDefaultCompactNodes = 100;
inline constexpr int kMaxCompactTextChars = 4096;
inline constexpr int kDefaultCompactTextChars = 256;
// Declarative only: enforced by the Operator, documented for callers.
inline constexpr int kMaxRetryAttemptsPerStep = 10;
inline constexpr std::size_t kMaxSnapshotLines = 2000;
inline constexpr std::size_t kMaxSnapshotBytes = 262144;

}  // namespace clawperator::contract::limits
