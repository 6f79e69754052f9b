// `screencap -p`: a wireframe of the current screen (node outlines, clickable ones
// highlighted) with each node's text drawn in a real font (src/vdevice/android/ui/font.cpp),
// anti-aliased, at the display's full resolution; black while the screen is off.
#pragma once

#include <string>

#include "vdevice/android/formats/png.hpp"
#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/android/ui/ui_model.hpp"

namespace clawperator::vdevice::android {

// The screen as an image at the display's resolution (what screenrecord encodes).
IndexedImage render_screen(const VisibleTree& tree, const DisplaySpec& display, bool screen_on);
// The same as a PNG file.
std::string render_screenshot(const VisibleTree& tree, const DisplaySpec& display, bool screen_on);

}  // namespace clawperator::vdevice::android
