// query, strict and relational selection, compact snapshots, gestures, toasts and aliased
// payloads: the real binary through the real adb against virtual devices (the "observation"
// scenario).
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "farm_fixture.hpp"

using clawperator::testing::expect_error;
using clawperator::testing::Farm;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using nlohmann::json;

namespace {

// One command on the farm's first device; its one JSON document.
json run(const Farm& farm, std::vector<std::string> args, int exit_code) {
  args.insert(args.end(), {"--device", farm.serials().front()});
  CAPTURE(args);
  const RunResult result = farm.clawperator(args);
  json document = single_document(result);
  INFO(document.dump(2).substr(0, 3000));
  CHECK(result.exit_code == exit_code);
  return document;
}

const json& first_step(const json& document) {
  REQUIRE(document.contains("envelope"));
  REQUIRE_FALSE(document["envelope"]["stepResults"].empty());
  return document["envelope"]["stepResults"][0];
}

// The output's parsed `query`, checked against the step's own data.query string.
json query_of(const json& document) {
  REQUIRE(document.contains("query"));
  const json& query = document["query"];
  CHECK(json::parse(first_step(document)["data"]["query"].get<std::string>()) == query);
  CHECK(query["schemaVersion"] == 1);
  CHECK(query["returnedCount"] == query["nodes"].size());
  return query;
}

int total(const Farm& farm, std::vector<std::string> args) {
  args.insert(args.begin(), "query");
  return query_of(run(farm, args, 0))["totalMatches"].get<int>();
}

}  // namespace

TEST_CASE("query with each selector kind, both visibilities and a truncated result",
          "[integration][query]") {
  Farm farm({"observation"});
  run(farm, {"open", "com.android.settings"}, 0);
  const json titles = query_of(run(farm, {"query", "--id", "android:id/title"}, 0));
  CHECK(titles["totalMatches"].get<int>() > 3);
  CHECK(titles["truncated"] == false);
  const json& first = titles["nodes"][0];
  CHECK(first["label"] == "Network & internet");
  CHECK(first["onScreen"] == true);
  CHECK(first["nodePath"].get<std::string>().rfind("0.", 0) == 0);
  CHECK(first["bounds"]["right"].get<int>() > first["bounds"]["left"].get<int>());
  CHECK(total(farm, {"--text", "Battery"}) == 1);
  // Case is ignored: "Storage" and "Notification history, conversations".
  CHECK(total(farm, {"--text-contains", "Sto"}) == 2);
  CHECK(total(farm, {"--text-contains", "Stora"}) == 1);
  CHECK(total(farm, {"--desc", "Search settings"}) == 1);
  CHECK(total(farm, {"--desc-contains", "Search"}) == 1);
  CHECK(total(farm, {"--role", "text"}) > 3);
  CHECK(total(farm,
              {"--matcher-json", R"({"resourceId":"android:id/title","textEquals":"Apps"})"}) == 1);
  // Without a selector: every eligible node, the root first.
  const json everything = query_of(run(farm, {"query"}, 0));
  CHECK(everything["nodes"][0]["nodePath"] == "0");
  CHECK(everything["nodes"][0]["parentPath"].is_null());
  // Scrolled-away rows exist only for visibility all, and are not on screen.
  CHECK(total(farm, {"--text", "Wallpaper & style"}) == 0);
  const json all =
      query_of(run(farm, {"query", "--text", "Wallpaper & style", "--visibility", "all"}, 0));
  REQUIRE(all["totalMatches"] == 1);
  CHECK(all["nodes"][0]["onScreen"] == false);
  CHECK(total(farm, {"--id", "android:id/title", "--visibility", "all"}) >
        titles["totalMatches"].get<int>());

  run(farm, {"open", "com.example.crowd"}, 0);
  const json some =
      query_of(run(farm, {"query", "--id", "com.example.crowd:id/item", "--limit", "10"}, 0));
  CHECK(some["totalMatches"] == 1200);
  CHECK(some["returnedCount"] == 10);
  CHECK(some["truncated"] == true);
  // 1000 summaries are more than the Operator's 256 KiB: refused on the device, never cut.
  const json big = run(farm, {"query", "--id", "com.example.crowd:id/item", "--limit", "1000"}, 1);
  CHECK(first_step(big)["data"]["error"] == "PAYLOAD_TOO_LARGE");
  CHECK_FALSE(big.contains("query"));
}

TEST_CASE("UI_TREE_UNAVAILABLE comes through with its diagnostics", "[integration][query]") {
  Farm farm({"ui-tree-unavailable"});
  const json document = run(farm, {"query", "--text", "Settings"}, 1);
  CHECK(document["envelope"]["errorCode"] == "UI_TREE_UNAVAILABLE");
  const json& data = first_step(document)["data"];
  CHECK(data["error"] == "UI_TREE_UNAVAILABLE");
  const json diagnostics = json::parse(data["diagnostics"].get<std::string>());
  CHECK(diagnostics["rootAvailable"] == false);
  CHECK_FALSE(document.contains("query"));
}

TEST_CASE("strict selection, containers and relational matchers", "[integration][strict]") {
  Farm farm({"observation"});
  run(farm, {"open", "com.android.settings"}, 0);
  // Strict on a label shared by every row: refused on the device, nothing tapped.
  const json refused = run(farm, {"click", "--id", "android:id/title", "--strict"}, 1);
  const json& data = first_step(refused)["data"];
  CHECK(data["error"] == "NODE_AMBIGUOUS");
  CHECK(std::stoi(data["candidate_count"].get<std::string>()) > 3);
  CHECK(json::parse(data["candidates"].get<std::string>()).size() <= 10);
  CHECK(refused["disposition"]["delivery"] == "not_delivered");
  CHECK(refused["disposition"]["retry"] == "safe");
  CHECK(total(farm, {"--text", "Battery"}) == 1);  // still on the main screen
  // Without strict the Operator taps the first match and says so.
  const json tapped = run(farm, {"click", "--id", "android:id/title"}, 0);
  CHECK(first_step(tapped)["data"]["selection_warning"].get<std::string>().find("acted on the "
                                                                                "first") !=
        std::string::npos);
  CHECK(total(farm, {"--text", "Battery"}) == 0);  // Network & internet opened
  run(farm, {"back"}, 0);
  // read --all lists every match, with the default output (JSON already).
  const json read_all = run(farm, {"read", "--id", "android:id/title", "--all"}, 0);
  CHECK(json::parse(first_step(read_all)["data"]["texts"].get<std::string>()).size() > 3);

  run(farm, {"open", "com.example.board"}, 0);
  // Two rows with the same label and the same switch id: a relation or a container tells them
  // apart.
  const json label = run(farm,
                         {"read", "--selector",
                          R"({"resourceId":"com.example.board:id/label",)"
                          R"("ancestor":{"resourceId":"com.example.board:id/row_sync"}})",
                          "--strict"},
                         0);
  CHECK(first_step(label)["data"]["text"] == "Enabled");
  run(farm, {"click", "--id", "com.example.board:id/toggle", "--strict"}, 1);
  run(farm,
      {"click", "--id", "com.example.board:id/toggle", "--strict", "--container-id",
       "com.example.board:id/row_sync"},
      0);
  const json toggles = query_of(run(farm, {"query", "--id", "com.example.board:id/toggle"}, 0));
  REQUIRE(toggles["returnedCount"] == 2);
  CHECK(toggles["nodes"][0]["checked"] == false);
  CHECK(toggles["nodes"][1]["checked"] == true);
  const json rows = query_of(run(farm,
                                 {"query", "--matcher-json",
                                  R"({"descendant":{"resourceId":"com.example.board:id/toggle"},)"
                                  R"("resourceId":"com.example.board:id/row_alarm"})"},
                                 0));
  CHECK(rows["totalMatches"] == 1);
  const json ambiguous_container =
      run(farm, {"click", "--text", "Enabled", "--container-id", "com.example.board:id/label"}, 1);
  CHECK(first_step(ambiguous_container)["data"]["error"] == "CONTAINER_AMBIGUOUS");
  CHECK(ambiguous_container["disposition"]["delivery"] == "not_delivered");
}

TEST_CASE("swipe and drag change what the next observation shows", "[integration][gesture]") {
  Farm farm({"observation"});
  run(farm, {"open", "com.android.settings"}, 0);
  CHECK(total(farm, {"--text", "Wallpaper & style"}) == 0);
  const json swiped = run(
      farm, {"swipe", "--start", "540", "2000", "--end", "540", "900", "--duration-ms", "200"}, 0);
  CHECK(first_step(swiped)["data"]["dispatch_method"] == "coordinate_gesture");
  CHECK(total(farm, {"--text", "Wallpaper & style"}) == 1);

  run(farm, {"open", "com.example.board"}, 0);
  run(farm,
      {"drag", "--start", "200", "1000", "--end", "700", "1500", "--hold-duration-ms", "100",
       "--move-duration-ms", "100"},
      0);
  const json tile = query_of(run(farm, {"query", "--id", "com.example.board:id/tile"}, 0));
  REQUIRE(tile["returnedCount"] == 1);
  CHECK(tile["nodes"][0]["bounds"]["left"] == 600);
  CHECK(tile["nodes"][0]["bounds"]["top"] == 1400);
  // Off the display: the gesture fails on the device.
  const json outside = run(
      farm, {"swipe", "--start", "540", "2000", "--end", "540", "99999", "--duration-ms", "50"}, 1);
  CHECK(first_step(outside)["data"]["error"] == "GESTURE_FAILED");
}

TEST_CASE("drag on API 25 is refused before anything is sent", "[integration][gesture]") {
  Farm farm({"api-25"});
  const RunResult result = farm.clawperator(
      {"drag", "--start", "200", "1000", "--end", "700", "1500", "--hold-duration-ms", "100",
       "--move-duration-ms", "100", "--device", farm.serials().front()});
  const json document = expect_error(result, "GESTURE_UNSUPPORTED", 1);
  CHECK(document["details"]["phase"] == "readiness");  // preflight runs in this phase
  CHECK(document["details"]["dispatchState"] == "not_dispatched");
  CHECK(document["details"]["broadcastDispatchStatus"] == "not_sent");
  CHECK(document["details"]["sdkInt"] == 25);
  // A swipe needs no continued stroke: it runs.
  run(farm, {"swipe", "--start", "540", "2000", "--end", "540", "900", "--duration-ms", "100"}, 0);
}

TEST_CASE("toast shows in the next snapshot and cancel hides it", "[integration][toast]") {
  Farm farm({"observation"});
  run(farm, {"open", "com.android.settings"}, 0);
  const json shown = run(farm, {"toast", "Build finished", "--duration", "long"}, 0);
  CHECK(first_step(shown)["data"]["submitted"] == "true");
  CHECK(first_step(shown)["data"]["duration"] == "long");
  const json snapshot = run(farm, {"snapshot"}, 0);
  CHECK(first_step(snapshot)["data"]["text"].get<std::string>().find("text=\"Build finished\"") !=
        std::string::npos);
  run(farm, {"toast", "--cancel"}, 0);
  CHECK(total(farm, {"--text", "Build finished"}) == 0);
}

TEST_CASE("an aliased payload is accepted and sent in canonical form", "[integration][aliases]") {
  Farm farm({"observation"});
  const std::string path = std::filesystem::temp_directory_path() /
                           ("clawperator-it-alias-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << R"({"command_id":"alias-1","task_id":"t","source":"it",
    "expected_format":"android-ui-automator","timeout_ms":20000,"actions":[
    {"id":"a1","type":"open_app","params":{"package":"com.android.settings"}},
    {"id":"a2","type":"open_url","params":{"url":"https://example.com/"}}]})";
  const json validated = run(farm, {"exec", path, "--validate-only"}, 0);
  CHECK(validated["execution"]["commandId"] == "alias-1");
  CHECK(validated["execution"]["actions"][0]["params"] ==
        json({{"applicationId", "com.android.settings"}}));
  CHECK(validated["execution"]["actions"][1]["type"] == "open_uri");
  CHECK(validated["execution"]["actions"][1]["params"] == json({{"uri", "https://example.com/"}}));
  const json ran = run(farm, {"exec", path}, 0);
  std::filesystem::remove(path);
  CHECK(ran["envelope"]["commandId"] == "alias-1");
  CHECK(ran["envelope"]["stepResults"][0]["data"]["application_id"] == "com.android.settings");
  CHECK(ran["envelope"]["stepResults"][1]["actionType"] == "open_uri");
  CHECK(ran["envelope"]["stepResults"][1]["data"]["uri"] == "https://example.com/");
}

TEST_CASE("compact snapshot with the raw XML written exclusively", "[integration][compact]") {
  Farm farm({"observation"});
  run(farm, {"open", "com.android.settings"}, 0);
  const std::string raw = std::filesystem::temp_directory_path() /
                          ("clawperator-it-raw-" + std::to_string(::getpid()) + ".xml");
  std::filesystem::remove(raw);
  const json document =
      run(farm, {"snapshot", "--compact", "--max-nodes", "5", "--raw-path", raw}, 0);
  const json& compact = document["compact"];
  CHECK(compact["schemaVersion"] == 1);
  CHECK(compact["returnedNodes"] == 5);
  CHECK(compact["totalNodes"].get<int>() > 5);
  CHECK(compact["truncated"] == true);
  CHECK(compact["rawArtifactPath"] == raw);
  CHECK(compact["commandId"] == document["envelope"]["commandId"]);
  CHECK_FALSE(first_step(document)["data"].contains("text"));
  const std::string xml = clawperator::testing::read_file(raw);
  CHECK(xml.find("<hierarchy") != std::string::npos);
  CHECK((std::filesystem::status(raw).permissions() & std::filesystem::perms::all) ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
  // The file exists now: never overwritten; the envelope is kept.
  const RunResult again = farm.clawperator(
      {"snapshot", "--compact", "--raw-path", raw, "--device", farm.serials().front()});
  const json failed = single_document(again);
  CHECK(again.exit_code == 1);
  CHECK(failed["code"] == "SNAPSHOT_ARTIFACT_WRITE_FAILED");
  CHECK(failed["details"]["phase"] == "post_processing");
  CHECK(failed["details"]["dispatchState"] == "dispatched");
  CHECK(failed["details"]["envelope"]["status"] == "success");
  CHECK(clawperator::testing::read_file(raw) == xml);
  std::filesystem::remove(raw);
}

TEST_CASE("a scroll search stays inside its container (the panes app)", "[integration][strict]") {
  Farm farm({"observation"});
  const std::string inbox = "com.example.panes:id/inbox";
  // Both lists hold an Archive row; the inbox's is scrolled away, the outbox's on screen.
  run(farm, {"open", "com.example.panes"}, 0);
  const json found =
      run(farm, {"scroll-until", "--text", "Archive", "--container-id", inbox, "--strict"}, 0);
  CHECK(first_step(found)["data"]["termination_reason"] == "TARGET_FOUND");
  CHECK(first_step(found)["data"]["scrolls"] == "1");
  // A row outside the container is never found there, however far it scrolls.
  const json outside = run(farm, {"scroll-until", "--text", "Sent 1", "--container-id", inbox}, 1);
  CHECK(first_step(outside)["data"]["error"] == "NODE_NOT_FOUND");
  CHECK(first_step(outside)["data"]["termination_reason"] == "EDGE_REACHED");

  run(farm, {"close", "com.example.panes"}, 0);
  run(farm, {"open", "com.example.panes"}, 0);
  run(farm, {"scroll-and-click", "--text", "Archive", "--container-id", inbox}, 0);
  CHECK(total(farm, {"--text", "Inbox archive"}) == 1);
  CHECK(total(farm, {"--text", "Outbox archive"}) == 0);
}

TEST_CASE(
    "selectors compare as the Operator does: …Contains and role ignore case, relations "
    "see what the visibility allows",
    "[integration][query]") {
  Farm farm({"observation"});
  run(farm, {"open", "com.example.panes"}, 0);
  CHECK(total(farm, {"--text-contains", "aRCHIVE"}) == 1);
  CHECK(total(farm, {"--text-contains",
                     "\xc3\x9c"
                     "BER"}) == 1);  // "Über uns"
  CHECK(total(farm, {"--desc-contains", "mailbox panes"}) == 1);
  CHECK(total(farm, {"--role", "LIST"}) == 2);
  CHECK(total(farm, {"--text", "archive"}) == 0);
  CHECK(total(farm, {"--desc", "mailbox panes"}) == 0);
  // The inbox holds an Archive row only off screen: a descendant relation finds it under
  // visibility all only.
  const std::string inbox_with_archive =
      R"({"resourceId":"com.example.panes:id/inbox","descendant":{"textEquals":"Archive"}})";
  CHECK(total(farm, {"--matcher-json", inbox_with_archive}) == 0);
  CHECK(total(farm, {"--matcher-json", inbox_with_archive, "--visibility", "all"}) == 1);
}

TEST_CASE("ambiguity candidates have the query's node-summary shape", "[integration][strict]") {
  Farm farm({"observation"});
  run(farm, {"open", "com.example.panes"}, 0);
  const json lists = query_of(run(farm, {"query", "--role", "list"}, 0));
  REQUIRE(lists["returnedCount"] == 2);
  // Two scrollable lists and no container: a strict scroll refuses to pick one.
  const json refused = run(farm, {"scroll", "down", "--strict"}, 1);
  const json& data = first_step(refused)["data"];
  CHECK(data["error"] == "CONTAINER_AMBIGUOUS");
  CHECK(data["candidate_count"] == "2");
  CHECK(json::parse(data["candidates"].get<std::string>()) == lists["nodes"]);
  CHECK(refused["disposition"]["delivery"] == "not_delivered");

  run(farm, {"open", "com.example.board"}, 0);
  const json toggles = query_of(run(farm, {"query", "--id", "com.example.board:id/toggle"}, 0));
  const json strict = run(farm, {"click", "--id", "com.example.board:id/toggle", "--strict"}, 1);
  CHECK(first_step(strict)["data"]["error"] == "NODE_AMBIGUOUS");
  CHECK(json::parse(first_step(strict)["data"]["candidates"].get<std::string>()) ==
        toggles["nodes"]);
}

TEST_CASE("pretty output: a compact snapshot as a tree and a query's matches once",
          "[integration][pretty]") {
  Farm farm({"default"});
  REQUIRE(farm.clawperator({"open", "com.android.settings"}).exit_code == 0);
  const RunResult compact =
      farm.clawperator({"snapshot", "--compact", "--max-nodes", "20", "--output", "pretty"});
  INFO(compact.out);
  CHECK(compact.exit_code == 0);
  CHECK(compact.out.rfind("Compact UI hierarchy of ", 0) == 0);
  CHECK(compact.out.find("\n      TextView \"Network & internet\" id=android:id/title ") !=
        std::string::npos);
  CHECK(compact.out.find('{') == std::string::npos);

  const RunResult query =
      farm.clawperator({"query", "--text-contains", "Network", "--output", "pretty"});
  INFO(query.out);
  CHECK(query.exit_code == 0);
  CHECK(query.out.rfind("Query of ", 0) == 0);
  CHECK(query.out.find(": 1 of 1 matches\n1. TextView \"Network & internet\"") !=
        std::string::npos);
  // Once: the envelope's copy of the matches is not printed.
  CHECK(query.out.find("Network") == query.out.rfind("Network"));
}
