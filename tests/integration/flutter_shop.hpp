// The Flutter-like shop of examples/scenarios/drawn-text.json, whose labels are drawn but not in
// the tree: drawn_text_test.cpp checks the pixels, visual_text_test.cpp finds them by OCR.
#pragma once

#include <catch2/catch.hpp>

#include "farm_fixture.hpp"

namespace clawperator::testing {

inline void open_flutter_shop(const Farm& farm) {
  const RunResult started = farm.adb({"-s", farm.serials().front(), "shell", "am", "start", "-n",
                                      "com.example.fluttershop/.MainActivity"});
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
}

}  // namespace clawperator::testing
