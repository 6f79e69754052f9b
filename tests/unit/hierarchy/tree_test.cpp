#include "clawperator/hierarchy/tree.hpp"

#include <catch2/catch.hpp>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/hierarchy/match.hpp"

using clawperator::Json;
using namespace clawperator::hierarchy;
namespace contract = clawperator::contract;

namespace {

// A list with two rows, the second holding a switch; then a button beside the list.
const char* kListXml =
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"1\">\n"
    "<node class=\"androidx.recyclerview.widget.RecyclerView\" resource-id=\"app:id/list\" "
    "text=\"\" content-desc=\"\">"
    "<node class=\"android.widget.TextView\" resource-id=\"app:id/row\" text=\"Wi-Fi\" "
    "content-desc=\"\"/>"
    "<node class=\"android.widget.LinearLayout\" resource-id=\"app:id/row\" text=\"\" "
    "content-desc=\"Bluetooth settings\">"
    "<node class=\"android.widget.Switch\" resource-id=\"app:id/toggle\" text=\"\" "
    "content-desc=\"\" focused=\"true\"/>"
    "</node></node>"
    "<node class=\"android.widget.Button\" resource-id=\"app:id/ok\" text=\"OK\" "
    "content-desc=\"\"/>\n</hierarchy>";

contract::NodeMatcher matcher_of(const Json& json) {
  auto read = contract::read_node_matcher(json, "matcher");
  REQUIRE(read);
  return *read;
}

std::vector<std::string> paths(const Tree& tree, const Json& json) {
  std::vector<std::string> out;
  for (const std::size_t index : find_nodes(tree, matcher_of(json))) {
    out.push_back(tree.nodes[index].path);
  }
  return out;
}

}  // namespace

TEST_CASE("hierarchy: the dump as a tree in document order", "[hierarchy]") {
  const auto tree = parse(kListXml);
  REQUIRE(tree);
  REQUIRE(tree->nodes.size() == 5);
  CHECK(tree->root == Attributes{{"rotation", "1"}});
  CHECK(tree->nodes[0].path == "0");
  CHECK(tree->nodes[0].parent == -1);
  CHECK(tree->nodes[0].subtree_end == 4);
  CHECK(tree->nodes[2].path == "0.1");
  CHECK(tree->nodes[3].path == "0.1.0");
  CHECK(tree->nodes[3].parent == 2);
  CHECK(tree->nodes[3].depth == 2);
  CHECK(tree->nodes[3].subtree_end == 4);
  CHECK(tree->nodes[4].path == "1");
  CHECK(tree->nodes[4].attribute("text") == "OK");
  CHECK(tree->nodes[4].find("focused") == nullptr);
  CHECK(*tree->nodes[3].find("focused") == "true");
  CHECK(tree->nodes[4].attribute("absent").empty());
}

TEST_CASE("hierarchy: a literal TAB or line break in a value reads back as written",
          "[hierarchy]") {
  const auto tree =
      parse("<hierarchy><node text=\"a\tb\nc\" content-desc=\"x&#10;y\"/></hierarchy>");
  REQUIRE(tree);
  CHECK(tree->nodes[0].attribute("text") == "a\tb\nc");
  CHECK(tree->nodes[0].attribute("content-desc") == "x\ny");
}

TEST_CASE("hierarchy: what is not a hierarchy is refused, saying why", "[hierarchy]") {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"<!DOCTYPE hierarchy [<!ENTITY a \"b\">]><hierarchy>&a;</hierarchy>",
       "a DTD is not accepted"},
      {"<root><node/></root>", "the root element is <root>, not <hierarchy>"},
      {"<hierarchy><widget/></hierarchy>", "unexpected element <widget>"},
      {"<hierarchy>\n\ntext<node/></hierarchy>", "stray text in the hierarchy"},
      {"<hierarchy><node></hierarchy>", "malformed XML at line 1: mismatched tag"},
      {"", "malformed XML at line 1: no element found"},
  };
  for (const auto& [xml, message] : refused) {
    INFO(xml);
    const auto tree = parse(xml);
    REQUIRE_FALSE(tree);
    CHECK(tree.error().message == message);
    CHECK_FALSE(tree.error().reason.empty());
  }
  const auto stray = parse("<hierarchy>\n\ntext<node/></hierarchy>");
  CHECK(stray.error().line == 3);
  const auto malformed = parse("<hierarchy>\n<node></hierarchy>");
  CHECK(malformed.error().line == 2);
  CHECK(malformed.error().reason == "mismatched tag");
}

TEST_CASE("hierarchy: the matcher compares each field as the Operator does", "[hierarchy]") {
  const auto tree = parse(kListXml);
  REQUIRE(tree);
  CHECK(paths(*tree, {{"resourceId", "app:id/row"}}) == std::vector<std::string>{"0.0", "0.1"});
  CHECK(paths(*tree, {{"resourceId", "APP:id/row"}}).empty());
  CHECK(paths(*tree, {{"textEquals", "Wi-Fi"}}) == std::vector<std::string>{"0.0"});
  CHECK(paths(*tree, {{"textEquals", "wi-fi"}}).empty());
  CHECK(paths(*tree, {{"textContains", "WI-"}}) == std::vector<std::string>{"0.0"});
  CHECK(paths(*tree, {{"contentDescEquals", "Bluetooth settings"}}) ==
        std::vector<std::string>{"0.1"});
  CHECK(paths(*tree, {{"contentDescContains", "BLUETOOTH"}}) == std::vector<std::string>{"0.1"});
  // role: the Operator's role of the class, else the class's simple name; any case.
  CHECK(paths(*tree, {{"role", "switch"}}) == std::vector<std::string>{"0.1.0"});
  CHECK(paths(*tree, {{"role", "list"}}) == std::vector<std::string>{"0"});
  CHECK(paths(*tree, {{"role", "Button"}}) == std::vector<std::string>{"1"});
  CHECK(paths(*tree, {{"role", "linearlayout"}}) == std::vector<std::string>{"0.1"});
  CHECK(paths(*tree, {{"role", "text"}}) == std::vector<std::string>{"0.0"});
  // Every field must hold.
  CHECK(paths(*tree, {{"resourceId", "app:id/row"}, {"textEquals", "Wi-Fi"}}) ==
        std::vector<std::string>{"0.0"});
}

TEST_CASE("hierarchy: ancestor and descendant are strict relations", "[hierarchy]") {
  const auto tree = parse(kListXml);
  REQUIRE(tree);
  CHECK(paths(*tree, {{"role", "switch"}, {"ancestor", {{"resourceId", "app:id/list"}}}}) ==
        std::vector<std::string>{"0.1.0"});
  CHECK(paths(*tree, {{"role", "button"}, {"ancestor", {{"resourceId", "app:id/list"}}}}).empty());
  CHECK(paths(*tree, {{"resourceId", "app:id/row"}, {"descendant", {{"role", "switch"}}}}) ==
        std::vector<std::string>{"0.1"});
  // The list's descendants, not the list: a relation never matches the node itself.
  CHECK(paths(*tree, {{"descendant", {{"resourceId", "app:id/list"}}}}).empty());
  CHECK(paths(*tree, {{"ancestor", {{"resourceId", "app:id/toggle"}}}}).empty());
  // A relation alone picks every node that has it.
  CHECK(paths(*tree, {{"ancestor", {{"contentDescContains", "bluetooth"}}}}) ==
        std::vector<std::string>{"0.1.0"});
  CHECK(count_matches(*tree, contract::NodeMatcher{}) == 0);
}
