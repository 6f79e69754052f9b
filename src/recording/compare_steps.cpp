#include "clawperator/recording/compare_steps.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>

#include "clawperator/contract/matcher_text.hpp"
#include "clawperator/text.hpp"

namespace clawperator::recording {
namespace {

// compareRecording.ts's DEFAULT_BASELINE_CHECKPOINT_ORDER: the checkpoints the original's one
// shipped skill reports, in order.
constexpr std::array<std::string_view, 4> kOriginalCheckpointOrder = {
    "app_opened", "discharge_to_row_focused", "target_text_entered", "save_completed"};

bool in_app(const BaselineEvent& event, const std::optional<std::string>& app) {
  return !app || event.type == "press_key" || event.package_name == *app;
}

// ---- Names ----

// A letter, digit or underscore, or a byte of a non-ASCII character (a letter of another
// script, as far as a boundary is concerned).
bool is_word_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x80 || byte == '_' || (byte >= '0' && byte <= '9') ||
         (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z');
}

// `name` at `at` in `text` does not run on into a word on either side: "ok" is not in
// "took", "wifi" is in `typed "wifi".`, and "+" needs no boundary at all.
bool at_word_boundaries(std::string_view text, std::size_t at, std::string_view name) {
  const std::size_t end = at + name.size();
  const bool before = at == 0 || !is_word_byte(text[at - 1]) || !is_word_byte(name.front());
  const bool after = end == text.size() || !is_word_byte(text[end]) || !is_word_byte(name.back());
  return before && after;
}

void add_name(std::vector<std::string>& names, std::string_view value) {
  const std::string_view trimmed = trim_white_space(value);
  if (trimmed.empty()) return;
  if (std::find(names.begin(), names.end(), trimmed) == names.end()) names.emplace_back(trimmed);
}

// Every step's names in lower case, each once, with the steps it names.
class NameIndex {
 public:
  explicit NameIndex(const std::vector<RecordedStep>& steps) {
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t step = 0; step < steps.size(); ++step) {
      for (const std::string& name : steps[step].names) {
        std::string lowered = contract::lowercase_unicode(name);
        const auto [at, added] = index.emplace(lowered, names_.size());
        if (added) {
          bytes_ += lowered.size();
          names_.push_back({std::move(lowered), {}});
        }
        std::vector<std::size_t>& named = names_[at->second].steps;
        if (named.empty() || named.back() != step) named.push_back(step);
      }
    }
  }

  std::uint64_t bytes() const { return bytes_; }

  // Adds to `named` the steps whose names occur in `lowered`, an occurrence inside a longer
  // occurrence of another name not counted: "com.android.settings:id/search" names the tap on
  // that id, not the window titled "Settings". Names are distinct, so two occurrences of the
  // same span are one name's; at one start only the longest can count. The occurrences are
  // merged in order of their start, one cursor per name, so memory stays with the number of
  // names however often a short one occurs.
  void add_steps_named_in(std::string_view lowered, std::vector<std::size_t>& named) const {
    // The first occurrence of `name` at word boundaries at or after `from`.
    const auto next_from = [&](std::size_t name, std::size_t from) {
      const std::string& text = names_[name].lowered;
      std::size_t at = lowered.find(text, from);
      while (at != std::string_view::npos && !at_word_boundaries(lowered, at, text)) {
        at = lowered.find(text, at + 1);
      }
      return at;
    };
    using Cursor = std::pair<std::size_t, std::size_t>;  // (start, name)
    std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> cursors;
    for (std::size_t name = 0; name < names_.size(); ++name) {
      if (const std::size_t at = next_from(name, 0); at != std::string_view::npos) {
        cursors.emplace(at, name);
      }
    }
    // The furthest end of the occurrences that start before the current start: one that
    // reaches the current end holds it (names are not empty, so an end is never 0).
    std::size_t furthest_end = 0;
    while (!cursors.empty()) {
      const std::size_t start = cursors.top().first;
      std::size_t longest = 0, longest_end = 0;
      while (!cursors.empty() && cursors.top().first == start) {
        const std::size_t name = cursors.top().second;
        cursors.pop();
        const std::size_t end = start + names_[name].lowered.size();
        if (end > longest_end) {
          longest = name;
          longest_end = end;
        }
        if (const std::size_t at = next_from(name, start + 1); at != std::string_view::npos) {
          cursors.emplace(at, name);
        }
      }
      if (furthest_end < longest_end) {
        const std::vector<std::size_t>& steps = names_[longest].steps;
        named.insert(named.end(), steps.begin(), steps.end());
        furthest_end = longest_end;
      }
    }
  }

 private:
  struct Name {
    std::string lowered;
    std::vector<std::size_t> steps;  // ascending
  };
  std::vector<Name> names_;
  std::uint64_t bytes_ = 0;
};

std::vector<std::size_t> steps_named_in_texts(const NameIndex& names,
                                              const std::vector<std::string>& texts) {
  std::vector<std::size_t> named;
  for (const std::string& text : texts) {
    names.add_steps_named_in(contract::lowercase_unicode(text), named);
  }
  std::sort(named.begin(), named.end());
  named.erase(std::unique(named.begin(), named.end()), named.end());
  return named;
}

// ---- What a checkpoint says ----

// Every string and number inside `value`, in document order (keys are not what was done). An
// explicit stack: a value nested thousands deep is no reason to overflow ours.
void add_scalar_texts(const Json& value, std::vector<std::string>& texts) {
  std::vector<const Json*> pending = {&value};
  while (!pending.empty()) {
    const Json& current = *pending.back();
    pending.pop_back();
    if (current.is_string()) {
      texts.push_back(current.get<std::string>());
    } else if (current.is_number()) {
      texts.push_back(dump_json(current));
    } else if (current.is_structured()) {
      for (auto child = current.crbegin(); child != current.crend(); ++child) {
        pending.push_back(&*child);
      }
    }
  }
}

std::vector<std::string> texts_of(const Json& checkpoint) {
  std::vector<std::string> texts;
  if (const auto note = checkpoint.find("note"); note != checkpoint.end()) {
    texts.push_back(note->get<std::string>());
  }
  if (const auto evidence = checkpoint.find("evidence"); evidence != checkpoint.end()) {
    const Json& kind = evidence->at("kind");
    if (kind == "text") texts.push_back(evidence->at("text").get<std::string>());
    if (kind == "json") add_scalar_texts(evidence->at("value"), texts);
  }
  return texts;
}

}  // namespace

std::optional<std::string> primary_package(const Baseline& baseline) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  std::unordered_map<std::string, std::size_t> index;
  for (const BaselineEvent& event : baseline.events) {
    if (event.type == "press_key" || event.package_name.empty()) continue;
    const auto [at, added] = index.emplace(event.package_name, counts.size());
    if (added) counts.emplace_back(event.package_name, 0);
    ++counts[at->second].second;
  }
  std::optional<std::string> winner;
  std::size_t most = 0;
  for (const auto& [name, count] : counts) {
    if (!winner || count > most) {
      winner = name;
      most = count;
    }
  }
  return winner;
}

// The original's normalizeRecordingExportForCompare: the first window change of the app, the
// first click that mentions "discharge", the last text change with text, and the last click
// that mentions "save" (else "confirm"), each when the recording has one.
std::vector<OriginalCheckpoint> original_checkpoints(const Baseline& baseline,
                                                     const std::optional<std::string>& app) {
  const std::vector<BaselineEvent>& events = baseline.events;
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const auto first = [&](auto predicate) {
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (in_app(events[i], app) && predicate(events[i])) return i;
    }
    return kNone;
  };
  const auto last = [&](auto predicate) {
    for (std::size_t i = events.size(); i-- > 0;) {
      if (in_app(events[i], app) && predicate(events[i])) return i;
    }
    return kNone;
  };
  std::size_t save =
      last([](const BaselineEvent& e) { return e.type == "click" && e.mentions_save; });
  if (save == kNone) {
    save = last([](const BaselineEvent& e) { return e.type == "click" && e.mentions_confirm; });
  }
  const std::array<std::size_t, 4> found = {
      first([](const BaselineEvent& e) { return e.type == "window_change"; }),
      first([](const BaselineEvent& e) { return e.type == "click" && e.mentions_discharge; }),
      last([](const BaselineEvent& e) { return e.type == "text_change" && e.has_text; }),
      save,
  };
  std::vector<OriginalCheckpoint> checkpoints;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i] != kNone) checkpoints.push_back({kOriginalCheckpointOrder[i], found[i]});
  }
  return checkpoints;
}

bool is_original_checkpoint_id(std::string_view id) {
  return std::find(kOriginalCheckpointOrder.begin(), kOriginalCheckpointOrder.end(), id) !=
         kOriginalCheckpointOrder.end();
}

std::string_view to_string(StepKind kind) {
  switch (kind) {
    case StepKind::AppOpened:
      return "app_opened";
    case StepKind::Tap:
      return "tap";
    case StepKind::TextEntered:
      return "text_entered";
    case StepKind::FinalScreen:
      return "final_screen";
  }
  return "tap";
}

std::vector<RecordedStep> recorded_steps(const Baseline& baseline,
                                         const std::optional<std::string>& app,
                                         const std::vector<OriginalCheckpoint>& originals) {
  const std::vector<BaselineEvent>& events = baseline.events;
  std::vector<RecordedStep> steps;
  std::size_t taps = 0, texts = 0;
  std::optional<std::size_t> last_window;  // of the app
  // The text entry being typed: its step (made at its first text) and its field.
  constexpr std::size_t kNotTyping = static_cast<std::size_t>(-1);
  std::size_t typing = kNotTyping;
  std::string typing_field;
  const auto step_of_event = [&](StepKind kind, std::string id, std::size_t event) {
    RecordedStep step;
    step.id = std::move(id);
    step.kind = kind;
    step.seq = events[event].seq;
    step.summary = events[event].summary;
    for (const OriginalCheckpoint& original : originals) {
      if (original.event == event) step.original_ids.push_back(original.id);
    }
    return step;
  };
  const auto window_step = [&](StepKind kind, std::string id, std::size_t event) {
    RecordedStep step = step_of_event(kind, std::move(id), event);
    add_name(step.names, events[event].package_name);
    add_name(step.names, events[event].title);
    return step;
  };
  for (std::size_t i = 0; i < events.size(); ++i) {
    const BaselineEvent& event = events[i];
    // Another app's events are not the flow's, as in the original (the keyboard's window, a
    // launcher): they neither make steps nor end a text entry. Keys and scrolls only move
    // about; what they reached shows in the next tap or the final screen.
    if (event.type == "press_key" || event.type == "scroll" || !in_app(event, app)) continue;
    if (event.type == "text_change") {
      // One entry per field: each event carries the field's whole text, so the entry's text is
      // the last that is not blank (the original's target_text_entered rule, per entry).
      if (typing_field != event.resource_id) typing = kNotTyping;
      if (!event.has_text) continue;
      // The entry now stands for this event: its seq, summary, original ids and text.
      RecordedStep entry = step_of_event(
          StepKind::TextEntered,
          typing == kNotTyping ? "text_entered_" + std::to_string(++texts) : steps[typing].id, i);
      entry.names = {std::string(trim_white_space(event.text))};
      if (typing == kNotTyping) {
        typing = steps.size();
        typing_field = event.resource_id;
        steps.push_back(std::move(entry));
      } else {
        steps[typing] = std::move(entry);
      }
      continue;
    }
    typing = kNotTyping;
    if (event.type == "click") {
      RecordedStep step = step_of_event(StepKind::Tap, "tap_" + std::to_string(++taps), i);
      for (const std::string* name : {&event.resource_id, &event.text, &event.content_desc}) {
        add_name(step.names, *name);
      }
      steps.push_back(std::move(step));
    } else if (event.type == "window_change") {
      if (!last_window) steps.push_back(window_step(StepKind::AppOpened, "app_opened", i));
      last_window = i;
    }
  }
  if (last_window) {
    // The screen the flow ended on: the app's last window. Its original ids stay with the
    // app_opened step when both are the same event.
    RecordedStep step = window_step(StepKind::FinalScreen, "final_screen", *last_window);
    step.original_ids.clear();
    steps.push_back(std::move(step));
  }
  return steps;
}

std::vector<ReportedCheckpoint> reported_checkpoints(const Json& skill_result) {
  std::vector<ReportedCheckpoint> checkpoints;
  for (const Json& checkpoint : skill_result.at("checkpoints")) {
    std::string id = checkpoint.at("id").get<std::string>();
    if (id == kTerminalCheckpointId) continue;
    ReportedCheckpoint reported;
    reported.id = std::move(id);
    reported.status = checkpoint.at("status").get<std::string>();
    if (checkpoint.contains("note")) reported.note = checkpoint.at("note").get<std::string>();
    reported.texts = texts_of(checkpoint);
    checkpoints.push_back(std::move(reported));
  }
  return checkpoints;
}

bool states_its_end(const Json& skill_result) {
  const auto verification = skill_result.find("terminalVerification");
  if (verification != skill_result.end() && verification->is_object()) return true;
  const Json& checkpoints = skill_result.at("checkpoints");
  return std::any_of(checkpoints.begin(), checkpoints.end(), [](const Json& checkpoint) {
    return checkpoint.at("id") == kTerminalCheckpointId;
  });
}

bool StepAlignment::uncovered(std::size_t step, const std::vector<RecordedStep>& steps) const {
  if (checkpoint_of_step[step]) return false;
  return !(final_screen_by_end && steps[step].kind == StepKind::FinalScreen);
}

contract::Outcome<StepAlignment> align_checkpoints(const std::vector<RecordedStep>& steps,
                                                   const std::vector<ReportedCheckpoint>& reported,
                                                   bool end_stated) {
  const NameIndex names(steps);
  std::uint64_t text_bytes = 0;
  for (const ReportedCheckpoint& checkpoint : reported) {
    for (const std::string& text : checkpoint.texts) text_bytes += text.size();
  }
  // Both are bounded by the files' sizes (64 MiB and 512 MiB): the product fits.
  if (text_bytes * names.bytes() > kMaxMatchWork) {
    return compare_failure("The skill's checkpoints (" + std::to_string(text_bytes) +
                               " bytes of notes and evidence) and the recording's steps (" +
                               std::to_string(names.bytes()) +
                               " bytes of names) are too large to match",
                           Json{{"reason", "too large to match"},
                                {"checkpointTextBytes", text_bytes},
                                {"stepNameBytes", names.bytes()}});
  }
  StepAlignment alignment;
  alignment.step_of_checkpoint.resize(reported.size());
  alignment.checkpoint_of_step.resize(steps.size());
  std::size_t position = 0;  // the first step after the last match
  for (std::size_t c = 0; c < reported.size(); ++c) {
    const ReportedCheckpoint& checkpoint = reported[c];
    // One of the original's ids names the step its rule picked, when the recording has it.
    std::vector<std::size_t> candidates;
    if (is_original_checkpoint_id(checkpoint.id)) {
      for (std::size_t s = 0; s < steps.size(); ++s) {
        const auto& ids = steps[s].original_ids;
        if (std::find(ids.begin(), ids.end(), checkpoint.id) != ids.end()) candidates.push_back(s);
      }
    }
    if (candidates.empty()) candidates = steps_named_in_texts(names, checkpoint.texts);
    const auto next = std::lower_bound(candidates.begin(), candidates.end(), position);
    if (next == candidates.end()) continue;
    alignment.step_of_checkpoint[c] = *next;
    alignment.checkpoint_of_step[*next] = c;
    position = *next + 1;
  }
  alignment.final_screen_by_end = end_stated && !steps.empty() &&
                                  steps.back().kind == StepKind::FinalScreen &&
                                  !alignment.checkpoint_of_step.back();
  return alignment;
}

std::vector<std::size_t> steps_named_in(const std::vector<RecordedStep>& steps,
                                        std::string_view text) {
  return steps_named_in_texts(NameIndex(steps), {std::string(text)});
}

}  // namespace clawperator::recording
