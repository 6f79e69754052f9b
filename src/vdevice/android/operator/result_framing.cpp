#include "vdevice/android/operator/result_framing.hpp"

#include <algorithm>
#include <utility>

#include "clawperator/json.hpp"
#include "clawperator/transport/base64.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::vdevice::android {

std::string canonical_result_line(const std::string& envelope_json) {
  return "[Clawperator-Result] " + envelope_json;
}

ResultRecords frame_result(const std::string& canonical_line, const std::string& command_id,
                           const std::string& task_id, std::size_t threshold,
                           const FramingFaults& faults) {
  ResultRecords records;
  if (canonical_line.size() <= threshold && !faults.any()) {
    records.messages.push_back(canonical_line);
    return records;
  }
  records.chunked = true;
  const std::size_t count =
      std::max<std::size_t>(1, (canonical_line.size() + kChunkSliceBytes - 1) / kChunkSliceBytes);
  const std::string digest =
      transport::sha256_hex(faults.bad_checksum ? canonical_line + " (altered)" : canonical_line);
  for (std::size_t index = 0; index < count; ++index) {
    Json record = Json::object();
    record["commandId"] = command_id;
    record["taskId"] = task_id;
    record["index"] = index;
    record["count"] = count;
    record["byteLength"] = canonical_line.size();
    record["sha256"] = digest;
    record["data"] = transport::encode_base64(
        std::string_view(canonical_line).substr(index * kChunkSliceBytes, kChunkSliceBytes));
    records.messages.push_back("[Clawperator-Result-Chunk] " + dump_json(record));
  }
  auto& messages = records.messages;
  if (faults.reorder && messages.size() >= 2) std::swap(messages[0], messages[1]);
  if (faults.duplicate) {
    const std::size_t copied = std::min<std::size_t>(1, messages.size() - 1);
    std::string copy = messages[copied];
    messages.insert(messages.begin() + static_cast<std::ptrdiff_t>(copied) + 1, std::move(copy));
  }
  if (faults.drop) {
    messages.erase(messages.begin() + static_cast<std::ptrdiff_t>(messages.size() / 2));
  }
  if (faults.close_stream) records.cut_after = messages.size() / 2;
  return records;
}

}  // namespace clawperator::vdevice::android
