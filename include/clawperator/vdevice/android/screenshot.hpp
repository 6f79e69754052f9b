// `screencap -p`: a wireframe of the current screen (node outlines, clickable ones
// highlighted, text as bars) at the display's full resolution; black while the screen is off.
#pragma once

#include <string>

#include "clawperator/vdevice/android/scenario.hpp"
#include "clawperator/vdevice/android/ui_model.hpp"

namespace clawperator::vdevice::android {

std::string render_screenshot(const VisibleTree& tree, const DisplaySpec& display, bool screen_on);

}  // namespace clawperator::vdevice::android
