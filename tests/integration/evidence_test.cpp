// Evidence bundles through the real adb against the virtual device (docs/evidence.md): a
// capture with every artefact hashed and verified, a changed byte found, destinations never
// overwritten, storage failures with their path and cause, partial and failed bundles.
#include <filesystem>
#include <fstream>

#include "clawperator/transport/sha256.hpp"
#include "farm_fixture.hpp"
#include "test_files.hpp"

using namespace clawperator::testing;
namespace fs = std::filesystem;

namespace {

json document_of(const RunResult& result) {
  INFO(result.out << result.err);
  return single_document(result);
}

std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Replaces the byte at `offset` of `path` by another.
void change_one_byte(const fs::path& path, std::size_t offset) {
  std::string bytes = file_text(path);
  REQUIRE(offset < bytes.size());
  bytes[offset] = static_cast<char>(bytes[offset] ^ 0x20);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_CASE(
    "evidence capture: a complete bundle, every artefact hashed, verified, then a changed "
    "byte found",
    "[integration][evidence]") {
  Farm farm({"default"});
  TemporaryDirectory root("evidence");
  farm.set_env("CLAWPERATOR_EVIDENCE_DIR", root.path().string());
  const RunResult captured = farm.clawperator(
      {"evidence", "capture", "--label", "checkout", "--context-json", R"({"run":7})"});
  REQUIRE(captured.exit_code == 0);
  const json document = document_of(captured);
  CHECK(document["ok"] == true);
  CHECK(document["status"] == "complete");
  const std::string id = document["evidenceId"].get<std::string>();
  const fs::path bundle = root.path() / "bundles" / id;
  CHECK(document["bundleDir"] == bundle.string());
  CHECK(document["manifestPath"] == (bundle / "manifest.json").string());
  CHECK((fs::status(bundle).permissions() & fs::perms::all) == fs::perms::owner_all);

  // The manifest on disk is the one printed, and names every file with its size and hash.
  const json manifest = json::parse(file_text(bundle / "manifest.json"));
  CHECK(manifest == document["manifest"]);
  CHECK(manifest["schemaVersion"] == 1);
  CHECK(manifest["evidenceId"] == id);
  CHECK(manifest["label"] == "checkout");
  CHECK(manifest["context"] == json{{"run", 7}});
  CHECK(manifest["status"] == "complete");
  CHECK(manifest["errors"].empty());
  const json& device = manifest["device"];
  CHECK(device["serial"] == farm.serials().front());
  CHECK(device["apiLevel"] == 34);
  CHECK(device["model"] == "Virtual Pixel");
  CHECK(device["deviceType"] == "physical");
  CHECK(device["operatorVersion"].is_string());
  CHECK(device["display"] ==
        json{{"width", 1080}, {"height", 2400}, {"density", 420}, {"rotation", 0}});
  std::set<std::string> kinds;
  for (const json& artifact : manifest["artifacts"]) {
    INFO(artifact.dump());
    kinds.insert(artifact["kind"].get<std::string>());
    CHECK(artifact["status"] == "complete");
    const std::string bytes = file_text(bundle / artifact["path"].get<std::string>());
    CHECK(artifact["bytes"] == bytes.size());
    CHECK(artifact["sha256"] == clawperator::transport::sha256_hex(bytes));
  }
  CHECK(kinds == std::set<std::string>{"screenshot", "hierarchy", "capture_envelopes"});
  CHECK(file_text(bundle / "screenshot.png").rfind("\x89PNG\r\n\x1a\n", 0) == 0);
  CHECK(file_text(bundle / "hierarchy.xml").find("<hierarchy") != std::string::npos);
  const json envelopes = json::parse(file_text(bundle / "capture-envelopes.json"));
  CHECK(envelopes[0]["commandId"] == "evidence-" + id);

  RunResult verified = farm.clawperator({"evidence", "verify", bundle.string()});
  CHECK(verified.exit_code == 0);
  CHECK(document_of(verified)["checked"] == 3);

  SECTION("one changed byte") {
    change_one_byte(bundle / "hierarchy.xml", 10);
    verified = farm.clawperator({"evidence", "verify", bundle.string()});
    CHECK(verified.exit_code == 1);
    const json failure = document_of(verified);
    CHECK(failure["code"] == "EVIDENCE_VERIFICATION_FAILED");
    CHECK(failure["details"]["reason"] == "mismatch");
    CHECK(failure["details"]["mismatches"] == 1);
    CHECK(failure["disposition"]["delivery"] == "not_delivered");
    for (const json& artifact : failure["artifacts"]) {
      CHECK(artifact["result"] ==
            (artifact["path"] == "hierarchy.xml" ? "hash_mismatch" : "match"));
    }
  }
  SECTION("a file cut short, another gone") {
    fs::resize_file(bundle / "screenshot.png", 10);
    fs::remove(bundle / "capture-envelopes.json");
    const json failure = document_of(farm.clawperator({"evidence", "verify", bundle.string()}));
    CHECK(failure["details"]["mismatches"] == 2);
    for (const json& artifact : failure["artifacts"]) {
      const std::string path = artifact["path"];
      CHECK(artifact["result"] == (path == "screenshot.png"           ? "size_mismatch"
                                   : path == "capture-envelopes.json" ? "missing"
                                                                      : "match"));
    }
  }
  SECTION("a manifest that names a file outside the bundle") {
    json altered = manifest;
    altered["artifacts"][0]["path"] = "../outside";
    std::ofstream(bundle / "manifest.json", std::ios::trunc) << altered.dump();
    const json failure = document_of(farm.clawperator({"evidence", "verify", bundle.string()}));
    CHECK(failure["artifacts"][0]["result"] == "unsafe_path");
  }
  SECTION("no manifest") {
    fs::remove(bundle / "manifest.json");
    verified = farm.clawperator({"evidence", "verify", bundle.string()});
    CHECK(verified.exit_code == 1);
    const json failure = document_of(verified);
    CHECK(failure["details"]["reason"] == "manifest_unreadable");
    CHECK(failure["details"]["causeCode"] == "ENOENT");
  }
}

TEST_CASE(
    "evidence capture: an existing destination is refused untouched, an unwritable one "
    "named with its cause",
    "[integration][evidence]") {
  Farm farm({"default"});
  TemporaryDirectory root("evidence");
  const fs::path existing = root.path() / "taken";
  fs::create_directory(existing);
  std::ofstream(existing / "notes.txt") << "mine";
  RunResult result = farm.clawperator({"evidence", "capture", "--output-dir", existing.string()});
  CHECK(result.exit_code == 3);
  json failure = document_of(result);
  CHECK(failure["code"] == "EVIDENCE_OUTPUT_EXISTS");
  CHECK(failure["details"]["path"] == existing.string());
  CHECK(failure["details"]["causeCode"] == "EEXIST");
  CHECK(failure["disposition"] == json{{"delivery", "not_delivered"}, {"retry", "safe"}});
  CHECK(file_text(existing / "notes.txt") == "mine");
  CHECK(std::distance(fs::directory_iterator(existing), fs::directory_iterator()) == 1);

  // Under a regular file: no directory can be made there, whoever runs the test (root too).
  const fs::path file = root.path() / "a-file";
  std::ofstream(file) << "x";
  for (const bool through_environment : {false, true}) {
    INFO("through CLAWPERATOR_EVIDENCE_DIR: " << through_environment);
    if (through_environment) {
      farm.set_env("CLAWPERATOR_EVIDENCE_DIR", (file / "evidence").string());
      result = farm.clawperator({"evidence", "capture"});
    } else {
      result = farm.clawperator({"evidence", "capture", "--output-dir", (file / "b").string()});
    }
    CHECK(result.exit_code == 3);
    failure = document_of(result);
    CHECK(failure["code"] == "EVIDENCE_STORAGE_UNWRITABLE");
    CHECK(failure["details"]["path"].get<std::string>().rfind(root.path().string(), 0) == 0);
    CHECK(failure["details"]["causeCode"] == "ENOTDIR");
    CHECK(failure["details"]["recovery"].is_string());
    CHECK(failure["disposition"]["delivery"] == "not_delivered");
  }
  CHECK(file_text(file) == "x");
}

TEST_CASE(
    "evidence capture: a bundle missing an artefact is partial and exits 1, one that "
    "reached no device is failed with the device's code",
    "[integration][evidence]") {
  vdevice::android::Scenario broken = scenario("default");
  broken.faults.ui_tree_unavailable = true;
  Farm farm(Farm::Built{{broken}});
  TemporaryDirectory root("evidence");
  const fs::path partial = root.path() / "partial";
  RunResult result = farm.clawperator({"evidence", "capture", "--output-dir", partial.string()});
  CHECK(result.exit_code == 1);
  json failure = document_of(result);
  CHECK(failure["code"] == "EVIDENCE_CAPTURE_FAILED");
  CHECK(failure["status"] == "partial");
  CHECK(failure["disposition"] == json{{"delivery", "delivered_verified"}, {"retry", "safe"}});
  const json manifest = json::parse(file_text(partial / "manifest.json"));
  CHECK(manifest["status"] == "partial");
  for (const json& artifact : manifest["artifacts"]) {
    INFO(artifact.dump());
    CHECK(artifact["status"] == (artifact["kind"] == "hierarchy" ? "failed" : "complete"));
  }
  CHECK(manifest["errors"][0]["code"] == "UI_TREE_UNAVAILABLE");
  CHECK(manifest["errors"][0]["component"] == "hierarchy");
  CHECK_FALSE(fs::exists(partial / "hierarchy.xml"));
  // What was captured still verifies.
  CHECK(farm.clawperator({"evidence", "verify", partial.string()}).exit_code == 0);

  const fs::path nowhere = root.path() / "nowhere";
  result = farm.clawperator(
      {"evidence", "capture", "--output-dir", nowhere.string(), "--device", "no-such-device"});
  CHECK(result.exit_code == 3);
  failure = document_of(result);
  CHECK(failure["code"] == "DEVICE_NOT_FOUND");
  CHECK(failure["status"] == "failed");
  CHECK(json::parse(file_text(nowhere / "manifest.json"))["status"] == "failed");
}
