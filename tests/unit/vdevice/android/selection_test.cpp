// How the simulated Operator selects nodes (docs/payload.md §10.2): its comparisons, the
// relations under query_ui's visibility, the candidates of an ambiguous selection, and the scope
// of a scroll search. Against examples/scenarios/observation.json's panes app: two scrollable
// lists that both hold an "Archive" row, the inbox's scrolled away.
#include <catch2/catch.hpp>
#include <set>
#include <stdexcept>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/transport/envelope.hpp"
#include "vdevice/android/operator/node_summary.hpp"
#include "vdevice/android/operator/unicode_text.hpp"
#include "vdevice/android/ui/ui_model.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

const std::string kInbox = "com.example.panes:id/inbox";

Scenario panes_scenario() {
  return quiet_example_scenario("observation");
}

NodeMatcher matcher(std::string NodeMatcher::*field, const std::string& value) {
  NodeMatcher out;
  out.*field = value;
  return out;
}

const transport::StepResult& only_step(const transport::Envelope& envelope) {
  REQUIRE(envelope.steps.size() >= 1);
  return envelope.steps.back();
}

// Opens the panes app, then runs `actions` and returns the envelope.
transport::Envelope run_on_panes(Harness& harness, const std::string& id, Json actions) {
  Json all =
      Json::array({action("open", "open_app", Json{{"applicationId", "com.example.panes"}})});
  for (Json& item : actions) all.push_back(std::move(item));
  ResultCapture capture(harness, id, id);
  REQUIRE(harness.broadcast(payload(id, all)).status == 0);
  return capture.complete().envelope;
}

std::string foreground_title(Harness& harness, const std::string& id) {
  ResultCapture capture(harness, id, id);
  harness.broadcast(payload(
      id, Json::array(
              {action("t", "read_text",
                      Json{{"matcher", Json{{"resourceId", "com.example.panes:id/title"}}}})})));
  return data(only_step(capture.complete().envelope), "text");
}

}  // namespace

TEST_CASE("the …Contains fields and role ignore case per character; equals fields do not",
          "[vdevice][android][selection]") {
  CHECK(contains_ignoring_case("Network & internet", "INTERNET"));
  CHECK(
      contains_ignoring_case("\xc3\x9c"
                             "ber uns",
                             "\xc3\xbc"
                             "BER"));  // Über / üBER
  CHECK(contains_ignoring_case("STRASSE", "strasse"));
  CHECK_FALSE(contains_ignoring_case("Network", "works"));
  CHECK(equals_ignoring_case("Switch", "sWITCH"));
  CHECK_FALSE(equals_ignoring_case("Switch", "Switches"));

  const Scenario scenario = panes_scenario();
  UiModel ui(scenario, kUiModelStart);
  REQUIRE(ui.launch("com.example.panes", kUiModelStart));
  auto tree = ui.tree(kUiModelStart);
  CHECK(tree->find(matcher(&NodeMatcher::text_contains, "aRCHIVE")).size() == 1);
  CHECK(tree->find(matcher(&NodeMatcher::text_contains,
                           "\xc3\x9c"
                           "BER"))
            .size() == 1);
  CHECK(tree->find(matcher(&NodeMatcher::content_desc_contains, "mailbox panes")).size() == 1);
  CHECK(tree->find(matcher(&NodeMatcher::role, "LIST")).size() == 2);
  CHECK(tree->find(matcher(&NodeMatcher::text_equals, "archive")).empty());
  CHECK(tree->find(matcher(&NodeMatcher::content_desc_equals, "mailbox panes")).empty());
}

TEST_CASE("a descendant relation sees scrolled-away nodes only under visibility all",
          "[vdevice][android][selection]") {
  const Scenario scenario = panes_scenario();
  UiModel ui(scenario, kUiModelStart);
  REQUIRE(ui.launch("com.example.panes", kUiModelStart));
  NodeMatcher inbox_with_archive = matcher(&NodeMatcher::resource_id, kInbox);
  inbox_with_archive.descendant =
      std::make_shared<const NodeMatcher>(matcher(&NodeMatcher::text_equals, "Archive"));
  auto full = ui.full_tree(kUiModelStart);
  const auto inboxes = full->find(matcher(&NodeMatcher::resource_id, kInbox));
  REQUIRE(inboxes.size() == 1);
  CHECK(node_matches(*inboxes[0], inbox_with_archive, Eligibility::All));
  CHECK_FALSE(node_matches(*inboxes[0], inbox_with_archive, Eligibility::OnScreen));

  Harness harness(scenario);
  for (const auto& [visibility, expected] :
       {std::pair<std::string, int>{"all", 1}, std::pair<std::string, int>{"on_screen", 0}}) {
    CAPTURE(visibility);
    const auto envelope = run_on_panes(
        harness, "q-" + visibility,
        Json::array({action("q", "query_ui",
                            Json{{"matcher", Json{{"resourceId", kInbox},
                                                  {"descendant", Json{{"textEquals", "Archive"}}}}},
                                 {"visibility", visibility}})}));
    const Json query = Json::parse(data(only_step(envelope), "query"));
    CHECK(query["totalMatches"] == expected);
  }
}

TEST_CASE("ambiguity candidates are query_ui's node summaries", "[vdevice][android][selection]") {
  Harness harness(panes_scenario());
  const auto envelope = run_on_panes(
      harness, "strict-scroll",
      Json::array({action("q", "query_ui", Json{{"matcher", Json{{"role", "list"}}}}),
                   action("s", "scroll", Json{{"direction", "down"}, {"strict", true}})}));
  REQUIRE(envelope.steps.size() == 3);
  const auto& refused = envelope.steps[2];
  CHECK_FALSE(refused.success);
  CHECK(data(refused, "error") == "CONTAINER_AMBIGUOUS");
  CHECK(data(refused, "candidate_count") == "2");
  const Json candidates = Json::parse(data(refused, "candidates"));
  const Json query = Json::parse(data(envelope.steps[1], "query"));
  // The same nodes, field for field, as the query reports them.
  CHECK(candidates == query["nodes"]);
  CHECK(candidates[0]["nodePath"] == "0.1");
  CHECK(candidates[0]["parentPath"] == "0");
  CHECK(candidates[0]["resourceId"] == kInbox);
  CHECK(candidates[0]["bounds"].is_object());
}

TEST_CASE("candidate strings are cut at 512 UTF-16 units, never inside a character",
          "[vdevice][android][selection]") {
  NodeSpec root;
  root.class_name = "android.widget.FrameLayout";
  NodeSpec row;
  row.class_name = "android.widget.TextView";
  row.resource_id = "x:id/row";
  // 300 characters above U+FFFF: 600 units.
  for (int i = 0; i < 300; ++i) row.text += "\xf0\x9f\x98\x80";
  root.children = {row, row};
  VisibleTree tree;
  tree.root.spec = &root;
  for (NodeSpec& child : root.children) {
    VisibleNode node;
    node.spec = &child;
    node.parent = &tree.root;
    tree.root.children.push_back(node);
  }
  const Json summary = node_summary(tree.root.children[1], 512);
  CHECK(summary["nodePath"] == "0.1");
  const std::string label = summary["label"];
  CHECK(utf16_length(label) == 512);
  CHECK(label.size() == 256 * 4);
}

TEST_CASE("scroll_until and scroll_and_click search inside their container",
          "[vdevice][android][selection]") {
  const Json in_inbox = Json{{"resourceId", kInbox}};
  const Json archive = Json{{"textEquals", "Archive"}};
  SECTION("scroll_until scrolls the inbox to its own Archive row") {
    Harness harness(panes_scenario());
    const auto envelope = run_on_panes(
        harness, "until",
        Json::array(
            {action("u", "scroll_until", Json{{"matcher", archive}, {"container", in_inbox}})}));
    const auto& step = only_step(envelope);
    CHECK(step.success);
    CHECK(data(step, "termination_reason") == "TARGET_FOUND");
    CHECK(data(step, "scrolls") == "1");
  }
  SECTION("scroll_and_click taps the inbox's row, not the outbox's one on screen") {
    Harness harness(panes_scenario());
    const auto envelope =
        run_on_panes(harness, "and-click",
                     Json::array({action("c", "scroll_and_click",
                                         Json{{"matcher", archive}, {"container", in_inbox}})}));
    CHECK(only_step(envelope).success);
    CHECK(data(only_step(envelope), "scrolls") == "1");
    CHECK(foreground_title(harness, "title-1") == "Inbox archive");
  }
  SECTION("without a container the first scrollable is the scope") {
    Harness harness(panes_scenario());
    const auto envelope =
        run_on_panes(harness, "default-scope",
                     Json::array({action("c", "scroll_and_click", Json{{"matcher", archive}})}));
    CHECK(only_step(envelope).success);
    CHECK(foreground_title(harness, "title-2") == "Inbox archive");
  }
  SECTION("a target outside the container is not found, however often it scrolls") {
    Harness harness(panes_scenario());
    const auto envelope = run_on_panes(
        harness, "outside",
        Json::array(
            {action("u", "scroll_until",
                    Json{{"matcher", Json{{"textEquals", "Sent 1"}}}, {"container", in_inbox}})}));
    const auto& step = only_step(envelope);
    CHECK_FALSE(step.success);
    CHECK(data(step, "error") == "NODE_NOT_FOUND");
    CHECK(data(step, "termination_reason") == "EDGE_REACHED");
  }
}
