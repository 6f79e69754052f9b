// The /skills routes: the documents of `skills list|search|get`, from the registry the server
// was started with (never one a caller names), with the status each code maps to.
#include <filesystem>
#include <fstream>

#include "served.hpp"

namespace clawperator::testing {
namespace {

// A skills repository with one registry entry, in `dir`; the registry's path.
std::string write_registry(const std::string& dir) {
  std::filesystem::create_directories(dir + "/skills");
  std::ofstream(dir + "/skills/skills-registry.json") << R"({"schemaVersion":"1","skills":[
        {"id":"com.android.settings.capture","applicationId":"com.android.settings",
         "intent":"capture","summary":"Open Settings and take a snapshot",
         "path":"skills/com.android.settings.capture",
         "skillFile":"skills/com.android.settings.capture/SKILL.md",
         "scripts":["skills/com.android.settings.capture/scripts/run.sh"],"artifacts":[]},
        {"id":"com.example.notes.read","applicationId":"com.example.notes","intent":"read",
         "summary":"Read the first note","path":"skills/com.example.notes.read",
         "skillFile":"skills/com.example.notes.read/SKILL.md","scripts":[],"artifacts":[]}]})";
  return dir + "/skills/skills-registry.json";
}

}  // namespace

TEST_CASE("serve: GET /skills and /skills/:id answer with the CLI's documents", "[serve][skills]") {
  Farm farm({"default"});
  char pattern[] = "/tmp/clawperator-serve-skills-XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const std::string repository = pattern;
  const std::string registry = write_registry(repository);
  Served served(farm, {"--registry", registry});

  const HttpReply listed = served.get("/skills");
  CHECK(listed.status == 200);
  CHECK(listed.body ==
        json::parse(farm.clawperator({"skills", "list", "--registry", registry}).out));
  CHECK(listed.body["count"] == 2);
  CHECK(listed.body["registryPath"] == registry);
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
  std::filesystem::remove_all(repository);
}

TEST_CASE("serve: a registry that cannot be read is REGISTRY_READ_FAILED, 500", "[serve][skills]") {
  Farm farm({"default"});
  Served served(farm, {"--registry", "/nonexistent/skills/skills-registry.json"});
  const HttpReply listed = served.get("/skills");
  CHECK(listed.status == 500);
  CHECK(listed.body["code"] == "REGISTRY_READ_FAILED");
  CHECK(listed.body["details"]["registrySource"] == "flag");
  CHECK(served.get("/skills/com.example.any").body["code"] == "REGISTRY_READ_FAILED");
  CHECK(served.stop() == 0);
}

}  // namespace clawperator::testing
