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

// A wait as compile makes it; the lines' events are 100 ms apart unless at_ms says otherwise,
// which is below the bound.
Json wait_for(Json matcher, int timeout_ms = recording::kCompiledWaitMinMs) {
  return {{"matcher", std::move(matcher)}, {"timeoutMs", timeout_ms}};
}

using Steps = std::vector<std::pair<std::string, Json>>;

// The params of every action, with its type, in order.
Steps steps_of(const recording::CompiledRecording& compiled) {
  Steps steps;
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
  // 5000 + 4 waits of 2000 + 5 actions of 3000 = 28000, raised to the 30000 floor.
  CHECK(payload.at("timeoutMs") == 30000);
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
       text_change_line(1, "typed before any click"), click_line(2, nothing)});
  // The open_app, and a wait for the screen it opened, which the recording ended on.
  const Steps expected{{"open_app", {{"applicationId", "com.example.app"}}},
                       {"wait_for_node", wait_for({{"resourceId", "id/a"}})}};
  CHECK(steps_of(compiled) == expected);
  REQUIRE(compiled.warnings.size() == 2);
  CHECK(compiled.warnings.at(0) ==
        "line 4 (seq 1): text change with no clicked field before it to type into; not replayed");
  CHECK(compiled.warnings.at(1) ==
        "line 5 (seq 2): the click has no resourceId, text, contentDesc or bounds; not replayed");
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
  write_file(input, header_line() + "\n" + text_change_line(0, "typed") + "\n");
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

namespace {

// A settings-like screen: a toolbar over a scrollable list of the rows named, each a title at
// `top_of_first` and below, 100 px apart.
std::string list_screen(const std::vector<std::string>& titles, int top_of_first = 300) {
  std::string rows;
  int top = top_of_first;
  for (const std::string& title : titles) {
    rows += node("id/title", title, "",
                 "[0," + std::to_string(top) + "][1080," + std::to_string(top + 100) + "]");
    top += 100;
  }
  return hierarchy(node("id/toolbar", "Settings") + scrollable_list("id/list", rows));
}

std::vector<std::string> warnings_of(const recording::CompiledRecording& compiled) {
  std::vector<std::string> warnings;
  for (const Json& warning : compiled.warnings) warnings.push_back(warning.get<std::string>());
  return warnings;
}

}  // namespace

TEST_CASE("compile: scrolls before a tap on a row they brought on screen are a scroll_until",
          "[recording][compile]") {
  const std::string top = list_screen({"Network", "Display"});
  const std::string scrolled = list_screen({"Display", "Passwords"});
  const std::string accounts = hierarchy(node("id/accounts_title", "Accounts"));
  const ClickFields row = click_on_text("Passwords");
  const auto compiled =
      compile_lines({header_line(), window_change_line(0, "com.example.app", top),
                     scroll_line(1, "com.example.app", 5, "id/list"),
                     scroll_line(2, "com.example.app", 9, "id/list"), click_line(3, row, scrolled),
                     window_change_line(4, "com.example.app", accounts)});
  const Steps expected{
      {"open_app", {{"applicationId", "com.example.app"}}},
      // The screen the scrolls started from: the row is not on it yet.
      {"wait_for_node", wait_for({{"resourceId", "id/toolbar"}})},
      // Two recorded scrolls: twice as many, plus 3, at 1000 ms each.
      {"scroll_until",
       {{"matcher", {{"textEquals", "Passwords"}}},
        {"direction", "down"},
        {"container", {{"resourceId", "id/list"}}},
        {"maxScrolls", 2 * 2 + recording::kCompiledExtraScrolls},
        {"maxDurationMs", 7 * recording::kCompiledScrollBudgetMs}}},
      {"click", {{"matcher", {{"textEquals", "Passwords"}}}, {"strict", true}}},
      {"wait_for_node", wait_for({{"resourceId", "id/accounts_title"}})},
  };
  CHECK(steps_of(compiled) == expected);
  CHECK(compiled.warnings.empty());
}

TEST_CASE("compile: a scroll's direction from its offsets, else from how the screen moved",
          "[recording][compile]") {
  const ClickFields row = click_on_text("Passwords");
  struct Case {
    const char* name;
    std::string before, after;
    std::string scroll;
    const char* direction;
  };
  const std::vector<Case> cases{
      // A RecyclerView reports no offsets: "Display" went up the screen, so the list went down.
      {"down by the screens", list_screen({"Network", "Display"}),
       list_screen({"Display", "Passwords"}), scroll_line(1, "com.example.app", 0), "down"},
      {"up by the screens", list_screen({"Network", "Display"}),
       list_screen({"Passwords", "Network"}), scroll_line(1, "com.example.app", 0), "up"},
      {"right by the offsets", list_screen({"Network"}), list_screen({"Passwords"}),
       scroll_line(1, "com.example.app", 0, nullptr, 640), "right"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const auto compiled =
        compile_lines({header_line(), window_change_line(0, "com.example.app", c.before), c.scroll,
                       click_line(2, row, c.after)});
    const auto steps = steps_of(compiled);
    REQUIRE(steps.size() == 4);
    CHECK(steps.at(2).first == "scroll_until");
    CHECK(steps.at(2).second.at("direction") == c.direction);
    CHECK_FALSE(steps.at(2).second.contains("container"));  // the scroll named none
    CHECK(compiled.warnings.empty());
  }
  // Neither tells: down, said so.
  const ClickFields b = click_on_text("B");
  const auto unknown =
      compile_lines({header_line(), window_change_line(0, "com.example.app", list_screen({"A"})),
                     scroll_line(1, "com.example.app", 0), click_line(2, b, list_screen({"B"}))});
  CHECK(steps_of(unknown).at(2).second.at("direction") == "down");
  CHECK(warnings_of(unknown) ==
        std::vector<std::string>{"line 3 (seq 1): neither the scroll's offsets nor the screens "
                                 "around it tell its direction; replayed as down"});
}

TEST_CASE("compile: scrolls no tap needed are replayed by position, with a warning",
          "[recording][compile]") {
  const std::string top = list_screen({"Network", "Display"});
  SECTION("scrolls at the end of the recording") {
    const auto compiled =
        compile_lines({header_line(), window_change_line(0, "com.example.app", top),
                       scroll_line(1, "com.example.app", 9, "id/list"),
                       scroll_line(2, "com.example.app", 4, "id/list")});
    const Json container = {{"resourceId", "id/list"}};
    const Steps expected{
        {"open_app", {{"applicationId", "com.example.app"}}},
        {"wait_for_node", wait_for({{"resourceId", "id/toolbar"}})},
        {"scroll", {{"direction", "down"}, {"container", container}}},
        {"scroll", {{"direction", "up"}, {"container", container}}},
    };
    CHECK(steps_of(compiled) == expected);
    const std::string why =
        "): no later tap needed it to find its target, so it holds only for the same screen size "
        "and content";
    CHECK(warnings_of(compiled) ==
          std::vector<std::string>{
              "line 3 (seq 1): scroll replayed by position (scroll down in id/list" + why,
              "line 4 (seq 2): scroll replayed by position (scroll up in id/list" + why});
  }
  SECTION("a tap on what was on screen before the scroll") {
    const ClickFields toolbar = click_on_id("id/toolbar");
    const auto compiled =
        compile_lines({header_line(), window_change_line(0, "com.example.app", top), scroll_line(1),
                       click_line(2, toolbar, list_screen({"Display", "Passwords"}))});
    const Steps expected{
        {"open_app", {{"applicationId", "com.example.app"}}},
        {"wait_for_node", wait_for({{"resourceId", "id/toolbar"}})},
        {"scroll", {{"direction", "down"}}},
        // The screen after the scroll, which the tap saw.
        {"wait_for_node", wait_for({{"resourceId", "id/toolbar"}})},
        {"click", {{"matcher", {{"resourceId", "id/toolbar"}}}, {"strict", true}}},
    };
    CHECK(steps_of(compiled) == expected);
    REQUIRE(compiled.warnings.size() == 1);
    CHECK(compiled.warnings.at(0).get<std::string>().rfind(
              "line 3 (seq 1): scroll replayed by position (scroll down)", 0) == 0);
  }
  SECTION("a scroll, then the back key") {
    const auto compiled =
        compile_lines({header_line(), window_change_line(0, "com.example.app", top), scroll_line(1),
                       press_back_line(2, list_screen({"Display", "Passwords"}))});
    const Steps expected{
        {"open_app", {{"applicationId", "com.example.app"}}},
        {"wait_for_node", wait_for({{"resourceId", "id/toolbar"}})},
        {"scroll", {{"direction", "down"}}},
        // The back key's snapshot: the screen the scroll led to.
        {"wait_for_node", wait_for({{"resourceId", "id/toolbar"}})},
        {"press_key", {{"key", "back"}}},
    };
    CHECK(steps_of(compiled) == expected);
    CHECK(compiled.warnings.size() == 1);
  }
  SECTION("no screen recorded before the scroll: a target outside every list") {
    const ClickFields row = click_on_text("Network");
    const ClickFields toolbar = click_on_id("id/toolbar");
    // The row's own snapshot is the screen before the click, not the one after it.
    const auto compiled =
        compile_lines({header_line(), click_line(0, row, top), scroll_line(1),
                       click_line(2, toolbar, list_screen({"Display", "Passwords"}))});
    const auto steps = steps_of(compiled);
    REQUIRE(steps.size() == 4);
    CHECK(steps.at(1).first == "scroll");
    CHECK(steps.at(2).first == "wait_for_node");
    CHECK(steps.at(3).first == "click");
  }
}

TEST_CASE("compile: no screen recorded before the scroll, a target inside the list: scroll_until",
          "[recording][compile]") {
  const ClickFields network = click_on_text("Network");
  const ClickFields row = click_on_text("Passwords");
  const auto compiled =
      compile_lines({header_line(), click_line(0, network, list_screen({"Network", "Display"})),
                     scroll_line(1), click_line(2, row, list_screen({"Display", "Passwords"}))});
  const auto steps = steps_of(compiled);
  REQUIRE(steps.size() == 3);
  CHECK(steps.at(1).first == "scroll_until");
  CHECK(steps.at(1).second.at("matcher") == Json{{"textEquals", "Passwords"}});
  CHECK(warnings_of(compiled) ==
        std::vector<std::string>{"line 3 (seq 1): no snapshot between the previous step and this "
                                 "one, so the replay does not wait for the screen before it"});
}

TEST_CASE("compile: each wait is given twice the gap the recording saw, within its bounds",
          "[recording][compile]") {
  const std::string home = hierarchy(node("id/home", "Home") + node("id/a", "A"));
  const std::string second = hierarchy(node("id/second", "Second") + node("id/b", "B"));
  const std::string third = hierarchy(node("id/third", "Third"));
  const ClickFields a = click_on_id("id/a");
  const ClickFields b = click_on_id("id/b");
  const auto compiled = compile_lines({
      header_line(), at_ms(window_change_line(0, "com.example.app", home), 0),
      at_ms(click_line(1, a, home), 300),                              // 0.3 s: the 2 s floor
      at_ms(window_change_line(2, "com.example.app", second), 1000),   //
      at_ms(click_line(3, b, second), 3300),                           // 3 s: 6 s
      at_ms(window_change_line(4, "com.example.app", third), 4000),    //
      at_ms(press_back_line(5, third), 33300),                         // 30 s: the 10 s ceiling
      at_ms(window_change_line(6, "com.example.app", second), 37300),  // 4 s: 8 s
  });
  const Steps expected{
      {"open_app", {{"applicationId", "com.example.app"}}},
      {"wait_for_node", wait_for({{"resourceId", "id/a"}}, 2000)},
      {"click", {{"matcher", {{"resourceId", "id/a"}}}, {"strict", true}}},
      {"wait_for_node", wait_for({{"resourceId", "id/b"}}, 6000)},
      {"click", {{"matcher", {{"resourceId", "id/b"}}}, {"strict", true}}},
      {"wait_for_node", wait_for({{"resourceId", "id/third"}}, 10000)},
      {"press_key", {{"key", "back"}}},
      // The last screen: the gap to the snapshot that showed it.
      {"wait_for_node", wait_for({{"resourceId", "id/second"}}, 8000)},
  };
  CHECK(steps_of(compiled) == expected);
  REQUIRE(compiled.payloads.size() == 1);
  CHECK(compiled.payloads.front().at("timeoutMs") ==
        5000 + (2000 + 6000 + 10000 + 8000) + 4 * recording::kCompiledActionBudgetMs);
}

TEST_CASE("compile: seventeen taps at a person's pace stay one payload", "[recording][compile]") {
  std::vector<std::string> lines{
      header_line("taps"),
      at_ms(window_change_line(0, "com.example.app", hierarchy(node("", "Button 1"))), 0)};
  // A tap every 1.5 s, each on the screen the one before led to.
  for (int tap = 1; tap <= 17; ++tap) {
    lines.push_back(at_ms(click_line(tap, click_on_text("Button " + std::to_string(tap)),
                                     hierarchy(node("", "Button " + std::to_string(tap)))),
                          tap * 1500));
  }
  const auto compiled = compile_lines(lines);
  CHECK(compiled.action_count == 1 + 17 + 17);  // open_app, and a wait before each tap
  REQUIRE(compiled.payloads.size() == 1);
  CHECK(compiled.payloads.front().at("commandId") == "recording-taps");
  CHECK(compiled.payloads.front().at("timeoutMs") == 5000 + 17 * 3000 + 18 * 3000);
  CHECK(recording::to_json(compiled).at("payloadCount") == 1);
}
