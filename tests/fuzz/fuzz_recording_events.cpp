// The recording line parsers: the input is an NDJSON text, its first line read as the header and
// every other line as an event (what recording parse/compile/export read from a device's file),
// and each valid event's snapshot through the snapshot reader the compiler uses; then the whole
// text as `recording compare` reads its two files (an export, a saved skills run) and, when
// either is one, compared.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "clawperator/hierarchy/tree.hpp"
#include "clawperator/json.hpp"
#include "clawperator/recording/compare.hpp"
#include "clawperator/recording/events.hpp"
#include "clawperator/recording/exact_matcher.hpp"
#include "clawperator/utf8.hpp"

namespace {

namespace recording = clawperator::recording;
namespace hierarchy = clawperator::hierarchy;
using clawperator::Json;

// A small baseline with names to match: the app opened, a tap, a text entered.
recording::Baseline small_baseline() {
  recording::Baseline baseline;
  const auto event = [&baseline](std::string type, int seq) -> recording::BaselineEvent& {
    recording::BaselineEvent& added = baseline.events.emplace_back();
    added.type = std::move(type);
    added.seq = seq;
    added.package_name = "com.example.app";
    added.summary = added.type + ":com.example.app";
    return added;
  };
  event("window_change", 0).title = "Example";
  recording::BaselineEvent& tap = event("click", 1);
  tap.resource_id = "com.example.app:id/save";
  tap.text = "Save";
  recording::BaselineEvent& typed = event("text_change", 2);
  typed.text = "42";
  typed.has_text = true;
  return baseline;
}

void compare_readers(std::string_view text) {
  const Json script_result = {
      {"contractVersion", "1.0.0"},
      {"skillId", "s"},
      {"source", {{"kind", "script"}}},
      {"status", "success"},
      {"checkpoints", Json::array({{{"id", "app_opened"}, {"status", "ok"}},
                                   {{"id", "tapped"}, {"status", "ok"}, {"note", "Save"}}})}};
  if (auto baseline = recording::parse_compare_baseline(text)) {
    (void)recording::compare_with_skill_result(*baseline, script_result,
                                               recording::CompareMode::Auto);
  }
  if (auto result = recording::skill_result_of(clawperator::parse_json(text))) {
    for (const auto mode : {recording::CompareMode::Literal, recording::CompareMode::Semantic}) {
      for (const recording::Baseline& baseline : {recording::Baseline{}, small_baseline()}) {
        if (auto report = recording::compare_with_skill_result(baseline, *result, mode)) {
          (void)clawperator::dump_json(report->document);
        }
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  compare_readers(text);
  std::uint64_t line_number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;
    // The file reader refuses a line that is not UTF-8 before either parser sees it.
    if (clawperator::find_invalid_utf8(line)) continue;
    if (line_number == 1) {
      (void)recording::parse_header_line(line);
      continue;
    }
    auto event = recording::parse_event_line(line, line_number);
    if (!event) {
      (void)clawperator::dump_json(clawperator::contract::to_json(event.error()));
      continue;
    }
    (void)event->package_name();
    (void)recording::number_text(event->seq_json());
    if (const std::string* snapshot = event->snapshot()) {
      auto tree = hierarchy::parse(*snapshot);
      if (tree && !tree->nodes.empty()) {
        const hierarchy::Node& first = tree->nodes.front();
        (void)recording::count_matching_nodes(
            *tree,
            {std::string(first.attribute("resource-id")), std::string(first.attribute("text")),
             std::string(first.attribute("content-desc"))});
      }
    }
  }
  return 0;
}
