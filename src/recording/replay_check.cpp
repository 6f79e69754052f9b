#include "clawperator/recording/replay_check.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

namespace clawperator::recording {
namespace {

std::set<std::string> only_in(const std::set<std::string>& from,
                              const std::set<std::string>& other) {
  std::set<std::string> out;
  std::set_difference(from.begin(), from.end(), other.begin(), other.end(),
                      std::inserter(out, out.end()));
  return out;
}

Json labels_json(const ScreenLabels& labels) {
  return Json{{"texts", labels.texts}, {"ids", labels.ids}};
}

}  // namespace

std::string app_of(const hierarchy::Tree& screen) {
  std::map<std::string, std::size_t> counts;
  std::vector<std::string> order;
  for (const hierarchy::Node& node : screen.nodes) {
    const std::string package(node.attribute("package"));
    if (package.empty()) continue;
    if (counts[package]++ == 0) order.push_back(package);
  }
  std::string app;
  std::size_t most = 0;
  for (const std::string& package : order) {
    if (counts[package] > most) {
      most = counts[package];
      app = package;
    }
  }
  return app;
}

ScreenLabels labels_of(const hierarchy::Tree& screen, const std::string& package) {
  ScreenLabels labels;
  for (const hierarchy::Node& node : screen.nodes) {
    if (!package.empty() && node.attribute("package") != package) continue;
    const std::string text(node.attribute("text"));
    if (!text.empty()) labels.texts.insert(text);
    const std::string id(node.attribute("resource-id"));
    if (!id.empty()) labels.ids.insert(id);
  }
  return labels;
}

bool ScreenDifference::empty() const {
  return recorded_only.texts.empty() && recorded_only.ids.empty() && replayed_only.texts.empty() &&
         replayed_only.ids.empty();
}

ScreenDifference compare_final_screens(const hierarchy::Tree& recorded,
                                       const hierarchy::Tree& replayed) {
  const std::string app = app_of(recorded);
  const ScreenLabels expected = labels_of(recorded, app);
  const ScreenLabels actual = labels_of(replayed, app);
  ScreenDifference difference;
  difference.recorded_only = {only_in(expected.texts, actual.texts),
                              only_in(expected.ids, actual.ids)};
  difference.replayed_only = {only_in(actual.texts, expected.texts),
                              only_in(actual.ids, expected.ids)};
  return difference;
}

Expected<ScreenDifference, std::string> compare_snapshots(std::string_view recorded_xml,
                                                          std::string_view replayed_xml) {
  auto recorded = hierarchy::parse(recorded_xml);
  if (!recorded) return Unexpected("the recorded screen: " + recorded.error().message);
  auto replayed = hierarchy::parse(replayed_xml);
  if (!replayed) return Unexpected(replayed.error().message);
  return compare_final_screens(*recorded, *replayed);
}

Json labels_summary(std::string_view recorded_xml) {
  auto recorded = hierarchy::parse(recorded_xml);
  if (!recorded) return Json{{"texts", 0}, {"ids", 0}};
  const ScreenLabels labels = labels_of(*recorded, app_of(*recorded));
  return Json{{"texts", labels.texts.size()}, {"ids", labels.ids.size()}};
}

Json to_json(const ScreenDifference& difference) {
  return Json{{"recordedOnly", labels_json(difference.recorded_only)},
              {"replayedOnly", labels_json(difference.replayed_only)}};
}

}  // namespace clawperator::recording
