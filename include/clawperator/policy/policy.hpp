// The opt-in action policy (docs/guardrails.md): rules that deny an action outright or require a
// person's confirmation first, matched on the action's type and effect, the package it acts in
// and the labels of what it would act on, read on the screen. Loading reads one small file;
// everything else is pure.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/hierarchy/tree.hpp"
#include "clawperator/io/state_directory.hpp"

namespace clawperator::policy {

enum class Decision { Allow, Confirm, Deny };
std::string_view to_string(Decision decision);

// One rule: every list given must match (actions AND effects AND packages AND labels); within
// a list, any entry may. Entries of packages and labels are globs ('*' for any run of
// characters), compared ignoring case as the Operator compares text (contract/matcher_text.hpp).
struct Rule {
  std::string id;
  Decision decision = Decision::Deny;
  std::vector<std::string> actions;           // canonical action types
  std::vector<contract::StepEffect> effects;  // what the step does (the action table's column)
  std::vector<std::string> packages;
  std::vector<std::string> labels;
  std::string reason;  // for the person who is refused or asked
};

struct Policy {
  std::vector<Rule> rules;
  std::string source;  // the file it came from, as named
  // The same file, absolute: what a skill's script is handed so that its own clawperator calls
  // load this policy wherever the script runs from (docs/skills.md, "The script's environment").
  std::filesystem::path file;
  // Some rule names packages: a step that names no package of its own acts in the foreground
  // app, which the host then asks the device for.
  bool uses_packages() const;
  // Some rule names labels.
  bool uses_labels() const;
};

// At most this large, this many rules, this many entries per list.
inline constexpr std::size_t kMaxPolicyBytes = 256 * 1024;
inline constexpr std::size_t kMaxRules = 512;
inline constexpr std::size_t kMaxEntries = 256;

// POLICY_INVALID naming the member (`rules[2].decision`) for anything but the format of
// docs/guardrails.md; unknown members are refused, so a misspelt key never weakens a rule.
contract::Outcome<Policy> parse_policy(std::string_view text, const std::string& source);

// Where the policy comes from: `--policy FILE`, else $CLAWPERATOR_POLICY, else
// $XDG_CONFIG_HOME/clawperator/policy.json (else ~/.config/…) when that file exists. nullopt:
// no policy. A named file that cannot be read, or any file that does not parse, is
// POLICY_INVALID: a policy the user asked for is never silently skipped.
contract::Outcome<std::optional<Policy>> load_policy(const std::optional<std::string>& flag,
                                                     const io::StateEnvironment& environment);

// What a step acts on, as the rules see it.
struct StepTarget {
  std::size_t index = 0;
  std::string step_id;
  std::string action_type;
  contract::StepEffect effect = contract::StepEffect::Observe;
  std::optional<std::string> package;  // the app it opens or closes, else the foreground app
  // What the payload names (its matcher's values, relations included) and, once the screen was
  // read, the labels of every node the step could act on (label_from_screen).
  std::vector<std::string> labels;
  // Its target is not known: aimed at a point before the screen was read, or the screen could
  // not be read. Such a step meets every label rule (a guardrail errs on the side of asking).
  bool unread = false;
  // The point it aims at (a click's coordinate, a gesture's start), in screen pixels.
  std::optional<std::pair<double, double>> point;
};

// The steps of `execution`; `foreground` is the package in front (when the policy needs it).
std::vector<StepTarget> step_targets(const contract::Execution& execution,
                                     const std::optional<std::string>& foreground);
StepTarget step_target(const contract::Execution& execution, std::size_t index,
                       const std::optional<std::string>& foreground);

// Whether some rule could apply to the step whatever its labels: its action and effect are the
// rule's, and its package is (an unknown package may be any). Such a step is judged, on the
// screen it will act on (docs/guardrails.md §3).
bool could_match(const Policy& policy, const StepTarget& step);
// Some such rule names labels and the step has a target (a matcher, a container, a point): the
// screen is read for it.
bool wants_screen(const Policy& policy, const StepTarget& step);
// Some such rule names packages and the step names no app of its own: the foreground app is
// asked for.
bool wants_foreground(const Policy& policy, const StepTarget& step);

// The labels of every node on `screen` the step could act on, added to its own (the Operator's
// semantics through the one matcher, hierarchy/match.hpp): each node its matcher (else its
// container) matches, that node's nearest clickable ancestor-or-self (what a tap activates),
// and every node inside that clickable one (what a person reads on the row): their text,
// content description and resource id. A step aimed at a point: the smallest node holding it
// and the smallest clickable one, with what lies inside that. The step is then no longer
// `unread`, unless the screen holds no node at all (no reading of it).
void label_from_screen(StepTarget& step, const contract::Action& action,
                       const hierarchy::Tree& screen);

// A run of consecutive steps judged on one reading of the screen (docs/guardrails.md §3): a
// step some rule could match, after a step that may change the screen or the app in front
// (anything that does more than observe), starts a new segment, so that it is judged on the
// screen it will act on. A payload no rule could match is one segment with nothing judged.
struct Segment {
  std::size_t begin = 0;            // the first step's index
  std::size_t end = 0;              // one past the last
  std::vector<std::size_t> judged;  // the steps some rule could match
};
std::vector<Segment> plan_segments(const Policy& policy, const contract::Execution& execution);

struct Verdict {
  Decision decision = Decision::Allow;
  const Rule* rule = nullptr;  // the rule that decided (the first deny, else the first confirm)
  StepTarget step;
};

// A deny anywhere wins over a confirm anywhere; the first matching rule of each kind decides.
Verdict evaluate(const Policy& policy, const std::vector<StepTarget>& steps);

// '*' matches any run of characters; the rest compares character by character through Unicode's
// simple lower case (contract::lowercase_unicode), as the Operator compares text: "network*"
// matches "NETWOR\u212a" (a Kelvin sign). Both are UTF-8.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace clawperator::policy
