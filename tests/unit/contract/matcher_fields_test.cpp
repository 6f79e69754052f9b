#include "clawperator/contract/matcher_fields.hpp"

#include <catch2/catch.hpp>
#include <set>

#include "clawperator/contract/payload_validation.hpp"

using namespace clawperator::contract;
using clawperator::Json;

TEST_CASE("matcher fields: one row per field, every spelling unique", "[contract][matcher]") {
  REQUIRE(matcher_fields().size() == 6);
  std::set<std::string_view> spellings;  // of every row before this one
  for (const MatcherFieldRow& row : matcher_fields()) {
    // A row may spell a field the same way twice ("id": short key and alias), never another's.
    std::set<std::string_view> own = {row.key, row.flag, row.container_flag, row.short_key};
    own.insert(row.aliases.begin(), row.aliases.end());
    for (const std::string_view spelling : own) CHECK(spellings.insert(spelling).second);
    INFO(row.key);
    CHECK(&matcher_field_row(row.field) == &row);
    CHECK(matcher_field_by_key(row.key) == &row);
    CHECK(to_string(row.field) == row.key);
    CHECK(row.container_flag == "--container-" + std::string(row.flag.substr(2)));
    for (const std::string_view alias : row.aliases) CHECK(matcher_key_of_alias(alias) == row.key);
    CHECK_FALSE(row.node_attribute.empty());
    CHECK_FALSE(row.help.empty());
  }
  CHECK(matcher_field_by_key(kAncestorKey) == nullptr);
  CHECK(matcher_key_of_alias("resourceId").empty());
}

TEST_CASE("matcher fields: every field and alias is what the payload accepts",
          "[contract][matcher]") {
  for (const MatcherFieldRow& row : matcher_fields()) {
    INFO(row.key);
    const auto read = read_node_matcher(Json{{std::string(row.key), "v"}}, "matcher");
    REQUIRE(read);
    REQUIRE(read->node.fields.size() == 1);
    CHECK(read->node.fields[0].first == row.field);
    for (const std::string_view alias : row.aliases) {
      const auto aliased = read_node_matcher(Json{{std::string(alias), "v"}}, "matcher");
      REQUIRE(aliased);
      CHECK(aliased->node.fields[0].first == row.field);
    }
  }
  const auto unknown = read_node_matcher(Json{{"colour", "red"}}, "matcher");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().front().path == "matcher");
}

TEST_CASE("matcher fields: role of a class as the Operator names it", "[contract][matcher]") {
  CHECK(role_of_class("android.widget.EditText") == "textfield");
  CHECK(role_of_class("android.widget.AutoCompleteTextView") == "textfield");
  CHECK(role_of_class("com.google.android.material.button.MaterialButton") == "button");
  CHECK(role_of_class("android.widget.RadioButton") == "radio");
  CHECK(role_of_class("android.widget.ToggleButton") == "switch");
  CHECK(role_of_class("androidx.appcompat.widget.SwitchCompat") == "switch");
  CHECK(role_of_class("android.widget.CheckBox") == "checkbox");
  CHECK(role_of_class("android.widget.ImageView") == "image");
  CHECK(role_of_class("android.widget.TextView") == "text");
  CHECK(role_of_class("android.widget.ListView") == "list");
  CHECK(role_of_class("android.webkit.WebView") == "scrollview");
  CHECK(role_of_class("android.widget.FrameLayout") == "framelayout");
  const MatcherFieldRow& role = matcher_field_row(MatcherField::Role);
  CHECK(field_accepts(role, "android.widget.Switch", "SWITCH"));
  CHECK(field_accepts(role, "android.widget.Switch", "Switch"));
  CHECK_FALSE(field_accepts(role, "android.widget.Switch", "button"));
  const MatcherFieldRow& contains = matcher_field_row(MatcherField::TextContains);
  CHECK(field_accepts(contains, "Über uns", "üBER"));
  CHECK_FALSE(field_accepts(matcher_field_row(MatcherField::TextEquals), "Über uns", "über uns"));
}
