#include "vdevice/android/ui/ui_model.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "android_test_support.hpp"
#include "vdevice/android/operator/result_framing.hpp"
#include "vdevice/android/ui/ui_xml.hpp"

using namespace clawperator::vdevice::android;
using clawperator::vdevice::android::test::kUiModelStart;

namespace {

NodeMatcher text_equals(const std::string& text) {
  NodeMatcher matcher;
  matcher.text_equals = text;
  return matcher;
}

}  // namespace

TEST_CASE("the UI model lays out, scrolls and navigates", "[vdevice][android]") {
  const Scenario scenario = default_scenario();
  UiModel ui(scenario, kUiModelStart);
  CHECK(ui.foreground_package() == "com.android.launcher3");
  REQUIRE(ui.launch("com.android.settings", kUiModelStart));
  CHECK(ui.foreground_screen() == "settings.main");

  auto tree = ui.tree(kUiModelStart);
  CHECK(tree->root.bounds == Bounds{0, 0, 1080, 2400});
  auto title = tree->find(text_equals("Settings"));
  REQUIRE(title.size() == 1);
  CHECK(title[0]->bounds == Bounds{0, 0, 1080, 300});
  CHECK(tree->find(text_equals("About phone")).empty());
  // Eight rows share what is left below the title and the search bar.
  auto network = tree->find(text_equals("Network & internet"));
  REQUIRE(network.size() == 1);
  CHECK(network[0]->parent->bounds == Bounds{0, 470, 1080, 711});
  CHECK(node_role(*network[0]->spec) == "text");

  VisibleNode* list = nullptr;
  for (VisibleNode* node : tree->all()) {
    if (node->spec->scrollable) list = node;
  }
  REQUIRE(list != nullptr);
  CHECK(ui.scroll(*list, ScrollDirection::Down, 0.7) == 5);
  CHECK(ui.scroll(*list, ScrollDirection::Down, 0.7) == 2);
  CHECK(ui.scroll(*list, ScrollDirection::Down, 0.7) == 0);
  CHECK(ui.scroll(*list, ScrollDirection::Left, 0.7) == 0);
  tree = ui.tree(kUiModelStart);
  auto about = tree->find(text_equals("About phone"));
  REQUIRE(about.size() == 1);
  ui.click(*tree, *about[0], *about[0]->parent, kUiModelStart);
  CHECK(ui.foreground_screen() == "settings.about");
  ui.back(kUiModelStart);
  CHECK(ui.foreground_screen() == "settings.main");
  // The screen we came back to kept its scroll position.
  CHECK_FALSE(ui.tree(kUiModelStart)->find(text_equals("About phone")).empty());
  ui.home(kUiModelStart);
  CHECK(ui.foreground_package() == "com.android.launcher3");
  REQUIRE(ui.launch("com.android.settings", kUiModelStart));
  CHECK(ui.foreground_screen() == "settings.main");
  ui.force_stop("com.android.settings", kUiModelStart);
  CHECK(ui.foreground_package() == "com.android.launcher3");
  REQUIRE(ui.launch("com.android.settings", kUiModelStart));
  CHECK(ui.tree(kUiModelStart)->find(text_equals("About phone")).empty());
}

TEST_CASE("nodes appear after their delay", "[vdevice][android]") {
  const auto scenario = load_scenario(R"({"initialScreen": "settings.signed_in"})");
  REQUIRE(scenario);
  UiModel ui(*scenario, kUiModelStart);
  CHECK(ui.tree(kUiModelStart)->find(text_equals("Account added")).empty());
  CHECK(ui.tree(kUiModelStart + std::chrono::milliseconds(399))
            ->find(text_equals("Account added"))
            .empty());
  CHECK(ui.tree(kUiModelStart + std::chrono::milliseconds(400))
            ->find(text_equals("Account added"))
            .size() == 1);
}

TEST_CASE("recents and back return to the previous app", "[vdevice][android]") {
  const Scenario scenario = default_scenario();
  UiModel ui(scenario, kUiModelStart);
  REQUIRE(ui.launch("com.android.settings", kUiModelStart));
  ui.recents(kUiModelStart);
  CHECK(ui.foreground_screen() == "systemui.recents");
  ui.back(kUiModelStart);
  CHECK(ui.foreground_screen() == "settings.main");
  ui.set_keyguard(true);
  CHECK(ui.foreground_screen() == "systemui.keyguard");
  ui.back(kUiModelStart);
  CHECK(ui.foreground_screen() == "systemui.keyguard");
  ui.set_keyguard(false);
  CHECK(ui.foreground_screen() == "settings.main");
}

TEST_CASE("snapshot XML escapes text and can be padded", "[vdevice][android]") {
  CHECK(escape_xml("a&b<c>\"d\"'e'\n\t\x01") ==
        "a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;&#10;&#9;?");
  const Scenario scenario = default_scenario();
  UiModel ui(scenario, kUiModelStart);
  ui.launch("com.android.settings", kUiModelStart);
  auto tree = ui.tree(kUiModelStart);
  auto list = tree->find(text_equals("Network & internet"));
  REQUIRE(list.size() == 1);
  const std::string xml = hierarchy_xml(*tree);
  CHECK(
      xml.find("<node index=\"0\" text=\"Network &amp; internet\" resource-id=\"android:id/title\" "
               "class=\"android.widget.TextView\" package=\"com.android.settings\" "
               "content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"false\" "
               "enabled=\"true\" focusable=\"false\" focused=\"false\" scrollable=\"false\" "
               "long-clickable=\"false\" password=\"false\" selected=\"false\" "
               "bounds=\"[0,470][1080,590]\" />") != std::string::npos);
  const std::string padded = hierarchy_xml(*tree, 100000);
  CHECK(padded.size() >= 100000);
  CHECK(padded.size() < 102000);
  CHECK(padded.substr(padded.size() - 19) == "</node></hierarchy>");
}

TEST_CASE("result framing: single line or chunk records", "[vdevice][android]") {
  const std::string line = canonical_result_line("{\"commandId\":\"c\"}");
  auto single = frame_result(line, "c", "t", kChunkThresholdBytes);
  CHECK_FALSE(single.chunked);
  CHECK(single.messages == std::vector<std::string>{line});

  const std::string big = canonical_result_line(std::string(2500, 'x'));
  auto chunked = frame_result(big, "c", "t", 1000);
  CHECK(chunked.chunked);
  REQUIRE(chunked.messages.size() == 3);
  CHECK(chunked.messages[0].rfind("[Clawperator-Result-Chunk] {\"commandId\":\"c\",\"taskId\":"
                                  "\"t\",\"index\":0,\"count\":3,\"byteLength\":2521,\"sha256\":\"",
                                  0) == 0);
  FramingFaults faults;
  faults.close_stream = true;
  CHECK(frame_result(line, "c", "t", kChunkThresholdBytes, faults).cut_after == 0U);
  CHECK(frame_result(big, "c", "t", 1000, faults).cut_after == 1U);
  faults = {};
  faults.duplicate = true;
  CHECK(frame_result(big, "c", "t", 1000, faults).messages.size() == 4);
  faults = {};
  faults.drop = true;
  CHECK(frame_result(big, "c", "t", 1000, faults).messages.size() == 2);
}
