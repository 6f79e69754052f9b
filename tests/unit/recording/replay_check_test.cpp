// recording replay --verify's comparison (recording/replay_check.hpp): texts and resource ids
// of the recorded screen's apps, both ways; other apps' windows never count.
#include "clawperator/recording/replay_check.hpp"

#include <catch2/catch.hpp>

using clawperator::Json;
namespace recording = clawperator::recording;

namespace {

std::string screen(const std::string& nodes) {
  return "<?xml version='1.0' encoding='UTF-8'?><hierarchy rotation=\"0\">" + nodes +
         "</hierarchy>";
}

std::string labelled(const std::string& package, const std::string& id, const std::string& text) {
  return "<node package=\"" + package + "\" resource-id=\"" + id + "\" text=\"" + text +
         "\" bounds=\"[0,0][10,10]\"/>";
}

}  // namespace

TEST_CASE("replay check: the same texts and ids of the recorded app match", "[recording]") {
  const std::string recorded = screen(labelled("com.app", "id/title", "Network") +
                                      labelled("com.app", "id/summary", "Mobile, Wi-Fi") +
                                      labelled("com.android.systemui", "id/clock", "12:00"));
  // The clock moved on, and a keyboard's window appeared: neither is the app's.
  const std::string replayed = screen(labelled("com.app", "id/title", "Network") +
                                      labelled("com.app", "id/summary", "Mobile, Wi-Fi") +
                                      labelled("com.android.systemui", "id/clock", "12:07") +
                                      labelled("com.keyboard", "id/key", "q"));
  const auto compared = recording::compare_snapshots(recorded, replayed);
  REQUIRE(compared);
  CHECK(compared->empty());
  CHECK(recording::labels_summary(recorded) == Json{{"texts", 2}, {"ids", 2}});
}

TEST_CASE("replay check: what differs, both ways, sorted", "[recording]") {
  const std::string recorded =
      screen(labelled("com.app", "id/title", "Network") +
             labelled("com.app", "id/b", "Flight mode") + labelled("com.app", "id/a", "Wi-Fi"));
  const std::string replayed =
      screen(labelled("com.app", "id/title", "Network") +
             labelled("com.app", "id/c", "Airplane mode") + labelled("com.app", "id/a", "Wi-Fi"));
  const auto compared = recording::compare_snapshots(recorded, replayed);
  REQUIRE(compared);
  CHECK_FALSE(compared->empty());
  CHECK(recording::to_json(*compared) ==
        Json::parse(R"({"recordedOnly": {"texts": ["Flight mode"], "ids": ["id/b"]},
                        "replayedOnly": {"texts": ["Airplane mode"], "ids": ["id/c"]}})"));
}

TEST_CASE("replay check: a screen that is not XML is named, not compared", "[recording]") {
  const auto unreadable = recording::compare_snapshots(screen(""), "<hierarchy>");
  REQUIRE_FALSE(unreadable);
  CHECK_FALSE(unreadable.error().empty());
  const auto recorded_unreadable = recording::compare_snapshots("not xml", screen(""));
  REQUIRE_FALSE(recorded_unreadable);
  CHECK(recorded_unreadable.error().rfind("the recorded screen: ", 0) == 0);
}
