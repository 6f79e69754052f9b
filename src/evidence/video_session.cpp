// start, status, stop and recover of a video session: everything but the supervisor's own run
// (src/evidence/video_supervisor.cpp).
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <thread>

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/evidence/bundle.hpp"
#include "clawperator/evidence/device_identity.hpp"
#include "clawperator/evidence/video.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/process/detached.hpp"
#include "video_state.hpp"

namespace clawperator::evidence {
namespace {

using namespace std::chrono_literals;
using contract::HostError;

// How long start waits for the supervisor to report the recorder running.
constexpr std::chrono::milliseconds kStartWait{20000};
constexpr std::chrono::milliseconds kPollInterval{25};

bool is_terminal(std::string_view status) {
  return status == "complete" || status == "partial" || status == "failed";
}

HostError not_found(const std::string& session_id, std::string why) {
  return contract::make_error(contract::Phase::Usage, "EVIDENCE_SESSION_NOT_FOUND",
                              "No video session " + quote_json(session_id) + ": " + std::move(why),
                              {{"sessionId", session_id}});
}

HostError no_state_directory(const io::StateSelection& state) {
  StorageError failure;
  failure.operation = "use the host video lock directory";
  failure.path = state.refused ? state.refused->path : std::filesystem::path("(none)");
  failure.error_number = EACCES;
  HostError error = storage_error(failure, contract::Phase::Readiness);
  error.message =
      "Video sessions need the private state directory for their lock" +
      (state.refused ? ": " + state.refused->path.string() + " " + state.refused->problem
                     : std::string(": none could be used"));
  error.details["recovery"] =
      "Set CLAWPERATOR_STATE_DIR to a directory of yours that only you can write.";
  return error;
}

// A session found: its record, its bundle and the manifest as it is now.
struct Session {
  video::SessionRecord record;
  std::optional<BundleDirectory> bundle;
  Json manifest;  // null when unreadable
  std::string status() const {
    return manifest.is_object() ? manifest.value("status", "unknown") : "unknown";
  }
};

contract::Outcome<Session> load_session(const std::string& session_id,
                                        const io::StateSelection& state) {
  if (!video::is_session_id(session_id)) {
    return contract::failed(not_found(session_id, "a session id is a lowercase UUID"));
  }
  if (!state.directory) return contract::failed(no_state_directory(state));
  auto record = video::read_record(*state.directory, session_id);
  if (!record) {
    return contract::failed(not_found(session_id, "this host has no record of it"));
  }
  Session session;
  session.record = std::move(*record);
  auto bundle = BundleDirectory::open(session.record.bundle_dir);
  if (bundle) {
    std::string text;
    if (!bundle->read(kManifestFileName, kMaxManifestBytes, text)) {
      session.manifest = parse_json(text);
    }
    session.bundle = std::move(*bundle);
  }
  return session;
}

Json session_fields(const Session& session) {
  const std::filesystem::path bundle(session.record.bundle_dir);
  return {{"sessionId", session.record.session_id},
          {"status", session.status()},
          {"deviceId", session.record.serial},
          {"recorder", session.record.recorder},
          {"durationSeconds", session.record.duration_seconds},
          {"bundleDir", bundle.string()},
          {"manifestPath", (bundle / std::string(kManifestFileName)).string()},
          {"manifest", session.manifest}};
}

// The files a session left in its bundle, for a person deciding what to keep.
Json retained_files(const Session& session) {
  Json files = Json::array();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(session.record.bundle_dir, error)) {
    files.push_back(entry.path().filename().string());
  }
  return files;
}

HostError recovery_required(const Session& session, const std::optional<video::LockOwner>& owner) {
  HostError error = contract::make_error(
      contract::Phase::Readiness, "EVIDENCE_RECOVERY_REQUIRED",
      "Video session " + session.record.session_id + " is '" + session.status() +
          "' but its recorder's owner " +
          (owner ? "(pid " + std::to_string(owner->pid) + ") is gone" : "left no lock") +
          "; check the retained files, then run: clawperator evidence video recover " +
          session.record.session_id,
      {{"sessionId", session.record.session_id},
       {"deviceId", session.record.serial},
       {"ownerPid", owner ? Json(owner->pid) : Json(nullptr)},
       {"manifestStatus", session.status()},
       {"bundleDir", session.record.bundle_dir},
       {"retainedFiles", retained_files(session)}});
  return error;
}

// What a session is now, as status answers it.
EvidenceReport describe(const Session& session, const io::StateSelection& state) {
  const std::string status = session.status();
  if (!is_terminal(status)) {
    const auto owner = video::read_lock(*state.directory, session.record.lock);
    const bool ours = owner && owner->session_id == session.record.session_id;
    if (!ours || !video::owner_alive(*owner)) {
      HostError error = recovery_required(session, ours ? owner : std::nullopt);
      error.top_level = session_fields(session);
      return report_of(error);
    }
    Json out = {{"ok", true}};
    out.update(session_fields(session));
    return {std::move(out), 0};
  }
  if (status == "complete") {
    Json out = {{"ok", true}};
    out.update(session_fields(session));
    return {std::move(out), 0};
  }
  std::string why = "the video session ended " + status;
  if (session.manifest.is_object() && session.manifest.value("errors", Json()).is_array() &&
      !session.manifest["errors"].empty()) {
    why += ": " + session.manifest["errors"][0].value("message", "");
  }
  HostError error =
      contract::make_error(contract::Phase::PostProcessing, "EVIDENCE_CAPTURE_FAILED", why,
                           {{"sessionId", session.record.session_id},
                            {"errors", session.manifest.value("errors", Json::array())}});
  error.actions = {true, true};
  error.top_level = session_fields(session);
  return report_of(error);
}

std::string self_executable() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return {};
  return std::string(path, static_cast<std::size_t>(n));
}

}  // namespace

EvidenceReport start_video(const VideoStartRequest& request, process::Runner& runner) {
  // 1. Nothing is spawned before the host programs, the device, the lock and the storage are
  //    known to be usable.
  if (request.state.refused || !request.state.directory) {
    return report_of(no_state_directory(request.state));
  }
  const io::StateDirectory& state = *request.state.directory;
  const auto dependencies = check_video_dependencies(
      request.recorder, runner, [](const char* name) { return std::getenv(name); });
  if (auto status = dependency_error(dependencies); !status) return report_of(status.error());

  adb::AdbClient client(runner, request.adb);
  const contract::Outcome<std::string> serial = adb::resolve_device(client, request.device);
  if (!serial) return report_of(serial.error());
  // One shell round trip proves the device answers (and names it in the manifest).
  DeviceIdentity identity;
  identity.serial = *serial;
  identity.operator_package = request.operator_package;
  if (auto answered = read_device_identity(client, *serial, identity); !answered) {
    return report_of(answered.error());
  }

  video::SessionRecord record;
  record.session_id = io::random_uuid();
  record.serial = *serial;
  record.recorder = std::string(to_string(request.recorder));
  record.duration_seconds = request.duration_seconds;
  record.size = request.size;
  record.label = request.label;
  record.context = request.context;
  record.operator_package = request.operator_package;
  record.adb = request.adb;
  record.created_at = io::utc_timestamp(std::chrono::system_clock::now());
  record.lock = video::lock_name(request.adb, *serial);

  const std::string& lock = record.lock;
  std::optional<video::LockOwner> holder;
  switch (video::create_lock(state, lock, video::self_owner(record.session_id, *serial), holder)) {
    case video::LockResult::Acquired:
      break;
    case video::LockResult::Held:
      if (video::owner_alive(*holder)) {
        return report_of(contract::readiness_error(
            "EVIDENCE_RECORDING_ACTIVE",
            "Video session " + holder->session_id + " is recording " + *serial +
                "; stop it first: clawperator evidence video stop " + holder->session_id,
            {{"deviceId", *serial}, {"sessionId", holder->session_id}, {"ownerPid", holder->pid}}));
      }
      [[fallthrough]];
    case video::LockResult::Unreadable:
      return report_of(contract::readiness_error(
          "EVIDENCE_RECOVERY_REQUIRED",
          "The video lock of " + *serial + " names " +
              (holder ? "session " + holder->session_id + ", whose owner (pid " +
                            std::to_string(holder->pid) + ") is gone"
                      : std::string("no readable owner")) +
              (holder ? "; check its files, then run: clawperator evidence video recover " +
                            holder->session_id
                      : "; check that no recorder runs on it, then remove " +
                            (state.path() / lock).string() + " by hand"),
          {{"deviceId", *serial},
           {"sessionId", holder ? Json(holder->session_id) : Json(nullptr)},
           {"ownerPid", holder ? Json(holder->pid) : Json(nullptr)},
           {"lockFile", (state.path() / lock).string()}}));
    case video::LockResult::Failed:
      return report_of(storage_error({state.path() / lock, "create the video lock", EACCES},
                                     contract::Phase::Readiness));
  }
  // From here on a failure gives the lock back.
  const auto give_back = [&](EvidenceReport report) {
    video::release_lock(state, lock, record.session_id);
    return report;
  };

  const auto root = default_bundles_directory(io::process_state_environment());
  if (!root) {
    return give_back(report_of(
        storage_error({"~/.clawperator/evidence/bundles", "find the home directory for", 0},
                      contract::Phase::Readiness)));
  }
  auto bundle = BundleDirectory::create(*root / record.session_id);
  if (!bundle)
    return give_back(report_of(storage_error(bundle.error(), contract::Phase::Readiness)));
  record.bundle_dir = bundle->path().string();
  Manifest manifest = video::initial_manifest(record);
  manifest.device = identity;
  manifest.device.cli_version = CLAWPERATOR_VERSION;
  if (auto failure = bundle->replace(kManifestFileName, manifest_text(manifest))) {
    return give_back(report_of(storage_error(*failure, contract::Phase::Readiness)));
  }
  if (!video::write_record(state, record)) {
    return give_back(report_of(storage_error(
        {state.path() / video::record_name(record.session_id), "write the session record", EIO},
        contract::Phase::Readiness)));
  }

  // 2. The supervisor, detached: it outlives this command and answers stop's SIGINT.
  const std::string program =
      request.self_executable.empty() ? self_executable() : request.self_executable;
  process::DetachedProcess supervisor;
  video::remove_old_records(state);
  const std::filesystem::path log = state.path() / video::log_name(record.session_id);
  std::string failure;
  if (const int error_number =
          supervisor.spawn({program, "evidence", "video", "supervise", record.session_id}, log);
      error_number != 0) {
    failure = std::string("could not start the supervisor: ") + std::strerror(error_number);
  } else {
    // 3. Until the recorder runs (or could not start). The process spawned forks the real
    //    supervisor and exits at once (run_video_supervisor), so that a long-lived front end
    //    (mcp serve, serve) reaps it here and never keeps a child it forgot: from then on the
    //    supervisor is known by the pid it writes into the lock.
    const auto deadline = std::chrono::steady_clock::now() + kStartWait;
    bool intermediate_gone = false;
    std::string how;
    for (;;) {
      auto session = load_session(record.session_id, request.state);
      if (session && session->status() != "starting") break;
      if (!intermediate_gone && supervisor.exited(how)) {
        intermediate_gone = true;
        if (how != "exited with code 0") {
          failure = "the supervisor could not start (" + how + "; its log: " + log.string() + ")";
          break;
        }
      }
      const auto owner = video::read_lock(state, lock);
      const bool taken_over =
          owner && owner->session_id == record.session_id && owner->pid != ::getpid();
      if (intermediate_gone && taken_over && !video::owner_alive(*owner)) {
        failure =
            "the supervisor ended before the recorder started (its log: " + log.string() + ")";
        break;
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        supervisor.stop();  // the intermediate's group: the supervisor too
        if (taken_over && video::owner_alive(*owner)) ::kill(owner->pid, SIGKILL);
        failure = "the recorder did not start within " + std::to_string(kStartWait.count() / 1000) +
                  " s (the supervisor's log: " + log.string() + ")";
        break;
      }
      std::this_thread::sleep_for(kPollInterval);
    }
    // Reaped by now, or (a slow fork) released to init: never left a zombie of ours for long.
    if (!intermediate_gone && !supervisor.exited(how)) supervisor.release();
  }
  if (!failure.empty()) {
    manifest.status = "failed";
    manifest.finished_at = io::utc_timestamp(std::chrono::system_clock::now());
    manifest.errors.push_back({"EVIDENCE_CAPTURE_FAILED", "recorder", failure, "video"});
    (void)bundle->replace(kManifestFileName, manifest_text(manifest));
    video::release_lock(state, lock, record.session_id);
  }
  auto session = load_session(record.session_id, request.state);
  if (!session) return give_back(report_of(session.error()));
  return describe(*session, request.state);
}

EvidenceReport video_status(const std::string& session_id, const io::StateSelection& state) {
  auto session = load_session(session_id, state);
  if (!session) return report_of(session.error());
  return describe(*session, state);
}

EvidenceReport stop_video(const std::string& session_id, const io::StateSelection& state,
                          std::chrono::milliseconds wait) {
  auto session = load_session(session_id, state);
  if (!session) return report_of(session.error());
  if (is_terminal(session->status())) return describe(*session, state);
  const std::string lock = session->record.lock;
  const auto owner = video::read_lock(*state.directory, lock);
  if (!owner || owner->session_id != session_id || !video::owner_alive(*owner)) {
    return describe(*session, state);
  }
  ::kill(owner->pid, SIGINT);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(kPollInterval);
    session = load_session(session_id, state);
    if (!session) return report_of(session.error());
    if (is_terminal(session->status()) || !video::owner_alive(*owner)) break;
  }
  EvidenceReport report = describe(*session, state);
  report.document["stopRequested"] = true;
  return report;
}

EvidenceReport recover_video(const std::string& session_id, const io::StateSelection& state,
                             process::Runner& runner) {
  auto session = load_session(session_id, state);
  if (!session) return report_of(session.error());
  const std::string lock = session->record.lock;
  const auto owner = video::read_lock(*state.directory, lock);
  const bool locked = owner && owner->session_id == session_id;
  if (locked && video::owner_alive(*owner)) {
    HostError error = contract::readiness_error(
        "EVIDENCE_RECORDING_ACTIVE",
        "Video session " + session_id + " still has its owner (pid " + std::to_string(owner->pid) +
            "); stop it instead: clawperator evidence video stop " + session_id,
        {{"sessionId", session_id},
         {"deviceId", session->record.serial},
         {"ownerPid", owner->pid}});
    return report_of(error);
  }
  if (is_terminal(session->status()) && !locked) return describe(*session, state);

  // The device's recorder may still run (its supervisor was killed): interrupt it so it
  // finalises its file, which stays on the device for a person to pull.
  Json device_recorder = nullptr;
  if (session->manifest.is_object() && session->manifest.value("video", Json()).is_object()) {
    const Json& video = session->manifest["video"];
    if (video.value("devicePid", Json()).is_number_integer()) {
      adb::AdbClient client(runner, session->record.adb);
      const int device_pid = video["devicePid"].get<int>();
      const auto interrupted = adb::run_device_shell(
          client, session->record.serial,
          {"kill -INT " + std::to_string(device_pid), "kill -INT (the device recorder)"});
      device_recorder = {{"devicePid", device_pid},
                         {"devicePath", video.value("devicePath", Json())},
                         {"interrupted", interrupted.has_value()}};
    }
  }
  if (session->manifest.is_object() && session->bundle && !is_terminal(session->status())) {
    Json manifest = session->manifest;
    manifest["status"] = "failed";
    manifest["finishedAt"] = io::utc_timestamp(std::chrono::system_clock::now());
    if (!manifest.value("errors", Json()).is_array()) manifest["errors"] = Json::array();
    manifest["errors"].push_back(
        {{"code", "EVIDENCE_RECOVERY_REQUIRED"},
         {"stage", "recovery"},
         {"message",
          "the recorder's owner ended before finalising; cleared by evidence video "
          "recover"},
         {"component", "video"}});
    if (auto failure =
            session->bundle->replace(kManifestFileName, dump_json(manifest, true) + "\n")) {
      return report_of(storage_error(*failure, contract::Phase::Readiness));
    }
    session->manifest = std::move(manifest);
  }
  if (locked) video::release_lock(*state.directory, lock, session_id);
  Json out = {{"ok", true}, {"recovered", true}};
  out.update(session_fields(*session));
  out["retainedFiles"] = retained_files(*session);
  out["deviceRecorder"] = device_recorder;
  return {std::move(out), 0};
}

}  // namespace clawperator::evidence
