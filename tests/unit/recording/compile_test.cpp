// compile: a recording into payloads exec accepts, each click on the most stable matcher the
// event allows, strict only when the snapshot before it shows that matcher unique.
#include "clawperator/recording/compile.hpp"

#include <catch2/catch.hpp>
#include <vector>

#include "clawperator/contract/payload_validation.hpp"
#include "recording_lines.hpp"
#include "scripted_device.hpp"
#include "test_files.hpp"

using namespace clawperator;
using namespace clawperator::test_recording;
using clawperator::testing::write_file;

namespace {

recording::CompiledRecording compile_lines(const std::vector<std::string>& lines,
                                           const recording::CompileOptions& options = {}) {
  const testing::TemporaryDirectory dir{"recording-compile"};
  const auto input = dir.path() / "rec.ndjson";
  std::string content;
  for (const std::string& line : lines) content += line + "\n";
  write_file(input, content);
  auto compiled = recording::compile_recording(input, options);
  REQUIRE(compiled.has_value());
  for (const Json& payload : compiled->payloads) {
    INFO(dump_json(payload));
    CHECK(contract::validate_execution(payload).valid.has_value());
  }
  return std::move(*compiled);
}

Json wait_for(Json matcher) {
  return {{"matcher", std::move(matcher)}, {"timeoutMs", recording::kCompiledWaitTimeoutMs}};
}

// The params of every action, with its type, in order.
std::vector<std::pair<std::string, Json>> steps_of(const recording::CompiledRecording& compiled) {
  std::vector<std::pair<std::string, Json>> steps;
  for (const Json& payload : compiled.payloads) {
    for (const Json& action : payload.at("actions")) {
      steps.emplace_back(action.at("type").get<std::string>(), action.at("params"));
    }
  }
  return steps;
}

}  // namespace

TEST_CASE("compile: open_app, waits for each next screen, strict clicks, typing, back",
          "[recording][compile]") {
  const std::string home = hierarchy(node("id/title", "Home") + node("id/name", "") +
                                     node("id/row", "Item") + node("id/row", "Item 2"));
  const std::string detail = hierarchy(node("id/detail_title", "Details"));
  ClickFields name;
  name.resource_id = "id/name";
  ClickFields row;
  row.resource_id = "id/row";
  row.text = "Item 2";
  const auto compiled = compile_lines(
      {header_line("rec-1"), window_change_line(0, "com.example.app", home),
       click_line(1, name, home), text_change_line(2, "h"), text_change_line(3, "hello"),
       click_line(4, row, home), window_change_line(5, "com.example.app", detail),
       press_back_line(6, detail), window_change_line(7, "com.example.app", home)});
  using Steps = std::vector<std::pair<std::string, Json>>;
  const Steps expected{
      {"open_app", {{"applicationId", "com.example.app"}}},
      {"wait_for_node", wait_for({{"resourceId", "id/name"}})},
      {"click", {{"matcher", {{"resourceId", "id/name"}}}, {"strict", true}}},
      {"enter_text",
       {{"matcher", {{"resourceId", "id/name"}}}, {"text", "hello"}, {"clear", true}}},
      // id/row names two rows; the text names one.
      {"wait_for_node", wait_for({{"textEquals", "Item 2"}})},
      {"click", {{"matcher", {{"textEquals", "Item 2"}}}, {"strict", true}}},
      // The screen the click led to, by its landmark.
      {"wait_for_node", wait_for({{"resourceId", "id/detail_title"}})},
      {"press_key", {{"key", "back"}}},
      // The screen the recording ended on.
      {"wait_for_node", wait_for({{"resourceId", "id/title"}})},
  };
  CHECK(steps_of(compiled) == expected);
  CHECK(compiled.warnings.empty());
  REQUIRE(compiled.payloads.size() == 1);
  const Json& payload = compiled.payloads.front();
  CHECK(payload.at("commandId") == "recording-rec-1");
  CHECK(payload.at("taskId") == "recording-rec-1");
  CHECK(payload.at("source") == "clawperator-recording");
  CHECK(payload.at("timeoutMs") == 5000 + 4 * 10000 + 5 * 5000);
  CHECK(payload.at("actions").at(2).at("id") == "click-3");
  const Json document = recording::to_json(compiled);
  CHECK(document.at("actionCount") == 9);
  CHECK(document.at("payloadCount") == 1);
  CHECK(document.at("execution") == payload);
  CHECK_FALSE(document.contains("warnings"));
}

TEST_CASE("compile: the matcher is the most stable one the event and its snapshot allow",
          "[recording][compile]") {
  struct Case {
    const char* name;
    ClickFields fields;
    std::string snapshot;
    Json params;
    const char* warning;  // the start of the one warning after "line 2 (seq 0): ", or ""
  };
  auto fields = [](Json id, Json text, Json desc) {
    ClickFields f;
    f.resource_id = std::move(id);
    f.text = std::move(text);
    f.content_desc = std::move(desc);
    f.left = 100, f.top = 200, f.right = 301, f.bottom = 400;
    return f;
  };
  const std::vector<Case> cases{
      {"a unique resource id, strict",
       fields("id/ok", "OK", "Confirm"),
       hierarchy(node("id/ok", "OK", "Confirm") + node("id/cancel", "OK")),
       {{"matcher", {{"resourceId", "id/ok"}}}, {"strict", true}},
       ""},
      {"the id is shared, the text is unique",
       fields("id/row", "Two", nullptr),
       hierarchy(node("id/row", "One") + node("id/row", "Two")),
       {{"matcher", {{"textEquals", "Two"}}}, {"strict", true}},
       ""},
      {"only a content description",
       fields(nullptr, nullptr, "Navigate up"),
       hierarchy(node("", "", "Navigate up")),
       {{"matcher", {{"contentDescEquals", "Navigate up"}}}, {"strict", true}},
       ""},
      {"id and text each shared, together unique",
       fields("id/row", "Same", nullptr),
       hierarchy(node("id/row", "Same") + node("id/row", "Other") + node("id/head", "Same")),
       {{"matcher", {{"resourceId", "id/row"}, {"textEquals", "Same"}}}, {"strict", true}},
       ""},
      {"nothing unique: the first present, not strict",
       fields("id/row", nullptr, nullptr),
       hierarchy(node("id/row", "a") + node("id/row", "b")),
       {{"matcher", {{"resourceId", "id/row"}}}},
       "{\"resourceId\":\"id/row\"} matches 2 nodes in the snapshot before the click"},
      {"no snapshot: no strict",
       fields(nullptr, "OK", nullptr),
       "",
       {{"matcher", {{"textEquals", "OK"}}}},
       "no snapshot before the click, so whether {\"textEquals\":\"OK\"} is unique is unknown"},
      {"a blank text is no matcher",
       fields(nullptr, "  ", "Go"),
       hierarchy(node("", "  ", "Go")),
       {{"matcher", {{"contentDescEquals", "Go"}}}, {"strict", true}},
       ""},
      {"nothing to name it: the centre of its bounds",
       fields(nullptr, nullptr, nullptr),
       hierarchy(node("id/x", "x")),
       {{"coordinate", {{"x", 200}, {"y", 300}}}},
       "the click has no resourceId, text or contentDesc; replayed as a tap at the centre of its "
       "bounds (200, 300)"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const auto compiled = compile_lines({header_line(), click_line(0, c.fields, c.snapshot)});
    const auto steps = steps_of(compiled);
    REQUIRE(steps.size() == 1);
    CHECK(steps.front().first == "click");
    CHECK(steps.front().second == c.params);
    if (std::string(c.warning).empty()) {
      CHECK(compiled.warnings.empty());
    } else {
      REQUIRE(compiled.warnings.size() == 1);
      const std::string warning = compiled.warnings.at(0).get<std::string>();
      CHECK(warning.rfind(std::string("line 2 (seq 0): ") + c.warning, 0) == 0);
    }
  }
}

TEST_CASE("compile: what cannot be replayed is a warning with its physical line",
          "[recording][compile]") {
  ClickFields nothing;  // no fields, zero bounds
  const auto compiled = compile_lines(
      {header_line(), "", window_change_line(0, "com.example.app", hierarchy(node("id/a", "A"))),
       text_change_line(1, "typed before any click"), scroll_line(2), click_line(3, nothing)});
  CHECK(steps_of(compiled).size() == 1);  // the open_app
  REQUIRE(compiled.warnings.size() == 3);
  CHECK(compiled.warnings.at(0) ==
        "line 4 (seq 1): text change with no clicked field before it to type into; not replayed");
  CHECK(compiled.warnings.at(1).get<std::string>().rfind("line 5 (seq 2): scroll not replayed",
                                                         0) == 0);
  CHECK(compiled.warnings.at(2) ==
        "line 6 (seq 3): the click has no resourceId, text, contentDesc or bounds; not replayed");
}

TEST_CASE("compile: a field emptied is not typed; no waits without a snapshot between steps",
          "[recording][compile]") {
  ClickFields field;
  field.resource_id = "id/field";
  ClickFields ok;
  ok.text = "OK";
  const auto compiled =
      compile_lines({header_line(), click_line(0, field), text_change_line(1, "x"),
                     text_change_line(2, ""), click_line(3, ok)});
  const auto steps = steps_of(compiled);
  REQUIRE(steps.size() == 2);
  CHECK(steps.at(0).first == "click");
  CHECK(steps.at(1).first == "click");
  std::vector<std::string> warnings;
  for (const Json& warning : compiled.warnings) warnings.push_back(warning.get<std::string>());
  CHECK(std::find(warnings.begin(), warnings.end(),
                  "line 4 (seq 2): the field was emptied; enter_text needs text, so this is not "
                  "replayed") != warnings.end());
  CHECK(std::find(warnings.begin(), warnings.end(),
                  "line 5 (seq 3): no snapshot between the previous step and this one, so the "
                  "replay does not wait for the screen before it") != warnings.end());
}

TEST_CASE("compile: many steps become several payloads within the limits", "[recording][compile]") {
  std::vector<std::string> lines{header_line("long")};
  for (int seq = 0; seq < 120; ++seq) {
    ClickFields button;
    button.text = "Button " + std::to_string(seq);
    lines.push_back(click_line(seq, button, hierarchy(node("", "Button " + std::to_string(seq)))));
  }
  const auto compiled = compile_lines(lines);
  CHECK(compiled.action_count == 120 + 119);
  REQUIRE(compiled.payloads.size() > 1);
  std::size_t total = 0;
  for (std::size_t index = 0; index < compiled.payloads.size(); ++index) {
    const Json& payload = compiled.payloads[index];
    CHECK(payload.at("commandId") == "recording-long-part" + std::to_string(index + 1));
    CHECK(payload.at("actions").size() <= 50);
    CHECK(payload.at("timeoutMs").get<int>() <= 120000);
    total += payload.at("actions").size();
  }
  CHECK(total == compiled.action_count);
  CHECK(recording::to_json(compiled).at("executions").size() == compiled.payloads.size());
}

TEST_CASE("compile: nothing replayable is an error; ids are made safe", "[recording][compile]") {
  const testing::TemporaryDirectory dir{"recording-compile-empty"};
  const auto input = dir.path() / "rec.ndjson";
  write_file(input, header_line() + "\n" + scroll_line(0) + "\n");
  auto compiled = recording::compile_recording(input);
  REQUIRE_FALSE(compiled.has_value());
  CHECK(compiled.error().code == "RECORDING_PARSE_FAILED");
  CHECK(compiled.error().message == "Recording has no replayable steps");
  CHECK(compiled.error().details.at("warnings").size() == 1);

  CHECK(recording::compiled_command_id("a b/c") == "recording-a_b_c");
  CHECK(recording::compiled_command_id(std::string(300, 'x')).size() == 110);
}

TEST_CASE("compile: an out-of-order file compiles in seq order", "[recording][compile]") {
  ClickFields first;
  first.text = "First";
  ClickFields second;
  second.text = "Second";
  const std::string screen = hierarchy(node("", "First") + node("", "Second"));
  const auto compiled = compile_lines({header_line(), click_line(2, second, screen),
                                       window_change_line(0, "com.example.app", screen),
                                       click_line(1, first, screen)});
  using Steps = std::vector<std::pair<std::string, Json>>;
  const Steps expected{
      {"open_app", {{"applicationId", "com.example.app"}}},
      {"wait_for_node", wait_for({{"textEquals", "First"}})},
      {"click", {{"matcher", {{"textEquals", "First"}}}, {"strict", true}}},
      {"wait_for_node", wait_for({{"textEquals", "Second"}})},
      {"click", {{"matcher", {{"textEquals", "Second"}}}, {"strict", true}}},
  };
  CHECK(steps_of(compiled) == expected);
}

TEST_CASE("compile: close_app_first starts the replay from the app's launch screen",
          "[recording][compile]") {
  const std::vector<std::string> lines{header_line(), window_change_line(0, "com.example.app")};
  using Steps = std::vector<std::pair<std::string, Json>>;
  CHECK(steps_of(compile_lines(lines)) ==
        Steps{{"open_app", {{"applicationId", "com.example.app"}}}});
  CHECK(steps_of(compile_lines(lines, {true})) ==
        Steps{{"close_app", {{"applicationId", "com.example.app"}}},
              {"open_app", {{"applicationId", "com.example.app"}}}});
}

TEST_CASE("compile: typing on a screen that opened with a field focused goes to that field",
          "[recording][compile]") {
  const std::string home = hierarchy(node("id/title", "Home") + node("id/search_bar", "Search"));
  const std::string focused_field =
      "<node index=\"0\" text=\"\" resource-id=\"id/search_src\" class=\"android.widget.EditText\" "
      "package=\"com.example.app\" content-desc=\"Search\" focused=\"true\" "
      "bounds=\"[0,0][100,100]\" />";
  const std::string search = hierarchy(focused_field + node("id/empty", "No results"));
  ClickFields bar;
  bar.resource_id = "id/search_bar";
  const auto compiled = compile_lines(
      {header_line("rec-focus"), window_change_line(0, "com.example.app", home),
       click_line(1, bar, home), window_change_line(2, "com.example.app", search),
       text_change_line(3, "w"), text_change_line(4, "wifi"), press_back_line(5, search)});
  using Steps = std::vector<std::pair<std::string, Json>>;
  const Steps expected{
      {"open_app", {{"applicationId", "com.example.app"}}},
      {"wait_for_node", wait_for({{"resourceId", "id/search_bar"}})},
      {"click", {{"matcher", {{"resourceId", "id/search_bar"}}}, {"strict", true}}},
      // Not the search bar that was clicked: the field the new screen focused, once it is there.
      {"wait_for_node", wait_for({{"resourceId", "id/search_src"}})},
      {"enter_text",
       {{"matcher", {{"resourceId", "id/search_src"}}}, {"text", "wifi"}, {"clear", true}}},
      {"wait_for_node", wait_for({{"resourceId", "id/search_src"}})},
      {"press_key", {{"key", "back"}}},
  };
  CHECK(steps_of(compiled) == expected);
  CHECK(compiled.warnings.empty());
}
