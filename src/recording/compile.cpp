#include "clawperator/recording/compile.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "clawperator/contract/limits.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/hierarchy/match.hpp"
#include "clawperator/hierarchy/tree.hpp"
#include "clawperator/recording/exact_matcher.hpp"
#include "clawperator/recording/recording_file.hpp"
#include "clawperator/recording/warnings.hpp"
#include "clawperator/text.hpp"

namespace clawperator::recording {
namespace {

// Room left in a payload for its own keys, under the validator's 64000 bytes.
constexpr std::size_t kCompiledPayloadActionBytes = contract::limits::kMaxPayloadBytes - 1000;
constexpr std::size_t kCompiledSessionIdChars = 100;
// A payload's timeoutMs beyond its actions': the broadcast, the queue, the result's way back.
constexpr int kPayloadOverheadMs = 5000;
// A payload's timeoutMs at least (the Operator's own habit for a short one).
constexpr int kMinPayloadTimeoutMs = 30000;

// JavaScript's length: UTF-16 code units (the validator's limits count them).
std::size_t compile_utf16_length(std::string_view text) {
  std::size_t units = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) == 0x80) continue;
    units += byte >= 0xF0 ? 2 : 1;
  }
  return units;
}

// A value a matcher field can hold: non-blank and within the validator's limit.
bool usable_matcher_value(const std::string* value) {
  return value != nullptr && !is_blank(*value) &&
         compile_utf16_length(*value) <= contract::limits::kMaxMatcherValueLength;
}

Json matcher_json(const ExactMatcher& matcher) {
  return contract::to_json(node_matcher(matcher));
}

std::string describe_matcher(const ExactMatcher& matcher) {
  return dump_json(matcher_json(matcher));
}

// A node of `nodes` that names its screen on its own: the first with a resource-id no other
// node has, else such a text, else such a content-desc.
std::optional<ExactMatcher> landmark_of(const hierarchy::Tree& nodes) {
  for (int field = 0; field < 3; ++field) {
    for (const hierarchy::Node& node : nodes.nodes) {
      ExactMatcher candidate;
      const std::string value(node.attribute(field == 0   ? "resource-id"
                                             : field == 1 ? "text"
                                                          : "content-desc"));
      if (!usable_matcher_value(&value)) continue;
      (field == 0   ? candidate.resource_id
       : field == 1 ? candidate.text
                    : candidate.content_desc) = value;
      if (count_matching_nodes(nodes, candidate) == 1) return candidate;
    }
  }
  return std::nullopt;
}

// A scroll container's offsets as the recording reports them (pixels on a phone's ScrollView,
// items on the virtual device; both grow toward the end of the content).
struct ScrollOffsets {
  double x = 0;
  double y = 0;
};

// "down" when the content moved so that what is below shows (the offset grew), as the
// payload's scroll directions mean it (docs/payload.md §4); nullopt when it did not move.
std::optional<std::string> direction_between(const ScrollOffsets& from, const ScrollOffsets& to) {
  const double dx = to.x - from.x;
  const double dy = to.y - from.y;
  if (dx == 0 && dy == 0) return std::nullopt;
  if (std::abs(dy) >= std::abs(dx)) return dy > 0 ? "down" : "up";
  return dx > 0 ? "right" : "left";
}

// The same, from two screens: the first text both show once whose node moved. A phone's
// RecyclerView reports no offsets (always 0), so this is what tells its direction.
std::optional<std::string> direction_between(const hierarchy::Tree& before,
                                             const hierarchy::Tree& after) {
  for (const hierarchy::Node& node : after.nodes) {
    const std::string text(node.attribute("text"));
    if (!usable_matcher_value(&text)) continue;
    const contract::NodeMatcher matcher = node_matcher({"", text, ""});
    const auto in_before = hierarchy::find_nodes(before, matcher);
    if (in_before.size() != 1 || hierarchy::count_matches(after, matcher) != 1) continue;
    const auto was = hierarchy::bounds_of(before.nodes[in_before.front()]);
    const auto is = hierarchy::bounds_of(node);
    if (!was || !is) continue;
    // The content moved up the screen: what is below came into view.
    if (is->top != was->top) return is->top < was->top ? "down" : "up";
    if (is->left != was->left) return is->left < was->left ? "right" : "left";
  }
  return std::nullopt;
}

// Whether a node `matcher` names in `nodes` lies inside a scrollable one: a scroll can bring it
// into view.
bool inside_scrollable(const hierarchy::Tree& nodes, const ExactMatcher& matcher) {
  for (std::size_t index : hierarchy::find_nodes(nodes, node_matcher(matcher))) {
    for (int parent = nodes.nodes[index].parent; parent >= 0;
         parent = nodes.nodes[static_cast<std::size_t>(parent)].parent) {
      if (nodes.nodes[static_cast<std::size_t>(parent)].attribute("scrollable") == "true")
        return true;
    }
  }
  return false;
}

// twice the gap, bounded (compile.hpp, kCompiledWaitMinMs).
int wait_timeout_for_gap(double gap_ms) {
  const double doubled = std::isfinite(gap_ms) ? 2 * gap_ms : 0;
  return static_cast<int>(std::clamp(doubled, static_cast<double>(kCompiledWaitMinMs),
                                     static_cast<double>(kCompiledWaitMaxMs)));
}

class RecordingCompiler {
 public:
  RecordingCompiler(WarningList& warnings, const CompileOptions& options)
      : warnings_(warnings), options_(options) {}

  void visit(const RecordingEvent& event) {
    where_ = "line " + std::to_string(event.line) + " (seq " + number_text(event.seq_json()) + ")";
    now_ms_ = event.ts_json().get<double>();
    // A scroll's snapshot is never an anchor: the replay waits for the screen before the
    // scroll, and the one after it is the next step's to show.
    if (event.type == EventType::Scroll) return scroll(event);
    // The screen's nodes as this event saw them: for a click, the screen before it; for the
    // step before (or the scrolls before), the screen that step led to. Parsed only when one of
    // the two is needed.
    std::optional<hierarchy::Tree> nodes;
    const std::string* snapshot = event.snapshot();
    if (snapshot != nullptr &&
        (event.type == EventType::Click || event.type == EventType::WindowChange ||
         awaiting_anchor_ || scrolls_)) {
      auto read = hierarchy::parse(*snapshot);
      if (read) {
        nodes = std::move(*read);
        snapshot_xml_ = *snapshot;
      } else {
        warn("snapshot is not a readable hierarchy (" + read.error().message + "); not used");
      }
    }
    // Only a tap can be what a scroll was for. The back key's snapshot is the screen the
    // scrolls led to; a window change's is a new one.
    if (scrolls_ && event.type != EventType::Click) {
      replay_scrolls_by_position(event.type == EventType::PressKey ? nodes : std::nullopt);
    }
    if (awaiting_anchor_ && nodes) take_anchor(*nodes);
    switch (event.type) {
      case EventType::WindowChange:
        return window_change(event, nodes);
      case EventType::Click:
        return click(event, nodes);
      case EventType::PressKey:
        return press_back();
      case EventType::TextChange:
        return text_change(event);
      case EventType::Scroll:
        return;
    }
  }

  void finish() {
    flush_text();
    if (scrolls_) replay_scrolls_by_position(std::nullopt);
    // The last screen the recording saw, when a snapshot came after the last step.
    if (!actions_.empty() && anchor_nodes_) {
      if (auto landmark = landmark_of(*anchor_nodes_)) {
        add_wait(*landmark, wait_timeout_for_gap(anchor_ms_ - last_step_ms_));
      }
    }
  }

  std::vector<Json>& actions() { return actions_; }
  // The last screen the recording saw after its last step (its snapshot's XML), when a snapshot
  // showed it.
  std::optional<std::string> final_screen() const {
    if (!anchor_nodes_) return std::nullopt;
    return anchor_xml_;
  }

 private:
  // Consecutive scroll events of one container, not yet replayed: what they were for is known
  // only at the next step.
  struct ScrollRun {
    std::string container_key;  // packageName and resourceId
    std::optional<std::string> container_id;
    ScrollOffsets before;  // the container's offsets before the first scroll
    struct Scroll {
      std::string where;
      double ms = 0;
      ScrollOffsets from, to;
    };
    std::vector<Scroll> scrolls;
    // The screen the previous step led to, when a snapshot showed it before the scrolls.
    std::optional<hierarchy::Tree> screen_before;
  };

  void warn(const std::string& text) { warnings_.add(where_ + ": " + text); }

  void add_action(std::string type, Json params) {
    Json action = Json::object();
    action["id"] = type + "-" + std::to_string(actions_.size() + 1);
    action["type"] = std::move(type);
    action["params"] = std::move(params);
    actions_.push_back(std::move(action));
  }

  void add_wait(const ExactMatcher& anchor, int timeout_ms) {
    Json params = Json::object();
    params["matcher"] = matcher_json(anchor);
    params["timeoutMs"] = timeout_ms;
    add_action("wait_for_node", std::move(params));
  }

  // Before a step that follows another: wait for the screen the previous step led to, named by
  // this step's own target when that screen shows it, else by a landmark of that screen; for
  // as long as the recording took to get there from the previous step (`step_ms` this step's
  // time), bounded.
  void wait_before(const std::optional<ExactMatcher>& target, double step_ms) {
    if (actions_.empty()) return;
    if (!anchor_nodes_) {
      warn(
          "no snapshot between the previous step and this one, so the replay does not wait for "
          "the screen before it");
      return;
    }
    const int timeout_ms = wait_timeout_for_gap(step_ms - last_step_ms_);
    if (target && count_matching_nodes(*anchor_nodes_, *target) >= 1) {
      return add_wait(*target, timeout_ms);
    }
    if (auto landmark = landmark_of(*anchor_nodes_)) return add_wait(*landmark, timeout_ms);
    warn(
        "the screen before this step has no node with a unique resource-id, text or "
        "content-desc, so the replay does not wait for it");
  }

  // `nodes`: the current event's snapshot, read.
  void take_anchor(hierarchy::Tree nodes) {
    anchor_nodes_ = std::move(nodes);
    anchor_xml_ = snapshot_xml_;
    anchor_ms_ = now_ms_;
    awaiting_anchor_ = false;
  }

  // `step_ms`: when the step the action replays happened.
  void after_step(double step_ms) {
    anchor_nodes_.reset();
    awaiting_anchor_ = true;
    last_step_ms_ = step_ms;
  }

  void window_change(const RecordingEvent& event, const std::optional<hierarchy::Tree>& nodes) {
    if (nodes) focus_on_new_screen(*nodes);
    if (opened_app_) return;
    const std::string_view package = event.package_name();
    if (is_blank(package)) {
      warn("window change without a packageName; no open_app made of it");
      return;
    }
    opened_app_ = true;
    flush_text();
    Json params = Json::object();
    params["applicationId"] = std::string(package);
    if (options_.close_app_first) add_action("close_app", params);
    add_action("open_app", std::move(params));
    after_step(now_ms_);
    // The window's own snapshot is the screen the launch led to.
    if (nodes) take_anchor(*nodes);
  }

  void click(const RecordingEvent& event, const std::optional<hierarchy::Tree>& nodes) {
    flush_text();
    const std::string* resource_id = event.optional_string("resourceId");
    const std::string* text = event.optional_string("text");
    const std::string* content_desc = event.optional_string("contentDesc");
    std::vector<ExactMatcher> candidates;
    auto candidate = [&](const std::string* id, const std::string* label, const std::string* desc) {
      if ((id != nullptr && !usable_matcher_value(id)) ||
          (label != nullptr && !usable_matcher_value(label)) ||
          (desc != nullptr && !usable_matcher_value(desc)))
        return;
      candidates.push_back({id ? *id : "", label ? *label : "", desc ? *desc : ""});
    };
    // Most stable first: an id survives relabelling and translation, a text a layout change.
    const std::string* none = nullptr;
    if (usable_matcher_value(resource_id)) candidate(resource_id, none, none);
    if (usable_matcher_value(text)) candidate(none, text, none);
    if (usable_matcher_value(content_desc)) candidate(none, none, content_desc);
    if (usable_matcher_value(resource_id) && usable_matcher_value(text))
      candidate(resource_id, text, none);
    if (usable_matcher_value(resource_id) && usable_matcher_value(content_desc))
      candidate(resource_id, none, content_desc);
    if (usable_matcher_value(text) && usable_matcher_value(content_desc))
      candidate(none, text, content_desc);

    if (candidates.empty()) {
      if (scrolls_) replay_scrolls_by_position(nodes);
      return coordinate_click(event);
    }
    ExactMatcher chosen = candidates.front();
    bool strict = false;
    if (!nodes) {
      warn("no snapshot before the click, so whether " + describe_matcher(chosen) +
           " is unique is unknown; clicked without strict");
    } else {
      std::optional<ExactMatcher> unique;
      std::optional<std::pair<ExactMatcher, std::size_t>> present;
      for (const ExactMatcher& matcher : candidates) {
        const std::size_t count = count_matching_nodes(*nodes, matcher);
        if (count == 1) {
          unique = matcher;
          break;
        }
        if (count > 1 && !present) present = std::make_pair(matcher, count);
      }
      if (unique) {
        chosen = *unique;
        strict = true;
      } else if (present) {
        chosen = present->first;
        warn(describe_matcher(chosen) + " matches " + std::to_string(present->second) +
             " nodes in the snapshot before the click; the replay clicks the first (no strict)");
      } else {
        warn("the clicked node's " + describe_matcher(chosen) +
             " is not in the snapshot before the click; the replay may not find it");
      }
    }
    // scroll_until stops once the target is in its container, so the click needs no wait.
    if (!(scrolls_ && scroll_to(chosen, nodes))) wait_before(chosen, now_ms_);
    Json params = Json::object();
    params["matcher"] = matcher_json(chosen);
    if (strict) params["strict"] = true;
    add_action("click", std::move(params));
    focused_ = chosen;
    after_step(now_ms_);
  }

  void scroll(const RecordingEvent& event) {
    flush_text();
    const std::string* resource_id = event.optional_string("resourceId");
    const bool named = usable_matcher_value(resource_id);
    std::string key(event.package_name());
    key += '\n';
    if (named) key += *resource_id;
    if (scrolls_ && scrolls_->container_key != key) replay_scrolls_by_position(std::nullopt);
    const ScrollOffsets to{event.fields.at("scrollX").get<double>(),
                           event.fields.at("scrollY").get<double>()};
    // A container first seen here is taken to have started at its origin.
    const ScrollOffsets from = offsets_.contains(key) ? offsets_[key] : ScrollOffsets{};
    offsets_[key] = to;
    if (!scrolls_) {
      scrolls_.emplace();
      scrolls_->container_key = key;
      if (named) scrolls_->container_id = *resource_id;
      scrolls_->before = from;
      // The screen before the scroll is the previous step's anchor; one recorded after the
      // scroll would show what the replay has not scrolled to yet.
      scrolls_->screen_before = anchor_nodes_;
      awaiting_anchor_ = false;
    }
    scrolls_->scrolls.push_back({where_, now_ms_, from, to});
  }

  // The scrolls' direction as a whole: by their offsets, else by how the screen's nodes moved
  // between the screen before them and `after`.
  std::optional<std::string> run_direction(const std::optional<hierarchy::Tree>& after) const {
    if (auto by_offsets = direction_between(scrolls_->before, scrolls_->scrolls.back().to)) {
      return by_offsets;
    }
    if (scrolls_->screen_before && after)
      return direction_between(*scrolls_->screen_before, *after);
    return std::nullopt;
  }

  // `params` with the scrolls' direction and their container, when the recording names it.
  Json scroll_params(const std::string& direction, Json params = Json::object()) const {
    params["direction"] = direction;
    if (scrolls_->container_id) params["container"] = {{"resourceId", *scrolls_->container_id}};
    return params;
  }

  // The scrolls before a tap on `target` (`nodes` the screen at the tap): a scroll_until toward
  // it when the scrolls brought it on screen. False when they were not needed for it: they are
  // then replayed by position, before the tap's own wait.
  bool scroll_to(const ExactMatcher& target, const std::optional<hierarchy::Tree>& nodes) {
    // Not on the screen before the scrolls; when no snapshot showed that screen, a target inside
    // a scrollable node is searched for (scroll_until ends at once when it is already there),
    // one outside could never be scrolled to.
    const bool needed = scrolls_->screen_before
                            ? count_matching_nodes(*scrolls_->screen_before, target) == 0
                            : nodes && inside_scrollable(*nodes, target);
    if (!needed) {
      replay_scrolls_by_position(nodes);
      return false;
    }
    const std::string saved = where_;
    where_ = scrolls_->scrolls.front().where;
    const std::string direction = direction_or_down(run_direction(nodes));
    // Wait for the screen the scrolls started from (the target is not on it yet).
    wait_before(std::nullopt, scrolls_->scrolls.front().ms);
    Json params = scroll_params(direction, Json{{"matcher", matcher_json(target)}});
    const auto recorded = static_cast<int>(
        std::min<std::size_t>(scrolls_->scrolls.size(), contract::limits::kMaxMaxScrolls));
    const int max_scrolls =
        std::min(2 * recorded + kCompiledExtraScrolls, contract::limits::kMaxMaxScrolls);
    params["maxScrolls"] = max_scrolls;
    params["maxDurationMs"] = max_scrolls * kCompiledScrollBudgetMs;
    add_action("scroll_until", std::move(params));
    scrolls_.reset();
    where_ = saved;
    return true;
  }

  std::string direction_or_down(const std::optional<std::string>& direction) {
    if (direction) return *direction;
    warn(
        "neither the scroll's offsets nor the screens around it tell its direction; replayed "
        "as down");
    return "down";
  }

  // Scrolls no tap needed: each replayed as the same scroll in its container, which holds only
  // for the same screen size and content. `after`: the screen after them, when known.
  void replay_scrolls_by_position(const std::optional<hierarchy::Tree>& after) {
    const std::string saved = where_;
    where_ = scrolls_->scrolls.front().where;
    const std::optional<std::string> overall = run_direction(after);
    wait_before(std::nullopt, scrolls_->scrolls.front().ms);
    for (const ScrollRun::Scroll& recorded : scrolls_->scrolls) {
      where_ = recorded.where;
      const std::optional<std::string> own = direction_between(recorded.from, recorded.to);
      const std::string direction = direction_or_down(own ? own : overall);
      warn("scroll replayed by position (scroll " + direction +
           (scrolls_->container_id ? " in " + *scrolls_->container_id : std::string()) +
           "): no later tap needed it to find its target, so it holds only for the same screen "
           "size and content");
      add_action("scroll", scroll_params(direction));
    }
    const double last_ms = scrolls_->scrolls.back().ms;
    scrolls_.reset();
    where_ = saved;
    after_step(last_ms);
    // The tap after the scrolls saw the screen they led to.
    if (after) take_anchor(*after);
  }

  // A new screen that opens with a field focused (a search screen) takes typed text there,
  // whatever was clicked to reach it: the Operator's text_change names no field
  // (docs/recording.md, "compile"). The field is named by its resource-id (its text is what
  // changes), with its content-desc when the id alone is not unique.
  void focus_on_new_screen(const hierarchy::Tree& nodes) {
    const auto field = std::find_if(
        nodes.nodes.begin(), nodes.nodes.end(),
        [](const hierarchy::Node& node) { return node.attribute("focused") == "true"; });
    if (field == nodes.nodes.end()) return;
    flush_text();
    const std::string resource_id(field->attribute("resource-id"));
    const std::string content_desc(field->attribute("content-desc"));
    std::vector<ExactMatcher> candidates;
    if (usable_matcher_value(&resource_id)) candidates.push_back({resource_id, "", ""});
    if (usable_matcher_value(&content_desc)) {
      candidates.push_back({"", "", content_desc});
      if (!candidates.front().resource_id.empty()) {
        candidates.push_back({resource_id, "", content_desc});
      }
    }
    for (const ExactMatcher& candidate : candidates) {
      if (count_matching_nodes(nodes, candidate) == 1) {
        focused_ = candidate;
        return;
      }
    }
  }

  void coordinate_click(const RecordingEvent& event) {
    const Json& bounds = event.fields.at("bounds");
    const double left = bounds.at("left").get<double>();
    const double top = bounds.at("top").get<double>();
    const double right = bounds.at("right").get<double>();
    const double bottom = bounds.at("bottom").get<double>();
    focused_.reset();
    if (!(left >= 0 && top >= 0 && right > left && bottom > top)) {
      warn("the click has no resourceId, text, contentDesc or bounds; not replayed");
      return;
    }
    const auto x = static_cast<long long>(std::floor((left + right) / 2));
    const auto y = static_cast<long long>(std::floor((top + bottom) / 2));
    warn(
        "the click has no resourceId, text or contentDesc; replayed as a tap at the centre of "
        "its bounds (" +
        std::to_string(x) + ", " + std::to_string(y) +
        "), which holds only for the same screen size and layout");
    wait_before(std::nullopt, now_ms_);
    Json coordinate = Json::object();
    coordinate["x"] = x;
    coordinate["y"] = y;
    Json params = Json::object();
    params["coordinate"] = std::move(coordinate);
    add_action("click", std::move(params));
    after_step(now_ms_);
  }

  void press_back() {
    flush_text();
    wait_before(std::nullopt, now_ms_);
    Json params = Json::object();
    params["key"] = "back";
    add_action("press_key", std::move(params));
    focused_.reset();
    after_step(now_ms_);
  }

  void text_change(const RecordingEvent& event) {
    if (!focused_) {
      warn("text change with no clicked field before it to type into; not replayed");
      return;
    }
    // Each change carries the field's whole text: the last one of a run is what was typed.
    if (!pending_text_) {
      screen_before_text_ = anchor_nodes_.has_value();
      pending_text_ms_ = now_ms_;
    }
    pending_text_ = event.fields.at("text").get<std::string>();
    pending_where_ = where_;
  }

  void flush_text() {
    if (!pending_text_) return;
    const std::string text = std::move(*pending_text_);
    pending_text_.reset();
    const std::string saved = where_;
    where_ = pending_where_;
    if (text.empty()) {
      warn("the field was emptied; enter_text needs text, so this is not replayed");
    } else if (compile_utf16_length(text) > contract::limits::kMaxTextLength) {
      warn("the text is longer than enter_text's " +
           std::to_string(contract::limits::kMaxTextLength) + " characters; not replayed");
    } else {
      // A screen recorded between the last step and the typing (a search screen opening): the
      // replay waits for it before typing there.
      if (screen_before_text_) wait_before(*focused_, pending_text_ms_);
      Json params = Json::object();
      params["matcher"] = matcher_json(*focused_);
      params["text"] = text;
      // The event holds the field's whole text: replace what is there, do not append.
      params["clear"] = true;
      add_action("enter_text", std::move(params));
    }
    where_ = saved;
  }

  WarningList& warnings_;
  const CompileOptions& options_;
  std::string where_;
  double now_ms_ = 0;        // the event's ts
  double last_step_ms_ = 0;  // when the step the last action replays happened
  double anchor_ms_ = 0;     // when anchor_nodes_ was recorded
  std::vector<Json> actions_;
  bool opened_app_ = false;
  bool awaiting_anchor_ = false;
  std::optional<hierarchy::Tree> anchor_nodes_;
  std::string anchor_xml_;    // anchor_nodes_ as the recording wrote them
  std::string snapshot_xml_;  // the current event's snapshot, once read
  std::optional<ExactMatcher> focused_;
  std::optional<std::string> pending_text_;
  bool screen_before_text_ = false;
  std::string pending_where_;
  double pending_text_ms_ = 0;
  std::optional<ScrollRun> scrolls_;
  std::map<std::string, ScrollOffsets> offsets_;  // the last seen, by container_key
};

// What an action is given in its payload's timeoutMs: a wait its timeout, a scroll_until its
// own limit and a look at the screen, any other kCompiledActionBudgetMs.
int action_budget_ms(const Json& action) {
  const Json& params = action.at("params");
  if (action.at("type") == "wait_for_node") return params.at("timeoutMs").get<int>();
  if (action.at("type") == "scroll_until") {
    return params.at("maxDurationMs").get<int>() + kCompiledActionBudgetMs;
  }
  return kCompiledActionBudgetMs;
}

Json payload_shell(const std::string& command_id, const std::string& task_id, int timeout_ms) {
  Json payload = Json::object();
  payload["commandId"] = command_id;
  payload["taskId"] = task_id;
  payload["source"] = "clawperator-recording";
  payload["expectedFormat"] = "android-ui-automator";
  payload["timeoutMs"] = timeout_ms;
  payload["actions"] = Json::array();
  return payload;
}

}  // namespace

std::string compiled_command_id(const std::string& session_id) {
  std::string id = "recording-";
  for (const char c : session_id.substr(0, kCompiledSessionIdChars)) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_';
    id += safe ? c : '_';
  }
  return id;
}

contract::Outcome<CompiledRecording> compile_recording(const std::filesystem::path& input,
                                                       const CompileOptions& options) {
  CLAWPERATOR_TRY_ASSIGN(auto file, RecordingFile::open(input));
  if (auto scanned = file.scan([](const RecordingEvent&) -> contract::Status { return {}; });
      !scanned)
    return contract::failed(std::move(scanned).error());
  WarningList warnings;
  RecordingCompiler compiler(warnings, options);
  auto visited = file.for_each_in_seq_order([&](const RecordingEvent& event) -> contract::Status {
    compiler.visit(event);
    return {};
  });
  if (!visited) return contract::failed(std::move(visited).error());
  compiler.finish();
  std::vector<Json>& actions = compiler.actions();
  if (actions.empty()) {
    return contract::failed(
        recording_error("RECORDING_PARSE_FAILED", "Recording has no replayable steps",
                        Json{{"path", input.string()}, {"warnings", warnings.to_json()}}));
  }

  // Parts within the payload's limits: actions, bytes, and the time the envelope allows.
  std::vector<std::vector<Json>> parts(1);
  std::size_t part_bytes = 0;
  int part_budget = kPayloadOverheadMs;
  for (Json& action : actions) {
    const std::size_t bytes = dump_json(action).size() + 1;
    const int budget = action_budget_ms(action);
    if (!parts.back().empty() &&
        (parts.back().size() == contract::limits::kMaxExecutionActions ||
         part_bytes + bytes > kCompiledPayloadActionBytes ||
         part_budget + budget > static_cast<int>(contract::limits::kMaxExecutionTimeoutMs))) {
      parts.emplace_back();
      part_bytes = 0;
      part_budget = kPayloadOverheadMs;
    }
    part_bytes += bytes;
    part_budget += budget;
    parts.back().push_back(std::move(action));
  }

  CompiledRecording compiled;
  compiled.session_id = file.header().session_id;
  compiled.final_screen = compiler.final_screen();
  const std::string base_id = compiled_command_id(compiled.session_id);
  for (std::size_t index = 0; index < parts.size(); ++index) {
    int timeout_ms = kPayloadOverheadMs;
    for (const Json& action : parts[index]) timeout_ms += action_budget_ms(action);
    timeout_ms = std::clamp(timeout_ms, kMinPayloadTimeoutMs,
                            static_cast<int>(contract::limits::kMaxExecutionTimeoutMs));
    const std::string command_id =
        parts.size() == 1 ? base_id : base_id + "-part" + std::to_string(index + 1);
    Json payload = payload_shell(command_id, base_id, timeout_ms);
    compiled.action_count += parts[index].size();
    for (Json& action : parts[index]) payload["actions"].push_back(std::move(action));
    // What compile makes must be what exec accepts; a failure here is this file's bug.
    CLAWPERATOR_TRY(contract::admit_execution(payload));
    compiled.payloads.push_back(std::move(payload));
  }
  compiled.warnings = warnings.to_json();
  compiled.warnings_omitted = warnings.omitted();
  return compiled;
}

Json to_json(const CompiledRecording& compiled) {
  Json document = Json::object();
  document["ok"] = true;
  document["sessionId"] = compiled.session_id;
  document["actionCount"] = compiled.action_count;
  document["payloadCount"] = compiled.payloads.size();
  if (compiled.payloads.size() == 1) {
    document["execution"] = compiled.payloads.front();
  } else {
    document["executions"] = compiled.payloads;
  }
  if (!compiled.warnings.empty()) {
    document["warnings"] = compiled.warnings;
    if (compiled.warnings_omitted > 0) document["warningsOmitted"] = compiled.warnings_omitted;
  }
  return document;
}

}  // namespace clawperator::recording
