// The /skills routes: the documents of `skills list|search|get`, from the registry the server
// was started with (never one a caller names), with the status each code maps to.
#include <filesystem>
#include <fstream>
#include <tuple>

#include "served.hpp"

namespace clawperator::testing {
namespace {

// A skills repository in `dir`: two skills whose scripts are `capture_script` and
// `notes_script` (POSIX sh bodies), each with its SKILL.md and skill.json; the registry's path.
std::string write_registry(const std::string& dir, const std::string& capture_script = "exit 0\n",
                           const std::string& notes_script = "exit 0\n") {
  json entries = json::array();
  for (const auto& [id, app, intent, summary, body] :
       {std::tuple{std::string("com.android.settings.capture"), "com.android.settings", "capture",
                   "Open Settings and take a snapshot", capture_script},
        std::tuple{std::string("com.example.notes.read"), "com.example.notes", "read",
                   "Read the first note", notes_script}}) {
    const std::string folder = "skills/" + id;
    const std::string script = folder + "/scripts/run.sh";
    std::filesystem::create_directories(dir + "/" + folder + "/scripts");
    std::ofstream(dir + "/" + script) << "#!/bin/sh\n" << body;
    std::filesystem::permissions(dir + "/" + script, std::filesystem::perms::owner_all);
    std::ofstream(dir + "/" + folder + "/SKILL.md") << "---\nname: " << id << "\n---\n";
    const json entry = {{"id", id},
                        {"applicationId", app},
                        {"intent", intent},
                        {"summary", summary},
                        {"path", folder},
                        {"skillFile", folder + "/SKILL.md"},
                        {"scripts", {script}},
                        {"artifacts", json::array()}};
    std::ofstream(dir + "/" + folder + "/skill.json") << entry.dump(2) << "\n";
    entries.push_back(entry);
  }
  std::ofstream(dir + "/skills/skills-registry.json")
      << json{{"schemaVersion", "1"}, {"skills", entries}}.dump();
  return dir + "/skills/skills-registry.json";
}

}  // namespace

TEST_CASE("serve: GET /skills and /skills/:id answer with the CLI's documents", "[serve][skills]") {
  Farm farm({"default"});
  const TemporaryDirectory scratch("serve-skills");
  const std::string repository = scratch.path().string();
  const std::string registry = write_registry(repository);
  Served served(farm, {"--registry", registry});

  const HttpReply listed = served.get("/skills");
  CHECK(listed.status == 200);
  // The CLI's document, less the registry's place on this host (docs/serve.md §4).
  json printed = json::parse(farm.clawperator({"skills", "list", "--registry", registry}).out);
  CHECK(printed["registryPath"] == registry);
  printed.erase("registryPath");
  CHECK(listed.body == printed);
  CHECK(listed.body["count"] == 2);
  CHECK_FALSE(listed.body.contains("registryPath"));
  CHECK(listed.text.find(repository) == std::string::npos);
  CHECK(listed.body["registrySource"] == "flag");

  const HttpReply searched = served.get("/skills?app=com.example.notes");
  CHECK(searched.status == 200);
  CHECK(searched.body["count"] == 1);
  CHECK(searched.body["skills"][0]["id"] == "com.example.notes.read");
  CHECK(served.get("/skills?keyword=SETTINGS&intent=capture").body["count"] == 1);
  CHECK(served.get("/skills?keyword=settings&intent=read").body["count"] == 0);

  const HttpReply one = served.get("/skills/com.android.settings.capture");
  CHECK(one.status == 200);
  CHECK(one.body["skill"]["intent"] == "capture");

  const HttpReply missing = served.get("/skills/com.example.none");
  CHECK(missing.status == 404);
  CHECK(missing.body["code"] == "SKILL_NOT_FOUND");
  CHECK(missing.body["disposition"]["retry"] == "safe");
  // An id holding '..', typed or as %2e%2e (the route sees it decoded), is refused before the
  // registry is read.
  const HttpReply dotted = served.get("/skills/com.example..x");
  CHECK(dotted.status == 400);
  CHECK(dotted.body["code"] == "SKILL_ID_INVALID");
  CHECK(served.get("/skills/com.example.%2e%2e").body["code"] == "SKILL_ID_INVALID");

  // Like every route but /ping, the skills need the token.
  CHECK(served.anonymous_get("/skills").status == 401);
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: a registry that cannot be read is REGISTRY_READ_FAILED, 503", "[serve][skills]") {
  Farm farm({"default"});
  Served served(farm, {"--registry", "/nonexistent/skills/skills-registry.json"});
  const HttpReply listed = served.get("/skills");
  CHECK(listed.status == 503);
  CHECK(listed.body["code"] == "REGISTRY_READ_FAILED");
  CHECK(listed.body["details"]["registrySource"] == "flag");
  CHECK(served.get("/skills/com.example.any").body["code"] == "REGISTRY_READ_FAILED");
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: POST /skills/:id/run runs the script as skills run does", "[serve][skills]") {
  Farm farm({"default"});
  const TemporaryDirectory scratch("serve-skills");
  const std::string repository = scratch.path().string();
  // The capture skill drives the device through the CLAWPERATOR_BIN it was given; the notes
  // skill echoes what it got and prints a result line, or fails or hangs when asked to.
  const std::string registry = write_registry(
      repository,
      "\"$CLAWPERATOR_BIN\" snapshot --device \"$CLAWPERATOR_DEVICE_ID\" >/dev/null || exit 9\n"
      "basename \"$CLAWPERATOR_BIN\"\n",
      "case \"$1\" in fail) echo partial; echo oops >&2; exit 3;; hang) sleep 30;;"
      " json) echo '{\"n\":1}'; exit 0;; esac\n"
      "printf 'args:%s|%s\\n' \"$1\" \"$2\"\n"
      "echo '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\",\"skillId\":"
      "\"com.example.notes.read\",\"status\":\"success\",\"checkpoints\":[]}'\n");
  Served served(farm, {"--registry", registry});

  const HttpReply captured = served.post("/skills/com.android.settings.capture/run", "{}");
  INFO(captured.text);
  CHECK(captured.status == 200);
  CHECK(captured.body["ok"] == true);
  CHECK(captured.body["skillId"] == "com.android.settings.capture");
  CHECK(captured.body["exitCode"] == 0);
  // The CLI beside the server, not clawperator-serve with its HTTP server linked in.
  CHECK(captured.body["output"] == "clawperator\n");

  const HttpReply echoed = served.post("/skills/com.example.notes.read/run",
                                       R"({"args":["a b","--x"],"expectContains":"args:"})");
  CHECK(echoed.status == 200);
  CHECK(echoed.body["output"].get<std::string>().rfind("args:a b|--x\n", 0) == 0);
  CHECK(echoed.body["skillResult"]["status"] == "success");
  CHECK(echoed.body["skillResult"]["source"]["kind"] == "script");

  const HttpReply failed =
      served.post("/skills/com.example.notes.read/run", R"({"args":["fail"]})");
  CHECK(failed.status == 200);  // a result, as a failed envelope is
  CHECK(failed.body["ok"] == false);
  CHECK(failed.body["code"] == "SKILL_EXECUTION_FAILED");
  CHECK(failed.body["exitCode"] == 3);
  // The script's output under the same names as on success (MCP's too), past the redaction.
  CHECK(failed.body["output"] == "partial\n");
  CHECK(failed.body["errorOutput"] == "oops\n");
  CHECK_FALSE(failed.body.contains("stdout"));
  CHECK(echoed.body["errorOutput"] == "");
  // A script that prints one JSON document: given parsed as well.
  const HttpReply printed =
      served.post("/skills/com.example.notes.read/run", R"({"args":["json"]})");
  CHECK(printed.status == 200);
  CHECK(printed.body["outputJson"] == json{{"n", 1}});
  CHECK(echoed.body["outputJson"].is_null());

  const HttpReply hung =
      served.post("/skills/com.example.notes.read/run", R"({"args":["hang"],"timeoutMs":500})");
  CHECK(hung.status == 504);
  CHECK(hung.body["code"] == "SKILL_EXECUTION_TIMEOUT");
  CHECK(hung.body["disposition"]["retry"] == "unsafe");

  // Bodies are checked before anything runs.
  for (const auto& [body, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({"args":"a"})", "args"},
           {R"({"args":[1]})", "args.0"},
           {R"({"timeoutMs":0})", "timeoutMs"},
           {R"({"timeoutMs":600001})", "timeoutMs"},
           {R"({"skipValidate":"yes"})", "skipValidate"},
           {R"({"expectContains":""})", "expectContains"}}) {
    const HttpReply refused = served.post("/skills/com.example.notes.read/run", body);
    CAPTURE(body);
    CHECK(refused.status == 400);
    CHECK(refused.body["code"] == "INVALID_BODY");
    CHECK(refused.body["details"]["field"] == field);
  }
  CHECK(served.post("/skills/com.example.notes.read/run", R"({"script":"/bin/sh"})").body["code"] ==
        "INVALID_BODY");
  CHECK(served.post("/skills/com.example.none/run", "{}").status == 404);
  CHECK(served.post("/skills/com..x/run", "{}").body["code"] == "SKILL_ID_INVALID");
  CHECK(served.anonymous_post("/skills/com.example.notes.read/run", "{}").status == 401);
  CHECK(served.stop() == 0);
}

TEST_CASE("serve: a skill's own calls run under the policy the server was started with",
          "[serve][skills][policy]") {
  Farm farm({"default"});
  const TemporaryDirectory scratch("serve-skills");
  const std::string repository = scratch.path().string();
  std::ofstream(repository + "/policy.json") << R"({"schemaVersion": 1, "rules": [
      {"id": "no-network", "decision": "deny", "actions": ["click"], "labels": ["network*"]},
      {"id": "confirm-display", "decision": "confirm", "labels": ["Display"]}]})";
  const std::string registry =
      write_registry(repository,
                     "\"$CLAWPERATOR_BIN\" click --text 'Network & internet'; echo \"rc=$?\"\n"
                     "\"$CLAWPERATOR_BIN\" click --text Display; echo \"rc=$?\"\n");
  // --policy as a flag: the script's calls get it although nothing set CLAWPERATOR_POLICY.
  Served served(farm, {"--registry", registry, "--policy", repository + "/policy.json"});
  const HttpReply ran = served.post("/skills/com.android.settings.capture/run", "{}");
  INFO(ran.text);
  REQUIRE(ran.status == 200);
  const std::string output = ran.body["output"];
  CHECK(output.find("\"code\":\"POLICY_DENIED\"") != std::string::npos);
  CHECK(output.find("\"code\":\"CONFIRMATION_REQUIRED\"") != std::string::npos);
  // The script is not the person a confirm rule asks: it gets no credential, only an approval
  // id a person may grant.
  CHECK(output.find("\"token\"") == std::string::npos);
  CHECK(output.find("\"approvalId\"") != std::string::npos);
  // Each call exited 3 (refused before dispatch), and the script went on.
  std::size_t exits_of_3 = 0;
  for (auto at = output.find("\nrc=3\n"); at != std::string::npos;
       at = output.find("\nrc=3\n", at + 1)) {
    ++exits_of_3;
  }
  CHECK(exits_of_3 == 2);
  CHECK(served.stop() == 0);
}

}  // namespace clawperator::testing
