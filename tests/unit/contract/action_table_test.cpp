// The action table: its rows are consistent, and docs/payload.md shows them as they are.
#include "clawperator/contract/action_table.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "test_locations.hpp"

using namespace clawperator::contract;

TEST_CASE("docs/payload.md's action table is generated from the rows", "[contract][actions]") {
  std::ifstream file(std::string(CLAWPERATOR_SOURCE_DIR) + "/docs/payload.md", std::ios::binary);
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  const auto regenerated = with_generated_action_table(text.str());
  REQUIRE(regenerated);
  INFO("run: cmake --build build --target docs");
  CHECK(*regenerated == text.str());
}

TEST_CASE("every row is consistent", "[contract][actions]") {
  std::set<std::string_view> names;
  for (const ActionSpec& spec : action_table()) {
    CAPTURE(spec.name);
    // One row per type, and every type's row is found by its own type and name.
    CHECK(&action_spec(spec.type) == &spec);
    CHECK(find_action(spec.name) == &spec);
    CHECK(names.insert(spec.name).second);
    for (const std::string_view alias : spec.aliases) {
      CHECK(names.insert(alias).second);
      CHECK(find_action(alias) == &spec);
    }
    CHECK(find_caller_action(spec.name) == (spec.from_callers ? &spec : nullptr));
    // Exact-input rows (the on-screen log's) take their type only as written.
    CHECK(find_caller_action(std::string(" ") + std::string(spec.name) + " ") ==
          (spec.from_callers && spec.input != InputForm::Verbatim ? &spec : nullptr));
    CHECK_FALSE(spec.title.empty());
    CHECK_FALSE(spec.description.empty());
    // A rule names a param the schema accepts.
    const ParamSchema& schema = spec.schema != nullptr ? *spec.schema : generic_param_schema();
    for (const ParamConstraint& constraint : spec.constraints) {
      if (constraint.kind == ConstraintKind::CrossFieldRule) {
        CHECK(spec.cross_field_rule != nullptr);
        continue;
      }
      CAPTURE(constraint.key);
      CHECK(schema.find(constraint.key) != nullptr);
    }
    // Read-only actions cannot be destructive, and only they merely observe.
    if (spec.read_only) CHECK_FALSE(spec.destructive);
    CHECK(spec.read_only == (spec.effect == StepEffect::Observe));
    if (spec.cross_field_rule != nullptr) CHECK_FALSE(spec.cross_field_rule_summary.empty());
  }
}

TEST_CASE("a step's effect: the row's, but scroll_until that clicks after taps",
          "[contract][actions]") {
  Action scroll;
  scroll.type = ActionType::ScrollUntil;
  CHECK(effect_of(scroll) == StepEffect::Gesture);
  scroll.params.emplace().click_after = true;
  CHECK(effect_of(scroll) == StepEffect::Tap);
  scroll.params->click_after = false;
  CHECK(effect_of(scroll) == StepEffect::Gesture);
  CHECK(action_spec(ActionType::ScrollAndClick).effect == StepEffect::Tap);
  CHECK(action_spec(ActionType::EnterText).effect == StepEffect::Type);
  CHECK(action_spec(ActionType::OpenApp).effect == StepEffect::Navigate);
  CHECK(action_spec(ActionType::PressKey).effect == StepEffect::Navigate);
  CHECK(action_spec(ActionType::MediaPlay).effect == StepEffect::System);
  CHECK(find_step_effect("tap") == StepEffect::Tap);
  CHECK_FALSE(find_step_effect("Tap"));
  for (std::string_view name : kStepEffectNames) CHECK(to_string(*find_step_effect(name)) == name);
}

TEST_CASE("types are normalised through the table", "[contract][actions]") {
  CHECK(normalize_action_type(" TAP ") == "click");
  CHECK(normalize_action_type("Snapshot_UI") == "snapshot");
  CHECK(normalize_action_type("nope") == "nope");
  // The host's own probe is not a caller's action.
  CHECK(find_caller_action("doctor_ping") == nullptr);
  CHECK(find_action("doctor_ping") != nullptr);
  CHECK(is_read_only_action("snapshot_ui"));
  CHECK_FALSE(is_read_only_action("click"));
  CHECK_FALSE(is_read_only_action("unknown"));
}
