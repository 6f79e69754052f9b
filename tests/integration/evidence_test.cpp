// Evidence bundles through the real adb against the virtual device (docs/evidence.md): a
// capture with every artefact hashed and verified, a changed byte found, destinations never
// overwritten, storage failures with their path and cause, partial and failed bundles.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "clawperator/transport/sha256.hpp"
#include "farm_fixture.hpp"
#include "media_probe.hpp"
#include "test_files.hpp"

using namespace clawperator::testing;
namespace fs = std::filesystem;

namespace {

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

// The default phone, its bundles in a temporary CLAWPERATOR_EVIDENCE_DIR.
struct EvidencePhone {
  Farm farm{std::vector<std::string>{"default"}};
  TemporaryDirectory root{"evidence"};
  EvidencePhone() { farm.set_env("CLAWPERATOR_EVIDENCE_DIR", root.path().string()); }
};

}  // namespace

TEST_CASE(
    "evidence capture: a complete bundle, every artefact hashed, verified, then a changed "
    "byte found",
    "[integration][evidence]") {
  EvidencePhone phone;
  Farm& farm = phone.farm;
  const TemporaryDirectory& root = phone.root;
  const RunResult captured = farm.clawperator(
      {"evidence", "capture", "--label", "checkout", "--context-json", R"({"run":7})"});
  REQUIRE(captured.exit_code == 0);
  const json document = single_document(captured);
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
  // The hierarchy is provably the Operator's (docs/guardrails.md §7).
  CHECK(manifest["resultAuthenticity"]["verified"] == true);
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
  CHECK(single_document(verified)["checked"] == 3);
  CHECK(single_document(verified)["extraFiles"] == json::array());
  // The manifest's own path names its bundle too.
  const RunResult by_manifest =
      farm.clawperator({"evidence", "verify", (bundle / "manifest.json").string()});
  CHECK(by_manifest.exit_code == 0);
  CHECK(single_document(by_manifest)["bundleDir"] == single_document(verified)["bundleDir"]);

  SECTION("one changed byte") {
    change_one_byte(bundle / "hierarchy.xml", 10);
    verified = farm.clawperator({"evidence", "verify", bundle.string()});
    CHECK(verified.exit_code == 1);
    const json failure = single_document(verified);
    CHECK(failure["code"] == "EVIDENCE_VERIFICATION_FAILED");
    CHECK(failure["details"]["reason"] == "mismatch");
    CHECK(failure["details"]["mismatches"] == 1);
    CHECK(failure["disposition"]["delivery"] == "not_delivered");
    // Its own phase: no usage mistake, no device.
    CHECK(failure["details"]["phase"] == "verification");
    CHECK_FALSE(failure["details"].contains("dispatchState"));
    CHECK(failure["message"].get<std::string>().find("hierarchy.xml (hash_mismatch)") !=
          std::string::npos);
    for (const json& artifact : failure["artifacts"]) {
      CHECK(artifact["result"] ==
            (artifact["path"] == "hierarchy.xml" ? "hash_mismatch" : "match"));
      // What the manifest recorded beside what the file is now.
      CHECK(artifact["expected"]["bytes"] == artifact["actual"]["bytes"]);
      CHECK((artifact["expected"]["sha256"] == artifact["actual"]["sha256"]) ==
            (artifact["result"] == "match"));
    }
  }
  SECTION("a file the manifest does not name is reported, and fails nothing") {
    std::ofstream(bundle / "notes.txt") << "added later\n";
    verified = farm.clawperator({"evidence", "verify", bundle.string()});
    CHECK(verified.exit_code == 0);
    CHECK(single_document(verified)["extraFiles"] == json::array({"notes.txt"}));
  }
  SECTION("a file cut short, another gone") {
    fs::resize_file(bundle / "screenshot.png", 10);
    fs::remove(bundle / "capture-envelopes.json");
    const json failure = single_document(farm.clawperator({"evidence", "verify", bundle.string()}));
    CHECK(failure["details"]["mismatches"] == 2);
    for (const json& artifact : failure["artifacts"]) {
      const std::string path = artifact["path"];
      CHECK(artifact["result"] == (path == "screenshot.png"           ? "size_mismatch"
                                   : path == "capture-envelopes.json" ? "missing"
                                                                      : "match"));
      if (path == "screenshot.png") CHECK(artifact["actual"]["bytes"] == 10);
      if (path == "capture-envelopes.json") CHECK_FALSE(artifact.contains("actual"));
    }
  }
  SECTION("a manifest that names a file outside the bundle") {
    json altered = manifest;
    altered["artifacts"][0]["path"] = "../outside";
    std::ofstream(bundle / "manifest.json", std::ios::trunc) << altered.dump();
    const json failure = single_document(farm.clawperator({"evidence", "verify", bundle.string()}));
    CHECK(failure["artifacts"][0]["result"] == "unsafe_path");
  }
  SECTION("no manifest") {
    fs::remove(bundle / "manifest.json");
    verified = farm.clawperator({"evidence", "verify", bundle.string()});
    CHECK(verified.exit_code == 1);
    const json failure = single_document(verified);
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
  json failure = single_document(result);
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
    failure = single_document(result);
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
  json failure = single_document(result);
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
  failure = single_document(result);
  CHECK(failure["code"] == "DEVICE_NOT_FOUND");
  CHECK(failure["status"] == "failed");
  CHECK(json::parse(file_text(nowhere / "manifest.json"))["status"] == "failed");
}

namespace {

using Clock = std::chrono::steady_clock;

// Polls `evidence video status` until the session is finished (or `limit` passes).
json wait_until_finished(const Farm& farm, const std::string& id,
                         std::chrono::seconds limit = std::chrono::seconds(30)) {
  const auto deadline = Clock::now() + limit;
  json status;
  while (Clock::now() < deadline) {
    status = single_document(farm.clawperator({"evidence", "video", "status", id}));
    const std::string now = status.value("status", "");
    if (now == "complete" || now == "partial" || now == "failed") return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  FAIL("the session did not finish: " << status.dump());
  return status;
}

// The lock files of the state directory (docs/evidence.md, "One recorder per device").
std::vector<fs::path> video_locks(const Farm& farm) {
  std::vector<fs::path> locks;
  const fs::path state = farm.environment().extra_env.at("CLAWPERATOR_STATE_DIR");
  std::error_code ignored;
  for (const auto& entry : fs::directory_iterator(state, ignored)) {
    if (entry.path().filename().string().rfind("evidence-video-lock-", 0) == 0) {
      locks.push_back(entry.path());
    }
  }
  return locks;
}

}  // namespace

TEST_CASE(
    "evidence video: a 6-second recording through the device's screenrecord, pulled, "
    "probed and hashed",
    "[integration][evidence][video]") {
  EvidencePhone phone;
  Farm& farm = phone.farm;
  const TemporaryDirectory& root = phone.root;
  // Long enough for the checks of a live session below on a loaded sanitizer run.
  const RunResult started = farm.clawperator({"evidence", "video", "start", "--duration-seconds",
                                              "6", "--size", "360x640", "--label", "login flow"});
  REQUIRE(started.exit_code == 0);
  const json start = single_document(started);
  CHECK(start["status"] == "recording");
  CHECK(start["deviceId"] == farm.serials().front());
  CHECK(start["manifest"]["video"]["devicePid"].is_number_integer());
  const std::string id = start["sessionId"];
  const fs::path bundle = root.path() / "bundles" / id;
  const auto locks = video_locks(farm);
  REQUIRE(locks.size() == 1);
  const json owner = json::parse(file_text(locks.front()))["ownerPid"];
  // One recorder per device, asked while the recording surely goes on (a sanitizer build on a
  // loaded runner once took 3 s before a second start got its turn).
  const RunResult second =
      farm.clawperator({"evidence", "video", "start", "--duration-seconds", "2"});
  REQUIRE(second.exit_code == 3);
  const json busy = single_document(second);
  CHECK(busy["code"] == "EVIDENCE_RECORDING_ACTIVE");
  CHECK(busy["details"]["sessionId"] == id);
  CHECK(busy["disposition"]["delivery"] == "not_delivered");

  // A supervisor run by hand for a live session takes nothing over. Its work goes on in a child
  // that keeps the run's stderr: the run ends once that child has refused.
  const RunResult by_hand = farm.clawperator({"evidence", "video", "supervise", id});
  CHECK(by_hand.err.find("evidence video supervise: the lock of " + id +
                         " is not held by its start") != std::string::npos);
  CHECK(json::parse(file_text(locks.front()))["ownerPid"] == owner);

  const json finished = wait_until_finished(farm, id);
  INFO(finished.dump());
  CHECK(finished["ok"] == true);
  CHECK(finished["status"] == "complete");
  const json& video = finished["manifest"]["video"];
  CHECK(video["stopReason"] == "time_limit");
  CHECK(video["probe"]["codec"] == "h264");
  CHECK(video["probe"]["width"] == 360);
  CHECK(video["probe"]["height"] == 640);
  CHECK(video["probe"]["durationSeconds"].get<double>() == Approx(6.0).margin(0.5));
  CHECK(video["probe"]["frames"].get<long long>() > 0);
  CHECK(finished["manifest"]["label"] == "login flow");
  CHECK(video_locks(farm).empty());
  // Our own ffprobe run agrees, and the bundle verifies.
  int status = 0;
  const std::string probed =
      command_output("ffprobe -v error -show_entries format=duration -of csv=p=0 '" +
                         (bundle / "video.mp4").string() + "'",
                     status);
  CHECK(status == 0);
  CHECK(std::stod(probed) == Approx(6.0).margin(0.5));
  CHECK(farm.clawperator({"evidence", "verify", bundle.string()}).exit_code == 0);
  // The device's copy is gone.
  const RunResult listed = farm.adb(
      {"-s", farm.serials().front(), "shell", "cat", video["devicePath"].get<std::string>()});
  CHECK(listed.exit_code != 0);
}

TEST_CASE("evidence video: stop before the limit finalises a shorter video at once",
          "[integration][evidence][video]") {
  EvidencePhone phone;
  Farm& farm = phone.farm;
  const json start =
      single_document(farm.clawperator({"evidence", "video", "start", "--duration-seconds", "60"}));
  REQUIRE(start["status"] == "recording");
  // Recording for 1.5 s: the video's length, checked below, shows the stop ended it.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const auto asked = Clock::now();
  const RunResult stopped = farm.clawperator({"evidence", "video", "stop", start["sessionId"]});
  CHECK(Clock::now() - asked < std::chrono::seconds(30));
  REQUIRE(stopped.exit_code == 0);
  const json stop = single_document(stopped);
  CHECK(stop["status"] == "complete");
  CHECK(stop["stopRequested"] == true);
  const json& video = stop["manifest"]["video"];
  CHECK(video["stopReason"] == "stopped");
  // Ended by the stop, far before its 60 s: the recorder began before start returned, and the
  // interrupt reaches the device one adb round trip after stop was asked (seconds under a
  // sanitizer build's load: 15.04 s once, with two builds beside it), so only that it ended
  // well before its 60 s is certain.
  const double seconds = video["probe"]["durationSeconds"].get<double>();
  CHECK(seconds > 1.4);
  CHECK(seconds < 30.0);
  CHECK(video["probe"]["width"] == 1080);
  // Stopping it again answers what it is.
  CHECK(single_document(farm.clawperator(
            {"evidence", "video", "stop", start["sessionId"]}))["status"] == "complete");
  CHECK(video_locks(farm).empty());
}

TEST_CASE(
    "evidence video: a killed supervisor leaves a lock that is reported, never taken over, "
    "until recover clears it",
    "[integration][evidence][video]") {
  EvidencePhone phone;
  Farm& farm = phone.farm;
  const json start =
      single_document(farm.clawperator({"evidence", "video", "start", "--duration-seconds", "60"}));
  REQUIRE(start["status"] == "recording");
  const std::string id = start["sessionId"];
  const auto locks = video_locks(farm);
  REQUIRE(locks.size() == 1);
  const json lock = json::parse(file_text(locks.front()));
  CHECK(lock["sessionId"] == id);
  const pid_t owner = lock["ownerPid"].get<pid_t>();
  REQUIRE(::kill(owner, SIGKILL) == 0);
  for (int attempt = 0; attempt < 100 && ::kill(owner, 0) == 0; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  RunResult result = farm.clawperator({"evidence", "video", "status", id});
  CHECK(result.exit_code == 3);
  json failure = single_document(result);
  CHECK(failure["code"] == "EVIDENCE_RECOVERY_REQUIRED");
  CHECK(failure["details"]["ownerPid"] == owner);
  CHECK(failure["details"]["manifestStatus"] == "recording");
  CHECK(failure["details"]["retainedFiles"].is_array());
  result = farm.clawperator({"evidence", "video", "start", "--duration-seconds", "2"});
  CHECK(result.exit_code == 3);
  CHECK(single_document(result)["code"] == "EVIDENCE_RECOVERY_REQUIRED");
  REQUIRE(video_locks(farm).size() == 1);  // not taken over

  result = farm.clawperator({"evidence", "video", "recover", id});
  REQUIRE(result.exit_code == 0);
  const json recovered = single_document(result);
  CHECK(recovered["recovered"] == true);
  CHECK(recovered["status"] == "failed");
  CHECK(recovered["deviceRecorder"]["interrupted"] == true);
  CHECK(video_locks(farm).empty());
  result = farm.clawperator({"evidence", "video", "status", id});
  CHECK(result.exit_code == 1);
  failure = single_document(result);
  CHECK(failure["code"] == "EVIDENCE_CAPTURE_FAILED");
  CHECK(failure["manifest"]["errors"].back()["stage"] == "recovery");

  // The device records again.
  const json again =
      single_document(farm.clawperator({"evidence", "video", "start", "--duration-seconds", "1"}));
  INFO(again.dump());
  // A 1-second recording may be over by the time start answers under load.
  CHECK((again["status"] == "recording" || again["status"] == "finalizing"));
  CHECK(wait_until_finished(farm, again["sessionId"])["status"] == "complete");
}

TEST_CASE("evidence video: refusals before anything is spawned, and a recorder that fails",
          "[integration][evidence][video]") {
  vdevice::android::Scenario failing = scenario("default");
  failing.faults.screenrecord_fails = true;
  vdevice::android::Scenario killed = scenario("default");
  // Killed well after the start and well before the duration: a sanitizer build with two builds
  // beside it took over 6 s to start the recorder (twice, stop 55), and a kill before the start
  // is another case ("cannot start", below).
  killed.faults.screenrecord_killed_after_ms = 15000;
  Farm farm(Farm::Built{{failing, killed}});
  TemporaryDirectory root("evidence");
  farm.set_env("CLAWPERATOR_EVIDENCE_DIR", root.path().string());
  const fs::path state = farm.environment().extra_env.at("CLAWPERATOR_STATE_DIR");
  const std::string& first = farm.serials()[0];
  const std::string& second = farm.serials()[1];

  SECTION("no ffprobe: HOST_DEPENDENCY_MISSING, no bundle, no lock, no supervisor") {
    farm.set_env("FFPROBE_PATH", (root.path() / "no-ffprobe").string());
    const RunResult result = farm.clawperator(
        {"evidence", "video", "start", "--duration-seconds", "2", "--device", first});
    CHECK(result.exit_code == 3);
    const json failure = single_document(result);
    CHECK(failure["code"] == "HOST_DEPENDENCY_MISSING");
    CHECK(failure["details"]["dependencies"][0]["name"] == "ffprobe");
    CHECK(failure["details"]["dependencies"][0]["problem"] == "missing");
    CHECK(failure["details"]["dependencies"][0]["source"] == "FFPROBE_PATH");
    CHECK_FALSE(fs::exists(root.path() / "bundles"));
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(state, ignored)) {
      CHECK(entry.path().filename().string().rfind("evidence-video", 0) != 0);
    }
  }
  SECTION("a broken ffprobe, an old scrcpy") {
    farm.set_env("FFPROBE_PATH", "/bin/false");
    json failure = single_document(farm.clawperator(
        {"evidence", "video", "start", "--duration-seconds", "2", "--device", first}));
    CHECK(failure["details"]["dependencies"][0]["problem"] == "fails to run");
    const fs::path scrcpy = root.path() / "scrcpy";
    std::ofstream(scrcpy)
        << "#!/bin/sh\necho 'scrcpy 1.25 <https://github.com/Genymobile/scrcpy>'\n";
    fs::permissions(scrcpy, fs::perms::owner_all);
    farm.set_env("FFPROBE_PATH", "");
    farm.set_env("SCRCPY_PATH", scrcpy.string());
    failure = single_document(farm.clawperator({"evidence", "video", "start", "--duration-seconds",
                                                "2", "--recorder", "scrcpy", "--device", first}));
    CHECK(failure["code"] == "HOST_DEPENDENCY_MISSING");
    CHECK(failure["details"]["dependencies"].size() == 1);
    CHECK(failure["details"]["dependencies"][0]["problem"] == "version 1.25 is older than 3.0");
  }
  SECTION("bad arguments and unknown sessions") {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"evidence", "video", "start"},
             {"evidence", "video", "start", "--duration-seconds", "181"},
             {"evidence", "video", "start", "--duration-seconds", "2", "--size", "359x640"},
             {"evidence", "video", "start", "--duration-seconds", "2", "--recorder", "vlc"},
             {"evidence", "video", "start", "--duration-seconds", "2", "--output-dir", "/tmp"},
             {"evidence", "video", "status"},
             {"evidence", "video", "rewind", "x"},
             {"evidence", "capture", "--duration-seconds", "2"},
             {"evidence", "capture", "--context-json", "[1]"},
             {"evidence", "verify"}}) {
      INFO(args.back());
      const RunResult result = farm.clawperator(args);
      CHECK(result.exit_code == 2);
      CHECK(single_document(result)["code"] == "USAGE");
    }
    for (const std::string id : {"not-a-uuid", "0e708990-1abd-4d9e-b2f9-16313db7629e"}) {
      const RunResult result = farm.clawperator({"evidence", "video", "stop", id});
      CHECK(result.exit_code == 3);
      CHECK(single_document(result)["code"] == "EVIDENCE_SESSION_NOT_FOUND");
    }
  }
  SECTION("screenrecord cannot start: the session is failed with what it printed") {
    const RunResult result = farm.clawperator(
        {"evidence", "video", "start", "--duration-seconds", "5", "--device", first});
    CHECK(result.exit_code == 1);
    const json failure = single_document(result);
    CHECK(failure["code"] == "EVIDENCE_CAPTURE_FAILED");
    CHECK(failure["status"] == "failed");
    CHECK(failure["manifest"]["errors"][0]["stage"] == "recorder");
    CHECK(video_locks(farm).empty());
  }
  SECTION("screenrecord killed before it finalised: a partial bundle, ffprobe's refusal kept") {
    const json start = single_document(farm.clawperator(
        {"evidence", "video", "start", "--duration-seconds", "30", "--device", second}));
    REQUIRE(start["status"] == "recording");
    const json finished = wait_until_finished(farm, start["sessionId"]);
    CHECK(finished["code"] == "EVIDENCE_CAPTURE_FAILED");
    CHECK(finished["status"] == "partial");
    bool probe_error = false;
    for (const json& error : finished["manifest"]["errors"])
      probe_error |= error["stage"] == "probe";
    CHECK(probe_error);
    CHECK(finished["manifest"]["video"]["probe"].is_null());
    // The truncated file is kept and hashed: verify checks it too.
    const RunResult verified =
        farm.clawperator({"evidence", "verify", finished["bundleDir"].get<std::string>()});
    CHECK(verified.exit_code == 0);
    CHECK(single_document(verified)["checked"] == 2);
  }
}

TEST_CASE("evidence video: --recorder scrcpy records on the host, finalised by SIGTERM on stop",
          "[integration][evidence][video]") {
  EvidencePhone phone;
  Farm& farm = phone.farm;
  // A stand-in for scrcpy 3.x that records ffmpeg's test pattern (tests/integration/
  // fake_scrcpy.sh): what is tested is our side, the version check, the arguments, the stop.
  farm.set_env("SCRCPY_PATH",
               std::string(CLAWPERATOR_SOURCE_DIR) + "/tests/integration/fake_scrcpy.sh");
  const json start = single_document(farm.clawperator(
      {"evidence", "video", "start", "--recorder", "scrcpy", "--duration-seconds", "30"}));
  REQUIRE(start["status"] == "recording");
  CHECK(start["recorder"] == "scrcpy");
  CHECK(start["manifest"]["video"]["hostPid"].is_number_integer());
  // Recording for 1.5 s: a length to compare with the time the recorder ran.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const json stop =
      single_document(farm.clawperator({"evidence", "video", "stop", start["sessionId"]}));
  INFO(stop.dump());
  CHECK(stop["status"] == "complete");
  const json& video = stop["manifest"]["video"];
  CHECK(video["stopReason"] == "stopped");
  CHECK(video["probe"]["codec"] == "h264");
  CHECK(video["probe"]["width"] == 360);
  // The video covers the 1.5 s slept, and no more than the session ran. (Not equal to it: on
  // a loaded machine the recorder's first frames come late and the stop itself is slow, so the
  // session's wall time grows past what was filmed: 1.7 s of video in 2.7 s, seen on CI.)
  const double filmed = video["probe"]["durationSeconds"].get<double>();
  CHECK(filmed >= 1.0);
  CHECK(filmed <= video["recordedSeconds"].get<double>() + 0.5);
}
