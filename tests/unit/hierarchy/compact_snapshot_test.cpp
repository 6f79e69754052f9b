#include "clawperator/hierarchy/compact_snapshot.hpp"

#include <catch2/catch.hpp>

#include "clawperator/hierarchy/xml_attribute_whitespace.hpp"

using clawperator::Json;
using namespace clawperator::hierarchy;

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
    CHECK(projected.error() == clawperator::Problem{"", reason});
  }
}

// The XML parser would read a literal TAB, CR or LF in an attribute value as a space; the raw
// bytes must come back as the hierarchy holds them (not written as &#10; here: literal).
TEST_CASE("compact snapshot: literal tabs and line breaks in attributes survive",
          "[cli][compact]") {
  const std::string xml =
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
      "<!-- a\tcomment \"with\nquotes\" -->\n<hierarchy rotation=\"0\">\n"
      "  <node index=\"0\" text=\"line one\nline\ttwo\r\nthree\" "
      "content-desc='tab\there' bounds=\"[0,0][1,1]\">\n"
      "    <node text=\"a > b\n&amp; c\" content-desc=\"\" bounds=\"[0,0][1,1]\"/>\n"
      "  </node>\n</hierarchy>\n";
  auto projected = project_compact_snapshot(xml, {});
  REQUIRE(projected);
  const Json& nodes = (*projected)["nodes"];
  REQUIRE(nodes.size() == 2);
  CHECK(nodes[0]["text"] == "line one\nline\ttwo\r\nthree");
  CHECK(nodes[0]["contentDescription"] == "tab\there");
  CHECK(nodes[1]["text"] == "a > b\n& c");
  CHECK(nodes[1]["nodePath"] == "0.0");
}

TEST_CASE("attribute white space escaping touches attribute values only", "[cli][compact]") {
  CHECK_FALSE(escape_attribute_whitespace("<hierarchy>\n\t<node text=\"a b\"/>\n</hierarchy>"));
  CHECK(*escape_attribute_whitespace("<a x=\"1\t2\" y='3\n'>\n<b z=\"\r\"/></a>") ==
        "<a x=\"1&#9;2\" y='3&#10;'>\n<b z=\"&#13;\"/></a>");
  // A quote of the other kind does not end the value; comments, CDATA and PIs stay as they are.
  CHECK(*escape_attribute_whitespace(
            "<?pi \"\n\"?><!--\"\n--><a x=\"it's\n\"><![CDATA[\"\n]]></a>") ==
        "<?pi \"\n\"?><!--\"\n--><a x=\"it's&#10;\"><![CDATA[\"\n]]></a>");
}
