#include "vdevice/android/ui/ui_model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <utility>

#include "clawperator/contract/matcher_fields.hpp"
#include "vdevice/android/operator/unicode_text.hpp"

namespace clawperator::vdevice::android {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string simple_class_name(std::string_view class_name) {
  const std::size_t dot = class_name.rfind('.');
  return std::string(dot == std::string_view::npos ? class_name : class_name.substr(dot + 1));
}

std::size_t utf8_length(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  }
  return count;
}

void set_text_from_uri(NodeSpec& node, const std::string& uri) {
  if (node.text_from_uri) node.text = uri;
  for (NodeSpec& child : node.children) set_text_from_uri(child, uri);
}

// Lays the node out in `assigned` and keeps what is on screen now; with `full`, the
// scrolled-away children of scrollable nodes too, laid out beyond the window and marked off
// screen.
VisibleNode build(NodeSpec& spec, const Bounds& assigned, const std::string& package,
                  long long shown_ms, bool full, bool on_screen) {
  VisibleNode node;
  node.spec = &spec;
  node.package = package;
  node.bounds = spec.bounds.value_or(assigned);
  node.on_screen = on_screen;

  std::vector<NodeSpec*> shown;
  std::size_t begin = 0;
  std::size_t end = spec.children.size();
  if (spec.scrollable) {
    begin = std::min<std::size_t>(static_cast<std::size_t>(std::max(spec.first_visible, 0)), end);
    end = std::min<std::size_t>(begin + static_cast<std::size_t>(std::max(spec.visible_count, 0)),
                                end);
  }
  for (std::size_t i = begin; i < end; ++i) {
    NodeSpec& child = spec.children[i];
    if (child.appears_after_ms > shown_ms) continue;
    shown.push_back(&child);
  }

  // Children without explicit bounds share the parent's extent along its axis: sized ones
  // take their size, the others split what is left.
  const bool horizontal = spec.horizontal;
  const int extent = horizontal ? node.bounds.width() : node.bounds.height();
  int fixed = 0;
  int flexible = 0;
  for (const NodeSpec* child : shown) {
    if (child->bounds) continue;
    if (child->size > 0) {
      fixed += child->size;
    } else {
      ++flexible;
    }
  }
  const int share = flexible > 0 ? std::max(0, extent - fixed) / flexible : 0;
  const int origin = horizontal ? node.bounds.left : node.bounds.top;
  const int limit = horizontal ? node.bounds.right : node.bounds.bottom;
  auto length_of = [&](const NodeSpec& child) { return child.size > 0 ? child.size : share; };
  auto slot_at = [&](int from, int to) {
    Bounds slot = node.bounds;
    if (horizontal) {
      slot.left = from;
      slot.right = to;
    } else {
      slot.top = from;
      slot.bottom = to;
    }
    return slot;
  };
  int index = 0;
  // The scrolled-away children before the window, stacked before its start.
  if (full && spec.scrollable) {
    int before = 0;
    for (std::size_t i = 0; i < begin; ++i) before += length_of(spec.children[i]);
    int cursor = origin - before;
    for (std::size_t i = 0; i < begin; ++i) {
      NodeSpec& child = spec.children[i];
      const int length = length_of(child);
      VisibleNode built =
          build(child, slot_at(cursor, cursor + length), package, shown_ms, full, false);
      built.index = index++;
      cursor += length;
      node.children.push_back(std::move(built));
    }
  }
  int cursor = origin;
  for (NodeSpec* child : shown) {
    Bounds slot = node.bounds;
    if (!child->bounds) {
      const int length = length_of(*child);
      slot = slot_at(std::min(cursor, limit), std::min(cursor + length, limit));
      cursor += length;
    }
    VisibleNode built = build(*child, slot, package, shown_ms, full, on_screen);
    built.index = index++;
    node.children.push_back(std::move(built));
  }
  if (full && spec.scrollable) {
    cursor = std::max(cursor, limit);
    for (std::size_t i = end; i < spec.children.size(); ++i) {
      NodeSpec& child = spec.children[i];
      if (child.appears_after_ms > shown_ms) continue;
      const int length = length_of(child);
      VisibleNode built =
          build(child, slot_at(cursor, cursor + length), package, shown_ms, full, false);
      built.index = index++;
      cursor += length;
      node.children.push_back(std::move(built));
    }
  }
  return node;
}

// A strict ancestor of `node` matches (any ancestor of the captured tree, on screen or not).
bool ancestor_matches(const VisibleNode& node, const NodeMatcher& predicate) {
  for (const VisibleNode* up = node.parent; up != nullptr; up = up->parent) {
    if (node_matches(*up, predicate)) return true;
  }
  return false;
}

// A strict descendant of `node` that is eligible matches.
bool descendant_matches(const VisibleNode& node, const NodeMatcher& predicate,
                        Eligibility eligibility) {
  for (const VisibleNode& child : node.children) {
    const bool eligible = eligibility == Eligibility::All || child.on_screen;
    if (eligible && node_matches(child, predicate, eligibility)) return true;
    if (descendant_matches(child, predicate, eligibility)) return true;
  }
  return false;
}

bool is_strict_descendant(const VisibleNode& node, const VisibleNode& of) {
  for (const VisibleNode* up = node.parent; up != nullptr; up = up->parent) {
    if (up == &of) return true;
  }
  return false;
}

void link_parents(VisibleNode& node) {
  for (VisibleNode& child : node.children) {
    child.parent = &node;
    link_parents(child);
  }
}

void collect(VisibleNode& node, std::vector<VisibleNode*>& out) {
  out.push_back(&node);
  for (VisibleNode& child : node.children) collect(child, out);
}

bool toggle_first_checkable(NodeSpec& node) {
  if (node.checkable) {
    node.checked = !node.checked;
    return true;
  }
  for (NodeSpec& child : node.children) {
    if (toggle_first_checkable(child)) return true;
  }
  return false;
}

}  // namespace

bool NodeMatcher::empty() const noexcept {
  return resource_id.empty() && role.empty() && text_equals.empty() && text_contains.empty() &&
         content_desc_equals.empty() && content_desc_contains.empty() && !ancestor && !descendant;
}

std::string VisibleNode::text() const {
  if (!spec->password) return spec->text;
  std::string bullets;
  for (std::size_t i = utf8_length(spec->text); i > 0; --i) bullets += "\u2022";
  return bullets;
}

std::string node_role(const NodeSpec& node) {
  // A scenario's own role, else the Operator's role of the class (the one table the host's
  // matcher uses too: contract/matcher_fields.hpp).
  if (!node.role.empty()) return node.role;
  return contract::role_of_class(node.class_name);
}

bool node_matches(const VisibleNode& node, const NodeMatcher& matcher, Eligibility eligibility) {
  const NodeSpec& spec = *node.spec;
  if (!matcher.resource_id.empty() && spec.resource_id != matcher.resource_id) return false;
  if (!matcher.role.empty() && !equals_ignoring_case(node_role(spec), matcher.role) &&
      !equals_ignoring_case(simple_class_name(spec.class_name), matcher.role)) {
    return false;
  }
  const std::string text = node.text();
  if (!matcher.text_equals.empty() && text != matcher.text_equals) return false;
  if (!matcher.text_contains.empty() && !contains_ignoring_case(text, matcher.text_contains)) {
    return false;
  }
  if (!matcher.content_desc_equals.empty() && spec.content_desc != matcher.content_desc_equals) {
    return false;
  }
  if (!matcher.content_desc_contains.empty() &&
      !contains_ignoring_case(spec.content_desc, matcher.content_desc_contains)) {
    return false;
  }
  if (matcher.ancestor && !ancestor_matches(node, *matcher.ancestor)) return false;
  if (matcher.descendant && !descendant_matches(node, *matcher.descendant, eligibility)) {
    return false;
  }
  return !matcher.empty();
}

std::vector<VisibleNode*> VisibleTree::find(const NodeMatcher& matcher, const VisibleNode* within) {
  std::vector<VisibleNode*> out;
  for (VisibleNode* node : all()) {
    if (within != nullptr && !is_strict_descendant(*node, *within)) continue;
    if (node_matches(*node, matcher)) out.push_back(node);
  }
  return out;
}

std::vector<VisibleNode*> VisibleTree::all() {
  std::vector<VisibleNode*> out;
  collect(root, out);
  return out;
}

VisibleNode* VisibleTree::at_point(int x, int y) {
  VisibleNode* found = nullptr;
  std::function<void(VisibleNode&)> visit = [&](VisibleNode& node) {
    if (!node.bounds.contains(x, y)) return;
    found = &node;
    for (VisibleNode& child : node.children) visit(child);
  };
  visit(root);
  return found;
}

std::optional<ScrollDirection> parse_scroll_direction(std::string_view text) {
  const std::string name = lower(text);
  if (name == "down") return ScrollDirection::Down;
  if (name == "up") return ScrollDirection::Up;
  if (name == "left") return ScrollDirection::Left;
  if (name == "right") return ScrollDirection::Right;
  return std::nullopt;
}

UiModel::UiModel(const Scenario& scenario, SteadyTime now) : scenario_(scenario) {
  const ScreenSpec* home = scenario.find_screen(scenario.home_screen);
  launcher_ = home != nullptr ? home->package : "";
  if (home != nullptr) {
    tasks_[launcher_].push_back(instantiate(*home, now));
    z_order_.push_back(launcher_);
  }
  if (const ScreenSpec* initial = scenario.find_screen(scenario.initial_screen);
      initial != nullptr && initial != home) {
    tasks_[initial->package].push_back(instantiate(*initial, now));
    bring_to_front(initial->package);
  }
  if (const ScreenSpec* lock = scenario.find_screen(scenario.lock_screen)) {
    lock_screen_ = instantiate(*lock, now);
  }
}

std::unique_ptr<UiModel::ScreenInstance> UiModel::instantiate(const ScreenSpec& screen,
                                                              SteadyTime now,
                                                              const std::string& uri) const {
  auto instance = std::make_unique<ScreenInstance>();
  instance->id = screen.id;
  instance->package = screen.package;
  instance->activity = screen.activity;
  instance->root = screen.root;
  instance->shown_at = now;
  instance->serial = next_serial_++;
  if (!uri.empty()) set_text_from_uri(instance->root, uri);
  return instance;
}

UiModel::ScreenInstance* UiModel::current() const {
  if (keyguard_ && lock_screen_) return lock_screen_.get();
  if (z_order_.empty()) return nullptr;
  const auto it = tasks_.find(z_order_.back());
  if (it == tasks_.end() || it->second.empty()) return nullptr;
  return it->second.back().get();
}

const std::string& UiModel::foreground_package() const {
  static const std::string kNone;
  const ScreenInstance* screen = current();
  return screen != nullptr ? screen->package : kNone;
}

std::string UiModel::foreground_screen() const {
  const ScreenInstance* screen = current();
  return screen != nullptr ? screen->id : "";
}

std::string UiModel::foreground_activity() const {
  const ScreenInstance* screen = current();
  return screen != nullptr ? screen->activity : "";
}

std::unique_ptr<VisibleTree> UiModel::tree(SteadyTime now) {
  return make_tree(now, false);
}

std::unique_ptr<VisibleTree> UiModel::full_tree(SteadyTime now) {
  return make_tree(now, true);
}

std::unique_ptr<VisibleTree> UiModel::make_tree(SteadyTime now, bool full) {
  auto tree = std::make_unique<VisibleTree>();
  ScreenInstance* screen = current();
  const Bounds whole{0, 0, scenario_.display.width, scenario_.display.height};
  if (screen == nullptr) {
    static NodeSpec empty_root = [] {
      NodeSpec root;
      root.class_name = "android.widget.FrameLayout";
      return root;
    }();
    tree->root = build(empty_root, whole, "", 0, full, true);
    return tree;
  }
  const long long shown_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now - screen->shown_at).count();
  tree->root = build(screen->root, whole, screen->package, shown_ms, full, true);
  if (toast_until_ && now < *toast_until_) {
    // A toast floats over the app near the bottom of the display.
    const int height = 120;
    const Bounds bounds{whole.width() / 8, whole.height() - 3 * height, whole.width() * 7 / 8,
                        whole.height() - 2 * height};
    VisibleNode toast = build(toast_, bounds, "android", 0, full, true);
    toast.index = static_cast<int>(tree->root.children.size());
    tree->root.children.push_back(std::move(toast));
  }
  tree->screen_id = screen->id;
  tree->package = screen->package;
  link_parents(tree->root);
  return tree;
}

void UiModel::show_toast(const std::string& text, SteadyTime until) {
  toast_ = NodeSpec{};
  toast_.class_name = "android.widget.TextView";
  toast_.resource_id = "android:id/message";
  toast_.text = text;
  toast_until_ = until;
}

void UiModel::cancel_toast() {
  toast_until_.reset();
}

void UiModel::bring_to_front(const std::string& package) {
  z_order_.erase(std::remove(z_order_.begin(), z_order_.end(), package), z_order_.end());
  z_order_.push_back(package);
}

bool UiModel::launch(const std::string& package, SteadyTime now) {
  const PackageSpec* spec = scenario_.find_package(package);
  if (spec == nullptr || spec->launch_screen.empty()) return false;
  if (package == launcher_) {
    home(now);
    return true;
  }
  const ScreenSpec* screen = scenario_.find_screen(spec->launch_screen);
  if (screen == nullptr) return false;
  Task& task = tasks_[package];
  if (task.empty()) task.push_back(instantiate(*screen, now));
  bring_to_front(package);
  notify_window(now);
  return true;
}

std::optional<std::string> UiModel::open_uri(const std::string& uri, SteadyTime now) {
  const PackageSpec* handler = nullptr;
  std::size_t best = 0;
  for (const PackageSpec& package : scenario_.packages) {
    for (const std::string& prefix : package.uri_prefixes) {
      if (uri.compare(0, prefix.size(), prefix) == 0 && prefix.size() > best) {
        handler = &package;
        best = prefix.size();
      }
    }
  }
  if (handler == nullptr) return std::nullopt;
  const ScreenSpec* screen = scenario_.find_screen(handler->uri_screen);
  if (screen == nullptr) return std::nullopt;
  tasks_[handler->name].push_back(instantiate(*screen, now, uri));
  bring_to_front(handler->name);
  notify_window(now);
  return handler->name;
}

void UiModel::home(SteadyTime now) {
  if (!launcher_.empty()) bring_to_front(launcher_);
  notify_window(now);
}

void UiModel::back(SteadyTime now) {
  if (observed()) observer_->back_pressed(*make_tree(now, false));
  close_top_screen(now);
  notify_window(now);
}

void UiModel::close_top_screen(SteadyTime now) {
  if (keyguard_ || z_order_.empty()) return;
  const std::string package = z_order_.back();
  if (package == launcher_) return;
  Task& task = tasks_[package];
  if (!task.empty()) task.pop_back();
  if (task.empty()) {
    // The task finished: whatever was behind it comes back.
    tasks_.erase(package);
    z_order_.pop_back();
    if (z_order_.empty()) {
      const ScreenSpec* home_screen = scenario_.find_screen(scenario_.home_screen);
      if (home_screen != nullptr) tasks_[launcher_].push_back(instantiate(*home_screen, now));
      z_order_.push_back(launcher_);
    }
  }
}

void UiModel::recents(SteadyTime now) {
  const ScreenSpec* screen = scenario_.find_screen(scenario_.recents_screen);
  if (screen == nullptr || keyguard_) return;
  Task& task = tasks_[screen->package];
  task.clear();
  task.push_back(instantiate(*screen, now));
  bring_to_front(screen->package);
  notify_window(now);
}

void UiModel::force_stop(const std::string& package, SteadyTime now) {
  if (package == launcher_) {
    // The launcher restarts at once, at its home screen.
    const ScreenSpec* home_screen = scenario_.find_screen(scenario_.home_screen);
    if (home_screen == nullptr) return;
    Task& task = tasks_[launcher_];
    task.clear();
    task.push_back(instantiate(*home_screen, now));
    notify_window(now);
    return;
  }
  tasks_.erase(package);
  z_order_.erase(std::remove(z_order_.begin(), z_order_.end(), package), z_order_.end());
  if (z_order_.empty() && !launcher_.empty()) z_order_.push_back(launcher_);
  notify_window(now);
}

bool UiModel::is_running(const std::string& package) const {
  const auto it = tasks_.find(package);
  return it != tasks_.end() && !it->second.empty();
}

void UiModel::navigate(const std::string& target, SteadyTime now) {
  if (target == kBackTarget) {
    // A "Navigate up" button closes the screen; it is a click, not the back key.
    close_top_screen(now);
    return;
  }
  const ScreenSpec* screen = scenario_.find_screen(target);
  // A screen of an app that is not installed: the click goes nowhere.
  if (screen == nullptr) return;
  const PackageSpec* package = scenario_.find_package(screen->package);
  Task& task = tasks_[screen->package];
  const bool resumes = screen->package != foreground_package() && !task.empty() &&
                       package != nullptr && package->launch_screen == screen->id;
  if (!resumes) task.push_back(instantiate(*screen, now));
  bring_to_front(screen->package);
}

void UiModel::click(VisibleTree& tree, VisibleNode& matched, VisibleNode& target, SteadyTime now) {
  if (observed()) observer_->clicked(tree, target);
  if (!toggle_first_checkable(*target.spec) && matched.spec->checkable) {
    matched.spec->checked = !matched.spec->checked;
  }
  std::string destination;
  const VisibleNode* carrier = nullptr;
  for (const VisibleNode* node = &matched; node != nullptr; node = node->parent) {
    if (!node->spec->navigate_to.empty()) {
      carrier = node;
      break;
    }
    if (node == &target) break;
  }
  if (carrier == nullptr) return;
  destination = carrier->spec->navigate_to;
  for (const std::string& required : carrier->spec->requires_text) {
    NodeMatcher field;
    field.resource_id = required;
    const auto fields = tree.find(field);
    const bool filled = std::any_of(fields.begin(), fields.end(), [](const VisibleNode* node) {
      return !node->spec->text.empty();
    });
    if (!filled) {
      destination = carrier->spec->otherwise_navigate_to;
      break;
    }
  }
  if (!destination.empty()) navigate(destination, now);
  notify_window(now);
}

void UiModel::submit(VisibleNode& field, SteadyTime now) {
  if (!field.spec->navigate_on_submit.empty()) navigate(field.spec->navigate_on_submit, now);
  notify_window(now);
}

void UiModel::set_text(VisibleNode& field, std::string text) {
  field.spec->text = std::move(text);
  if (observed()) observer_->text_changed(field);
}

void UiModel::notify_window(SteadyTime now) {
  const ScreenInstance* screen = current();
  const std::uint64_t serial = screen != nullptr ? screen->serial : 0;
  if (serial == notified_serial_) return;
  notified_serial_ = serial;
  if (screen == nullptr || !observed()) return;
  observer_->window_changed(*make_tree(now, false), screen->activity);
}

int UiModel::scroll(VisibleNode& container, ScrollDirection direction, double distance_ratio) {
  NodeSpec& spec = *container.spec;
  const int total = static_cast<int>(spec.children.size());
  const int window = std::max(spec.visible_count, 1);
  const bool forward = direction == ScrollDirection::Down || direction == ScrollDirection::Right;
  const bool along_axis =
      spec.horizontal ? (direction == ScrollDirection::Left || direction == ScrollDirection::Right)
                      : (direction == ScrollDirection::Up || direction == ScrollDirection::Down);
  if (!along_axis || total <= window) return 0;
  const double ratio = std::clamp(distance_ratio, 0.0, 1.0);
  const int step = std::max(1, static_cast<int>(std::floor(window * ratio)));
  const int before = spec.first_visible;
  const int after = std::clamp(before + (forward ? step : -step), 0, total - window);
  spec.first_visible = after;
  if (after != before && observed()) observer_->scrolled(container, after);
  return std::abs(after - before);
}

}  // namespace clawperator::vdevice::android
