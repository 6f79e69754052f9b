// The baseline of `recording compare` (docs/recording.md "compare"): a recording's export
// (`recording export`'s file) read event by event and reduced to what the comparison reads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::recording {

// One export event reduced to what compare reads of it (its snapshot is not kept).
struct BaselineEvent {
  std::string type;          // window_change, click, scroll, press_key, text_change
  Json seq;                  // as recorded
  std::string package_name;  // empty for press_key (it has none) and when the event's is ""
  // What the event did, as recorded; empty when its field is null or the type has none: a
  // click's resourceId, text and contentDesc, a text change's resourceId and text, a window
  // change's title.
  std::string resource_id, text, content_desc, title;
  std::string summary;    // "click:<package>:<text>" … as the report shows it
  bool has_text = false;  // a text_change whose text is not blank
  // A click whose package, id, text, description or snapshot mentions (any case) the word.
  bool mentions_discharge = false, mentions_save = false, mentions_confirm = false;
};

struct Baseline {
  std::vector<BaselineEvent> events;
};

// Reads an export file (recording export's) event by event, so that one with every snapshot
// included costs the memory of its largest event; a file over kMaxCompareBaselineBytes is
// refused unread. RECORDING_COMPARE_FAILED when the file cannot be read or is not an export of
// exportVersion 1 (details.path, details.reason).
inline constexpr std::uintmax_t kMaxCompareBaselineBytes = std::uintmax_t{512} << 20;
contract::Outcome<Baseline> read_compare_baseline(const std::filesystem::path& path);
// The same from text already in memory (the fuzz target's and the unit tests').
contract::Outcome<Baseline> parse_compare_baseline(std::string_view text);

// RECORDING_COMPARE_FAILED with `message` and `details`: every failure of `recording compare`.
Unexpected<contract::HostError> compare_failure(std::string message, Json details = Json::object());

}  // namespace clawperator::recording
