// The simulated apps' user interface: a task (a stack of screens) per package, the
// foreground order, and the hierarchy the accessibility service sees at a given moment —
// laid out, with scrolled-away and not-yet-appeared nodes left out, as on a real device.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/android/ui/ui_observer.hpp"

namespace clawperator::vdevice::android {

using SteadyTime = std::chrono::steady_clock::time_point;

// The Operator's NodeMatcher (docs/payload.md §3): every non-empty field must match.
struct NodeMatcher {
  std::string resource_id;
  std::string role;
  std::string text_equals;
  std::string text_contains;
  std::string content_desc_equals;
  std::string content_desc_contains;
  // Relations (docs/payload.md §10.2): a strict ancestor / a strict descendant that matches.
  // Predicates only: theirs are always null.
  std::shared_ptr<const NodeMatcher> ancestor;
  std::shared_ptr<const NodeMatcher> descendant;

  // No scalar field and no relation.
  bool empty() const noexcept;
};

struct VisibleNode {
  NodeSpec* spec = nullptr;  // the live node: enter_text and toggles change it
  std::string package;
  Bounds bounds;
  int index = 0;          // among the visible siblings
  bool on_screen = true;  // false: scrolled away (only in UiModel::full_tree)
  VisibleNode* parent = nullptr;
  std::vector<VisibleNode> children;

  // What accessibility reports: password text as bullets.
  std::string text() const;
};

// The role a matcher's `role` compares with: the scenario's, or one derived from the class
// ("button", "textfield", "switch", "checkbox", "image", "text", "list", …).
std::string node_role(const NodeSpec& node);

// Which nodes a `descendant` relation may find (docs/payload.md §10.2): actions look at what
// is on screen; query_ui with visibility "all" at the scrolled-away nodes too.
enum class Eligibility { OnScreen, All };

// The Operator's comparison: resourceId, textEquals and contentDescEquals exactly; role and the
// two …Contains fields ignoring case (per character, as Kotlin's ignoreCase does).
bool node_matches(const VisibleNode& node, const NodeMatcher& matcher,
                  Eligibility eligibility = Eligibility::OnScreen);

// A snapshot of the screen. Valid until the UI model changes.
class VisibleTree {
 public:
  VisibleTree() = default;
  VisibleTree(const VisibleTree&) = delete;
  VisibleTree& operator=(const VisibleTree&) = delete;

  VisibleNode root;
  std::string screen_id;
  std::string package;

  // Document order. With `within`, only strict descendants of it.
  std::vector<VisibleNode*> find(const NodeMatcher& matcher, const VisibleNode* within = nullptr);
  std::vector<VisibleNode*> all();
  // The deepest node whose bounds contain the point.
  VisibleNode* at_point(int x, int y);
};

enum class ScrollDirection { Down, Up, Left, Right };
std::optional<ScrollDirection> parse_scroll_direction(std::string_view text);

class UiModel {
 public:
  UiModel(const Scenario& scenario, SteadyTime now);

  const std::string& foreground_package() const;
  std::string foreground_screen() const;
  std::string foreground_activity() const;
  // The screen as seen now (the lock screen while the keyguard shows).
  std::unique_ptr<VisibleTree> tree(SteadyTime now);
  // The same screen with the scrolled-away children of scrollable nodes too (query_ui's
  // visibility "all"): those nodes have `on_screen` false.
  std::unique_ptr<VisibleTree> full_tree(SteadyTime now);

  void set_keyguard(bool showing) { keyguard_ = showing; }
  bool keyguard_showing() const noexcept { return keyguard_; }

  // Brings the package's task to the front (starting it at its launch screen). False when
  // the package is not installed or has no launcher activity.
  bool launch(const std::string& package, SteadyTime now);
  // The package that handles the URI, now in front; nullopt when none does.
  std::optional<std::string> open_uri(const std::string& uri, SteadyTime now);
  void home(SteadyTime now);
  void back(SteadyTime now);
  void recents(SteadyTime now);
  void force_stop(const std::string& package, SteadyTime now);
  bool is_running(const std::string& package) const;

  // A click that reached `target` (the clickable node) from `matched`: toggles a checkable
  // node and follows the first navigateTo between the two. Invalidates trees.
  void click(VisibleTree& tree, VisibleNode& matched, VisibleNode& target, SteadyTime now);
  // The IME action of a text field (enter_text with submit). Invalidates trees.
  void submit(VisibleNode& field, SteadyTime now);
  // A field's whole text replaced (enter_text, `input text`), as the observer is told.
  void set_text(VisibleNode& field, std::string text);
  // Told of every click, back key, text change, scroll and new window (the recorder).
  void set_observer(UiObserver* observer) noexcept { observer_ = observer; }
  // Moves the scroll window; returns how many items it moved (0 at the edge).
  int scroll(VisibleNode& container, ScrollDirection direction, double distance_ratio);
  // A toast the Operator showed: visible in the hierarchy until `until` (or cancel_toast).
  void show_toast(const std::string& text, SteadyTime until);
  void cancel_toast();

 private:
  // A copy, not a pointer into the scenario: installing and uninstalling apps adds and
  // removes screens while their instances may still be on a task.
  struct ScreenInstance {
    std::string id;
    std::string package;
    std::string activity;
    NodeSpec root;
    SteadyTime shown_at;
    std::uint64_t serial = 0;  // a new window, whatever its screen id
  };
  using Task = std::vector<std::unique_ptr<ScreenInstance>>;

  std::unique_ptr<VisibleTree> make_tree(SteadyTime now, bool full);
  std::unique_ptr<ScreenInstance> instantiate(const ScreenSpec& screen, SteadyTime now,
                                              const std::string& uri = "") const;
  void bring_to_front(const std::string& package);
  void navigate(const std::string& target, SteadyTime now);
  // Pointers from the tasks, which own the instances: usable for building trees.
  ScreenInstance* current() const;
  bool observed() const { return observer_ != nullptr && observer_->observing(); }
  // After anything that may bring another window to the front: the observer hears of it once.
  void notify_window(SteadyTime now);
  // The top screen of the front task gone, as the back key or an up button does it.
  void close_top_screen(SteadyTime now);

  const Scenario& scenario_;
  std::string launcher_;
  std::map<std::string, Task> tasks_;
  std::vector<std::string> z_order_;  // back = foreground
  std::unique_ptr<ScreenInstance> lock_screen_;
  NodeSpec toast_;  // the toast's text view while one shows
  std::optional<SteadyTime> toast_until_;
  bool keyguard_ = false;
  UiObserver* observer_ = nullptr;
  mutable std::uint64_t next_serial_ = 1;
  std::uint64_t notified_serial_ = 0;
};

}  // namespace clawperator::vdevice::android
