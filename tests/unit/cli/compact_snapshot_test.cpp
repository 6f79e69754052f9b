#include "clawperator/cli/compact_snapshot.hpp"

#include <catch2/catch.hpp>

using clawperator::Json;
using namespace clawperator::cli;

namespace {

const char* kXml =
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
    "<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" "
    "content-desc=\"\" checked=\"false\" clickable=\"false\" bounds=\"[0,0][1080,2400]\">"
    "<node index=\"0\" text=\"Wi&#10;Fi&amp;\" resource-id=\"android:id/title\" "
    "class=\"android.widget.TextView\" content-desc=\"d\xc3\xa9sc\" checked=\"true\" "
    "enabled=\"maybe\" bounds=\"[0,0][10,10]\" />"
    "<node index=\"1\" text=\"second\" class=\"android.view.View\" bounds=\"[0,10][10,20]\" />"
    "</node></hierarchy>";

}  // namespace

TEST_CASE("compact snapshot: nodes in preorder with paths and tri-states", "[cli][compact]") {
  auto projected = project_compact_snapshot(kXml, {});
  REQUIRE(projected);
  const Json& out = *projected;
  CHECK(out["schemaVersion"] == 1);
  CHECK(out["totalNodes"] == 3);
  CHECK(out["returnedNodes"] == 3);
  CHECK(out["omittedNodes"] == 0);
  CHECK(out["truncated"] == false);
  const Json& title = out["nodes"][1];
  CHECK(title["nodePath"] == "0.0");
  CHECK(title["parentPath"] == "0");
  CHECK(title["text"] == "Wi\nFi&");  // a literal line feed survives
  CHECK(title["contentDescription"] == "d\xc3\xa9sc");
  CHECK(title["bounds"] == "[0,0][10,10]");
  CHECK(title["checked"] == true);
  CHECK(title["enabled"].is_null());
  CHECK(title["scrollable"].is_null());
  CHECK(out["nodes"][0]["parentPath"].is_null());
  CHECK(out["nodes"][2]["nodePath"] == "0.1");
}

TEST_CASE("compact snapshot: node and text limits", "[cli][compact]") {
  auto two = project_compact_snapshot(kXml, {2, 256});
  REQUIRE(two);
  CHECK((*two)["returnedNodes"] == 2);
  CHECK((*two)["omittedNodes"] == 1);
  CHECK((*two)["truncated"] == true);
  auto short_text = project_compact_snapshot(kXml, {100, 2});
  REQUIRE(short_text);
  const Json& title = (*short_text)["nodes"][1];
  CHECK(title["text"] == "Wi");
  CHECK(title["textTruncated"] == true);
  CHECK(title["contentDescription"] == "d\xc3\xa9");  // code points, not bytes
  CHECK(title["contentDescriptionTruncated"] == true);
  CHECK((*short_text)["truncated"] == true);
}

TEST_CASE("compact snapshot: what is refused", "[cli][compact]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"<!DOCTYPE hierarchy [<!ENTITY a \"b\">]><hierarchy>&a;</hierarchy>",
       "a DTD is not accepted"},
      {"<root><node/></root>", "the root element is <root>, not <hierarchy>"},
      {"<hierarchy><widget/></hierarchy>", "unexpected element <widget>"},
      {"<hierarchy>text<node/></hierarchy>", "stray text in the hierarchy"},
      {"<hierarchy><node></hierarchy>", "malformed XML at line 1: mismatched tag"},
      {"", "malformed XML at line 1: no element found"},
  };
  for (const auto& [xml, reason] : cases) {
    CAPTURE(xml);
    auto projected = project_compact_snapshot(xml, {});
    REQUIRE_FALSE(projected);
    CHECK(projected.error() == reason);
  }
}
