#include "clawperator/hierarchy/near_match.hpp"

#include <catch2/catch.hpp>

#include "clawperator/contract/payload_validation.hpp"

using clawperator::Json;
using namespace clawperator::hierarchy;
namespace contract = clawperator::contract;

namespace {

// A settings list as query_ui summarises it: labels are texts, else descriptions.
Json settings_query() {
  const auto node = [](const char* path, const char* label, const char* desc, const char* id) {
    return Json{{"nodePath", path},
                {"label", label},
                {"contentDescription", desc},
                {"resourceId", id},
                {"className", "android.widget.TextView"}};
  };
  return Json{{"nodes", Json::array({
                            node("0", "", "", "com.android.settings:id/list"),
                            node("0.0", "Network & internet", "", "android:id/title"),
                            node("0.1", "Connected devices", "", "android:id/title"),
                            node("0.2", "Apps", "", "android:id/title"),
                            node("0.3", "Search settings", "Search settings",
                                 "com.android.settings:id/search_action_bar"),
                            node("0.4", "Internet", "", "android:id/summary"),
                            node("0.5", "Apps", "", "android:id/title"),
                        })}};
}

contract::NodeMatcher asked_matcher(const Json& json) {
  auto read = contract::read_node_matcher(json, "matcher");
  REQUIRE(read);
  return *read;
}

std::vector<Json> near(const Json& matcher) {
  const Tree tree = tree_of_query(settings_query());
  std::vector<Json> out;
  for (const NearMatch& match : near_matches(tree, asked_matcher(matcher))) {
    out.push_back(to_json(tree, match));
  }
  return out;
}

std::optional<Closeness> close(std::string_view asked, std::string_view value) {
  std::size_t edits = 0;
  return closeness(asked, value, edits);
}

}  // namespace

TEST_CASE("closeness: case, spacing, a few edits, containment, then nothing", "[hierarchy][near]") {
  CHECK(close("OK", "OK") == Closeness::Same);
  CHECK(close("network & internet", "Network & internet") == Closeness::Case);
  CHECK(close("ÉCRAN", "écran") == Closeness::Case);
  CHECK(close("  network   &  internet ", "Network & internet") == Closeness::WhiteSpace);
  std::size_t edits = 0;
  CHECK(closeness("Network & internt", "Network & internet", edits) == Closeness::Edits);
  CHECK(edits == 1);
  CHECK(close("Netwrk & intrnet", "Network & internet") == Closeness::Edits);
  CHECK(close("internet", "Network & internet") == Closeness::Contains);
  CHECK(close("Network & internet settings", "Network & internet") == Closeness::Contains);
  // Too short to be judged by edits or containment: "OK" is not "NO", "ok" not in "Book".
  CHECK_FALSE(close("OK", "NO"));
  CHECK_FALSE(close("ok", "Book"));
  CHECK_FALSE(close("Bluetooth", "Network & internet"));
  // A long value only just inside the other is not close.
  CHECK_FALSE(close("Network & internet settings for the whole household", "Network"));
  CHECK_FALSE(close("", "x"));
  // One word misspelt, of a longer value.
  std::size_t word_edits = 0;
  CHECK(closeness("Netwrk", "Network & internet", word_edits) == Closeness::Word);
  CHECK(word_edits == 1);
  CHECK_FALSE(close("Netwrk settings", "Network & internet"));
  CHECK_FALSE(close("Bluetoth", "Network & internet"));
}

TEST_CASE("near matches: a misspelt word of a row names the row", "[hierarchy][near]") {
  const std::vector<Json> found = near({{"textContains", "Netwrk"}});
  REQUIRE(found.size() == 1);
  CHECK(found[0]["matcher"] == Json{{"textEquals", "Network & internet"}});
  CHECK(found[0]["why"] == "text has a word 1 character from \"Netwrk\"");
}

TEST_CASE("edit limit: none for short values, then one, then a quarter", "[hierarchy][near]") {
  CHECK(edit_limit(3) == 0);
  CHECK(edit_limit(4) == 1);
  CHECK(edit_limit(7) == 1);
  CHECK(edit_limit(8) == 2);
  CHECK(edit_limit(18) == 4);
}

TEST_CASE("near matches: the case-blind text first, with a matcher that finds it",
          "[hierarchy][near]") {
  const std::vector<Json> found = near({{"textEquals", "network & internet"}});
  // "Internet" alone is less than half of what was asked: not close.
  REQUIRE(found.size() == 1);
  CHECK(found[0] == Json{{"text", "Network & internet"},
                         {"resourceId", "android:id/title"},
                         {"matcher", {{"textEquals", "Network & internet"}}},
                         {"why", "text differs from \"network & internet\" only in case"}});
  // The pasted matcher finds the node.
  const Tree tree = tree_of_query(settings_query());
  CHECK(near_matches(tree, asked_matcher(found[0]["matcher"])).front().closeness ==
        Closeness::Same);
}

TEST_CASE("near matches: a description is pasted as contentDescEquals, an id as resourceId",
          "[hierarchy][near]") {
  // The summary's label is its description again: the node has no text of its own.
  const std::vector<Json> by_desc = near({{"textEquals", "search settings"}});
  REQUIRE_FALSE(by_desc.empty());
  CHECK(by_desc[0]["matcher"] == Json{{"contentDescEquals", "Search settings"}});
  CHECK_FALSE(by_desc[0].contains("text"));
  const std::vector<Json> by_id = near({{"resourceId", "search_acton_bar"}});
  REQUIRE_FALSE(by_id.empty());
  CHECK(by_id[0]["matcher"] == Json{{"resourceId", "com.android.settings:id/search_action_bar"}});
}

TEST_CASE("near matches: nodes alike give one matcher, at most five, none for a role",
          "[hierarchy][near]") {
  const std::vector<Json> apps = near({{"textContains", "apps"}});
  REQUIRE(apps.size() == 1);
  CHECK(apps[0]["matcher"] == Json{{"textEquals", "Apps"}});
  CHECK(near({{"role", "text"}}).empty());
  CHECK(near({{"textEquals", "Bluetooth"}}).empty());
  CHECK(near({{"resourceId", "title"}}).size() <= 5);
}
