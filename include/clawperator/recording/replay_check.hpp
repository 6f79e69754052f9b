// `recording replay --verify` (docs/recording.md, "replay"): the screen the replay ended on
// against the last one the recording saw. Pure: both screens are hierarchies already read.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "clawperator/expected.hpp"
#include "clawperator/hierarchy/tree.hpp"
#include "clawperator/json.hpp"

namespace clawperator::recording {

// What two screens are compared by: the texts and resource ids of the nodes of the recorded
// screen's app (the package most of its nodes belong to: the status bar, a keyboard and other
// apps' windows do not make a replay diverge). Content descriptions, bounds and classes are
// left out: the first are often generated, the others move with the device.
struct ScreenLabels {
  std::set<std::string> texts;
  std::set<std::string> ids;
};

// The package most of `screen`'s nodes belong to (the first such in document order on a tie);
// empty when no node names one.
std::string app_of(const hierarchy::Tree& screen);
// The labels of `package`'s nodes (every node's when `package` is empty).
ScreenLabels labels_of(const hierarchy::Tree& screen, const std::string& package);

struct ScreenDifference {
  ScreenLabels recorded_only;  // on the recorded screen, not on the replayed one
  ScreenLabels replayed_only;  // the other way
  bool empty() const;
};

ScreenDifference compare_final_screens(const hierarchy::Tree& recorded,
                                       const hierarchy::Tree& replayed);
// The same with both screens as snapshots' XML; the error says why one cannot be read.
Expected<ScreenDifference, std::string> compare_snapshots(std::string_view recorded_xml,
                                                          std::string_view replayed_xml);
// {"texts": N, "ids": M}: what a match of the recorded screen was judged on.
Json labels_summary(std::string_view recorded_xml);

// {"recordedOnly": {"texts", "ids"}, "replayedOnly": {"texts", "ids"}}, each sorted.
Json to_json(const ScreenDifference& difference);

}  // namespace clawperator::recording
