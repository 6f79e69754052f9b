// How the Operator writes a result envelope to logcat (docs/wire-protocol.md §7.5): one
// `[Clawperator-Result] ` line when the canonical line fits, else `[Clawperator-Result-Chunk]`
// records of 1024-byte base64 slices — and the ways a faulty Operator or transport gets that
// wrong, for the scenario faults.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clawperator::vdevice::android {

// The tag the Operator logs its result records under.
inline constexpr const char* kResultTag = "ClawperatorResult";
inline constexpr std::size_t kChunkThresholdBytes = 3000;
inline constexpr std::size_t kChunkSliceBytes = 1024;

struct FramingFaults {
  bool bad_checksum = false;  // every record carries the digest of other bytes
  bool reorder = false;       // records 0 and 1 swap places
  bool duplicate = false;     // one record is written twice
  bool drop = false;          // the middle record is never written
  bool close_stream = false;  // readers are cut halfway through the records

  // Any of these forces chunk framing, so that a short result can exercise it too.
  bool any() const noexcept { return bad_checksum || reorder || duplicate || drop || close_stream; }
};

struct ResultRecords {
  std::vector<std::string> messages;     // log messages, in the order they are written
  std::optional<std::size_t> cut_after;  // cut live readers after this many messages
  bool chunked = false;
};

// `[Clawperator-Result] ` + the envelope's compact JSON.
std::string canonical_result_line(const std::string& envelope_json);

ResultRecords frame_result(const std::string& canonical_line, const std::string& command_id,
                           const std::string& task_id, std::size_t threshold,
                           const FramingFaults& faults = {});

}  // namespace clawperator::vdevice::android
