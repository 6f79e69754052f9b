#include "clawperator/cli/snapshot_text.hpp"

#include <catch2/catch.hpp>

using namespace clawperator;
using namespace clawperator::cli;

namespace {

constexpr const char* kDump =
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
    "<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" "
    "package=\"com.android.settings\" content-desc=\"\" checkable=\"false\" checked=\"false\" "
    "clickable=\"false\" enabled=\"true\" focusable=\"false\" focused=\"false\" "
    "scrollable=\"false\" long-clickable=\"false\" password=\"false\" selected=\"false\" "
    "bounds=\"[0,0][1080,2400]\">"
    "<node index=\"0\" text=\"\" resource-id=\"com.android.settings:id/list\" "
    "class=\"androidx.recyclerview.widget.RecyclerView\" content-desc=\"\" "
    "scrollable=\"true\" bounds=\"[0,200][1080,2400]\">"
    "<node index=\"0\" text=\"Wi-Fi &amp; &quot;more&quot;\" resource-id=\"android:id/title\" "
    "class=\"android.widget.TextView\" content-desc=\"\" clickable=\"true\" "
    "bounds=\"[42,220][300,280]\" />"
    "<node index=\"1\" text=\"\" resource-id=\"\" class=\"android.widget.Switch\" "
    "content-desc=\"Wi-Fi&#10;toggle\" checkable=\"true\" checked=\"true\" clickable=\"true\" "
    "enabled=\"false\" bounds=\"[900,220][1040,280]\" />"
    "</node>"
    "<node index=\"1\" text=\"caf&#xE9;\" class=\"\" bounds=\"[0,0][1,1]\"/>"
    "</node></hierarchy>";

}  // namespace

TEST_CASE("a UI dump becomes an indented tree of nodes", "[cli][snapshot_text]") {
  const auto tree = render_hierarchy(kDump);
  REQUIRE(tree);
  CHECK(*tree ==
        "FrameLayout [0,0][1080,2400]\n"
        "  RecyclerView id=com.android.settings:id/list [0,200][1080,2400] scrollable\n"
        "    TextView \"Wi-Fi & \\\"more\\\"\" id=android:id/title [42,220][300,280] clickable\n"
        "    Switch desc=\"Wi-Fi\\ntoggle\" [900,220][1040,280] clickable checked disabled\n"
        "  node \"caf\xC3\xA9\" [0,0][1,1]\n");
}

TEST_CASE("a dump without nodes or broken XML never throws", "[cli][snapshot_text]") {
  CHECK_FALSE(render_hierarchy(""));
  CHECK_FALSE(render_hierarchy("<hierarchy/>"));
  CHECK_FALSE(render_hierarchy("not xml at all"));
  CHECK_FALSE(render_hierarchy("<!-- <node class=\"a\"/> --><hierarchy/>"));
  CHECK(render_hierarchy("<node class=\"a.B\" text=\"unterminated") == "B \"unterminated\"\n");
  CHECK(render_hierarchy("<node class='a.B' text='x' bounds='[0,0][1,1]'") ==
        "B \"x\" [0,0][1,1]\n");
  CHECK(render_hierarchy("</node></node><node class=\"C\"/>") == "C\n");
  CHECK(render_hierarchy("<node text=\"&bogus; &#xZZ; &\"/>") == "node \"&bogus; &#xZZ; &\"\n");
}

TEST_CASE("very deep trees stop indenting at 64 levels", "[cli][snapshot_text]") {
  std::string xml;
  for (int i = 0; i < 100; ++i) xml += "<node class=\"N\">";
  const auto tree = render_hierarchy(xml);
  REQUIRE(tree);
  const std::string last = tree->substr(tree->rfind('\n', tree->size() - 2) + 1);
  CHECK(last == std::string(128, ' ') + "N\n");
}

TEST_CASE("the snapshot wrapper prints a header, then each tree", "[cli][snapshot_text]") {
  Json document = Json::parse(R"({"ok":true,"envelope":{"commandId":"snapshot-1-abc",
      "status":"success","stepResults":[{"id":"snap","actionType":"snapshot","success":true,
      "data":{"text":"<hierarchy><node class=\"a.View\" text=\"Hi\"/></hierarchy>"}}]},
      "deviceId":"emulator-5554","terminalSource":"clawperator_result"})");
  CHECK(render_snapshot_document(document) ==
        "UI hierarchy of emulator-5554 (snapshot-1-abc)\nView \"Hi\"\n");

  SECTION("failures and other documents stay JSON") {
    Json failed = document;
    failed["ok"] = false;
    CHECK_FALSE(render_snapshot_document(failed));
    CHECK_FALSE(render_snapshot_document(
        Json::parse(R"({"ok":false,"code":"RESULT_ENVELOPE_TIMEOUT","message":"m"})")));
    CHECK_FALSE(render_snapshot_document(Json::parse(R"({"ok":true,"dryRun":true})")));
    Json without = document;
    without["envelope"]["stepResults"][0]["data"].erase("text");
    CHECK_FALSE(render_snapshot_document(without));
  }
  SECTION("an empty screen still reads as one") {
    Json empty = document;
    empty["envelope"]["stepResults"][0]["data"]["text"] = "<hierarchy rotation=\"0\"/>";
    CHECK(render_snapshot_document(empty) ==
          "UI hierarchy of emulator-5554 (snapshot-1-abc)\n(no nodes)\n");
  }
}

TEST_CASE("snapshot --compact --output pretty: the compact nodes as a tree", "[cli][pretty]") {
  const Json document = Json::parse(R"({"ok":true,"deviceId":"emulator-5554",
    "envelope":{"commandId":"snapshot-2"},
    "compact":{"totalNodes":5,"returnedNodes":3,"truncated":true,"nodes":[
      {"nodePath":"0","className":"android.widget.FrameLayout","text":"","resourceId":"",
       "contentDescription":"","bounds":"[0,0][1080,2400]","clickable":false,"enabled":true},
      {"nodePath":"0.1","className":"android.widget.LinearLayout","text":"","resourceId":"",
       "contentDescription":"Search","bounds":"[0,300][1080,470]","clickable":true,"enabled":true},
      {"nodePath":"0.1.0","className":"android.widget.TextView","text":"Wi-Fi \"home\"",
       "resourceId":"android:id/title","contentDescription":"","bounds":"[0,300][1080,470]",
       "clickable":false,"enabled":false}]}})");
  CHECK(render_compact_document(document) ==
        "Compact UI hierarchy of emulator-5554 (snapshot-2): 3 of 5 nodes, truncated\n"
        "FrameLayout [0,0][1080,2400]\n"
        "  LinearLayout desc=\"Search\" [0,300][1080,470] clickable\n"
        "    TextView \"Wi-Fi \\\"home\\\"\" id=android:id/title [0,300][1080,470] disabled\n");
  Json failed = document;
  failed["ok"] = false;
  CHECK_FALSE(render_compact_document(failed));
  CHECK_FALSE(render_compact_document(Json::parse(R"({"ok":true,"compact":{}})")));
}

TEST_CASE("query --output pretty: each match once, numbered", "[cli][pretty]") {
  const Json document = Json::parse(R"({"ok":true,"deviceId":"emulator-5554",
    "envelope":{"commandId":"query-1","stepResults":[{"data":{"query":"{\"nodes\":[]}"}}]},
    "query":{"totalMatches":2,"returnedCount":2,"truncated":false,"nodes":[
      {"nodePath":"0.2.0.0","className":"android.widget.TextView","label":"Network & internet",
       "resourceId":"android:id/title","contentDescription":"",
       "bounds":{"left":0,"top":470,"right":1080,"bottom":590},"clickable":false},
      {"nodePath":"0.3","className":"android.widget.Switch","label":"","resourceId":"",
       "contentDescription":"Airplane mode","bounds":{"left":1,"top":2,"right":3,"bottom":4},
       "checked":true}]}})");
  CHECK(render_query_document(document) ==
        "Query of emulator-5554 (query-1): 2 of 2 matches\n"
        "1. TextView \"Network & internet\" id=android:id/title [0,470][1080,590]\n"
        "2. Switch desc=\"Airplane mode\" [1,2][3,4] checked\n");
  CHECK_FALSE(render_query_document(Json::parse(R"({"ok":false,"code":"NODE_NOT_FOUND"})")));
}
