// The opt-in action policy (docs/guardrails.md): rules that deny an action outright or require a
// person's confirmation first, matched on the action's type, the package it acts in and the
// label of its target. Loading reads one small file; everything else is pure.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "clawperator/contract/execution.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/io/state_directory.hpp"

namespace clawperator::policy {

enum class Decision { Allow, Confirm, Deny };
std::string_view to_string(Decision decision);

// One rule: every list given must match (actions AND packages AND labels); within a list, any
// entry may. Entries of packages and labels are globs ('*' for any run of characters), labels
// compared case-insensitively.
struct Rule {
  std::string id;
  Decision decision = Decision::Deny;
  std::vector<std::string> actions;  // canonical action types
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
  // Some rule names labels: a step aimed at a point is then worth the screen read that tells
  // what lies under it (label_points).
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
  std::optional<std::string> package;  // the app it opens or closes, else the foreground app
  std::vector<std::string> labels;     // its matcher's text, content description, resource id
  bool coordinate = false;             // aimed at a point whose label is not known (yet)
  // The point it aims at (a click's coordinate, a gesture's start), in screen pixels.
  std::optional<std::pair<double, double>> point;
};

// The steps of `execution`; `foreground` is the package in front (when the policy needs it).
std::vector<StepTarget> step_targets(const contract::Execution& execution,
                                     const std::optional<std::string>& foreground);

// The steps aimed at a point get the labels of what lies under it, from one `query_ui` of every
// on-screen node (its parsed `query`, docs/payload.md §10.1): the smallest node whose bounds
// hold the point, and the smallest clickable one (what a tap activates); their label, content
// description and resource id. Such a step is then no longer `coordinate`. A query that is not
// an object with a `nodes` array changes nothing: the steps keep meeting every label rule.
void label_points(std::vector<StepTarget>& steps, const Json& query);

struct Verdict {
  Decision decision = Decision::Allow;
  const Rule* rule = nullptr;  // the rule that decided (the first deny, else the first confirm)
  StepTarget step;
};

// A deny anywhere wins over a confirm anywhere; the first matching rule of each kind decides.
Verdict evaluate(const Policy& policy, const std::vector<StepTarget>& steps);

// '*' matches any run of characters; ASCII letters compare case-insensitively.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace clawperator::policy
