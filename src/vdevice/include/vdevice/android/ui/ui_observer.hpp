// What an accessibility service sees happen on the screen, as the UI model makes it happen:
// the events the Operator's recorder turns into lines (docs/recording.md, "The virtual device
// records"). Every path that changes the screen (the Operator's actions, the shell's `input`,
// `am start`) goes through UiModel, so an observer there misses nothing and sees nothing twice.
#pragma once

#include <string>

namespace clawperator::vdevice::android {

struct VisibleNode;
class VisibleTree;

class UiObserver {
 public:
  virtual ~UiObserver() = default;
  // Only while this is true are the events made (building the screens they carry costs).
  virtual bool observing() const = 0;
  // Before the click takes effect: `tree` is the screen as the finger found it.
  virtual void clicked(const VisibleTree& tree, const VisibleNode& target) = 0;
  // The back key, before it takes effect.
  virtual void back_pressed(const VisibleTree& tree) = 0;
  // A field's text after it changed (the whole text).
  virtual void text_changed(const VisibleNode& field) = 0;
  // A scrollable node moved by `moved` items; `first_visible` is where its window starts now.
  virtual void scrolled(const VisibleNode& container, int first_visible) = 0;
  // A new window is in front: `tree` is it, `activity` its component ("pkg/.Class").
  virtual void window_changed(const VisibleTree& tree, const std::string& activity) = 0;
};

}  // namespace clawperator::vdevice::android
