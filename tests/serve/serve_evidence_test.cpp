// The evidence routes (docs/serve.md, "Evidence"): a capture and a video session through the
// real adb against the virtual device, their files fetched by URL (never a host path), bodies
// checked by our own bounds, each code's status.
#include <chrono>
#include <filesystem>
#include <thread>

#include "clawperator/transport/sha256.hpp"
#include "served.hpp"
#include "test_files.hpp"

namespace clawperator::testing {

TEST_CASE("serve: an evidence capture, its files served by URL, no host path in the reply",
          "[serve][evidence]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"serve-evidence"};
  Served served(farm, {}, {{"CLAWPERATOR_EVIDENCE_DIR", root.path().string()}});
  HttpReply reply =
      served.post("/evidence/capture", R"({"label": "from http", "context": {"a": 1}})");
  INFO(reply.text);
  REQUIRE(reply.status == 200);
  CHECK(reply.body["ok"] == true);
  CHECK(reply.body["status"] == "complete");
  CHECK_FALSE(reply.body.contains("bundleDir"));
  CHECK_FALSE(reply.body.contains("manifestPath"));
  CHECK(reply.text.find(root.path().string()) == std::string::npos);
  const std::string id = reply.body["evidenceId"];
  CHECK(reply.body["manifestUrl"] == "/evidence/" + id + "/manifest.json");
  const json manifest = reply.body["manifest"];
  CHECK(manifest["label"] == "from http");

  const HttpReply served_manifest = served.get(reply.body["manifestUrl"]);
  CHECK(served_manifest.status == 200);
  CHECK(served_manifest.body == manifest);
  REQUIRE(reply.body["files"].size() == 3);
  for (const json& file : reply.body["files"]) {
    INFO(file.dump());
    const HttpReply fetched = served.get(file["url"]);
    CHECK(fetched.status == 200);
    CHECK(fetched.headers.find("Content-Type: " + file["mimeType"].get<std::string>()) !=
          std::string::npos);
    CHECK(fetched.text.size() == file["bytes"].get<std::size_t>());
    CHECK(transport::sha256_hex(fetched.text) == file["sha256"]);
  }
  // Only this server's bundles, and only the files their manifests list.
  std::filesystem::create_directories(root.path() / "bundles" /
                                      "0e708990-1abd-4d9e-b2f9-16313db7629e");
  for (const std::string& path : std::vector<std::string>{
           "/evidence/0e708990-1abd-4d9e-b2f9-16313db7629e/manifest.json",
           "/evidence/" + id + "/secret.txt", "/evidence/" + id + "/.manifest.json.tmp"}) {
    INFO(path);
    CHECK(served.get(path).status == 404);
  }

  const std::vector<std::tuple<std::string, std::string, std::string, std::string>> refused = {
      {"/evidence/capture", R"({"outputDir": "/tmp/x"})", "INVALID_BODY", ""},
      {"/evidence/capture", R"({"label": 7})", "INVALID_BODY", "label"},
      {"/evidence/capture", R"({"context": [1]})", "INVALID_BODY", "context"},
      {"/evidence/capture", R"({"timeoutMs": 10})", "INVALID_BODY", "timeoutMs"},
      {"/evidence/capture", "{", "INVALID_JSON", ""},
      {"/evidence/video", R"({})", "INVALID_BODY", "durationSeconds"},
      {"/evidence/video", R"({"durationSeconds": 181})", "INVALID_BODY", "durationSeconds"},
      {"/evidence/video", R"({"durationSeconds": 2, "size": "7x9"})", "INVALID_BODY", "size"},
      {"/evidence/video", R"({"durationSeconds": 2, "recorder": "vlc"})", "INVALID_BODY",
       "recorder"},
  };
  for (const auto& [path, body, code, field] : refused) {
    INFO(path << " " << body);
    reply = served.post(path, body);
    CHECK(reply.status == 400);
    CHECK(reply.body["code"] == code);
    if (!field.empty()) CHECK(reply.body["details"]["field"] == field);
  }
  reply = served.get("/evidence/video/0e708990-1abd-4d9e-b2f9-16313db7629e");
  CHECK(reply.status == 404);
  CHECK(reply.body["code"] == "EVIDENCE_SESSION_NOT_FOUND");
}

TEST_CASE("serve: a video session started, refused a second time, stopped and fetched",
          "[serve][evidence][video]") {
  Farm farm({"default"});
  const TemporaryDirectory root{"serve-evidence"};
  Served served(farm, {}, {{"CLAWPERATOR_EVIDENCE_DIR", root.path().string()}});
  HttpReply reply = served.post("/evidence/video", R"({"durationSeconds": 60, "size": "360x640"})");
  INFO(reply.text);
  REQUIRE(reply.status == 200);
  CHECK(reply.body["status"] == "recording");
  const std::string id = reply.body["sessionId"];
  CHECK(served.post("/evidence/video", R"({"durationSeconds": 2})").status == 409);
  CHECK(served.get("/evidence/video/" + id).body["status"] == "recording");
  // Recording for a second: a video of some length for the stop to finalise and the fetch to
  // bring back.
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  reply = served.post("/evidence/video/" + id + "/stop", "");
  INFO(reply.text);
  REQUIRE(reply.status == 200);
  CHECK(reply.body["status"] == "complete");
  CHECK(reply.text.find(root.path().string()) == std::string::npos);
  bool fetched_video = false;
  for (const json& file : reply.body["files"]) {
    if (file["kind"] != "video") continue;
    const HttpReply video = served.get(file["url"]);
    CHECK(video.status == 200);
    CHECK(transport::sha256_hex(video.text) == file["sha256"]);
    fetched_video = true;
  }
  CHECK(fetched_video);

  // A session the CLI started in the same state directory is not the server's to read, stop
  // or serve: the answer is the one for a session that does not exist.
  farm.set_env("CLAWPERATOR_EVIDENCE_DIR", root.path().string());
  const json cli_started =
      single_document(farm.clawperator({"evidence", "video", "start", "--duration-seconds", "30"}));
  INFO(cli_started.dump());
  REQUIRE(cli_started["ok"] == true);
  const std::string cli_id = cli_started["sessionId"];
  for (const HttpReply& foreign : {served.get("/evidence/video/" + cli_id),
                                   served.post("/evidence/video/" + cli_id + "/stop", ""),
                                   served.get("/evidence/" + cli_id + "/manifest.json")}) {
    CHECK(foreign.status == 404);
  }
  CHECK(served.get("/evidence/video/" + cli_id).body["code"] == "EVIDENCE_SESSION_NOT_FOUND");
  // Still recording: the server's refusal stopped nothing.
  const json cli_status =
      single_document(farm.clawperator({"evidence", "video", "status", cli_id}));
  CHECK(cli_status["status"] == "recording");
  CHECK(single_document(farm.clawperator({"evidence", "video", "stop", cli_id}))["ok"] == true);
}

}  // namespace clawperator::testing
