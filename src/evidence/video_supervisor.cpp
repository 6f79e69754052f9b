// The detached supervisor of one video session (`evidence video supervise ID`, started by
// start_video): runs the recorder, answers stop's SIGINT by finalising early, pulls and checks
// the MP4, writes the bundle's manifest at every change of status, and gives the device's lock
// back. Its stdout and stderr go to a log in the state directory.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/evidence/bundle.hpp"
#include "clawperator/evidence/video.hpp"
#include "clawperator/evidence/video_probe.hpp"
#include "clawperator/io/utc_time.hpp"
#include "video_state.hpp"

namespace clawperator::evidence {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

volatile sig_atomic_t g_stop_signal = 0;

extern "C" void on_stop_signal(int signal) {
  g_stop_signal = signal;
}

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a blocking wait returns at once and the loop sees the request.
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGHUP, SIG_IGN);
}

constexpr std::chrono::milliseconds kPidLineWait{15000};
// A recorder that cannot start (no encoder, a bad size) ends within this.
constexpr std::chrono::milliseconds kStartSettle{700};
constexpr std::chrono::milliseconds kFinaliseWait{10000};
constexpr std::chrono::milliseconds kPullTimeout{180000};
constexpr std::chrono::milliseconds kProbeTimeout{60000};
constexpr std::chrono::milliseconds kWaitStep{200};
constexpr std::size_t kMaxRecorderLog = 256 * 1024;
constexpr std::size_t kMaxPidLine = 4096;
constexpr std::string_view kVideoFile = "video.mp4";
constexpr std::string_view kRecorderLogFile = "recorder.log";

std::string now_text() {
  return io::utc_timestamp(std::chrono::system_clock::now());
}

class Supervisor {
 public:
  Supervisor(video::SessionRecord record, const io::StateDirectory& state, BundleDirectory bundle,
             Json manifest)
      : record_(std::move(record)),
        state_(state),
        bundle_(std::move(bundle)),
        manifest_(std::move(manifest)),
        runner_(process::make_system_runner()),
        client_(*runner_, record_.adb),
        lock_(record_.lock) {}

  // `starter`: the `evidence video start` that spawned us, which holds the lock until now.
  int run(pid_t starter) {
    if (!video::take_over_lock(state_, lock_, video::self_owner(record_.session_id, record_.serial),
                               starter)) {
      // Not ours to take (a supervisor run by hand, or a start that gave up on us): the session
      // belongs to whoever holds its lock, and its manifest is left as it is.
      std::fprintf(stderr, "evidence video supervise: the lock of %s is not held by its start\n",
                   record_.session_id.c_str());
      return 2;
    }
    const bool recorded =
        record_.recorder == "scrcpy" ? record_with_scrcpy() : record_with_screenrecord();
    if (recorded) check_video();
    store_recorder_log();
    return finish();
  }

 private:
  Json& video() { return manifest_["video"]; }

  void error(std::string code, std::string stage, std::string message) {
    manifest_["errors"].push_back(
        to_json(ManifestError{std::move(code), std::move(stage), std::move(message), "video"}));
  }

  void set_status(std::string status) {
    manifest_["status"] = std::move(status);
    (void)bundle_.replace(kManifestFileName, dump_json(manifest_, true) + "\n");
  }

  void collect(const process::StreamEvent& event) {
    for (const std::string* part : {&event.out, &event.err}) {
      if (recorder_log_.size() < kMaxRecorderLog) {
        recorder_log_.append(*part, 0, kMaxRecorderLog - recorder_log_.size());
      }
    }
  }

  // How a recorder that ended by itself ended: at its time limit (status 0), or not.
  std::string reason_of(const process::StreamEvent& exit) {
    if (exit.exit_code == 0 && exit.signal == 0) return "time_limit";
    video()["recorderExit"] = {{"exitCode", exit.exit_code}, {"signal", exit.signal}};
    error("EVIDENCE_CAPTURE_FAILED", "recorder",
          "the recorder ended before its time limit (exit " + std::to_string(exit.exit_code) +
              (exit.signal != 0 ? ", signal " + std::to_string(exit.signal) : std::string()) +
              "): " + first_line(recorder_log_));
    return "recorder_ended";
  }

  // Waits until the recorder exits, stop is asked for, or the limit passes.
  std::string wait_for_end(process::Stream& stream) {
    const auto deadline = recording_started_ + std::chrono::seconds(record_.duration_seconds) + 15s;
    for (;;) {
      const process::StreamEvent event = stream.wait(kWaitStep);
      collect(event);
      if (event.exited) return reason_of(event);
      if (g_stop_signal != 0) return "stopped";
      if (Clock::now() >= deadline) return "timeout";
    }
  }

  // The exit event, when the recorder ended within `limit`.
  std::optional<process::StreamEvent> wait_for_exit(process::Stream& stream,
                                                    std::chrono::milliseconds limit) {
    const auto deadline = Clock::now() + limit;
    while (Clock::now() < deadline) {
      process::StreamEvent event = stream.wait(kWaitStep);
      collect(event);
      if (event.exited) return event;
    }
    return std::nullopt;
  }

  // A recorder that cannot start ends at once with a failure status; one that ended with 0
  // within the settle time had a limit shorter than it (or a slow link) and recorded.
  static bool failed_to_start(const std::optional<process::StreamEvent>& ended) {
    return ended && (ended->exit_code != 0 || ended->signal != 0);
  }

  // The recorder runs since `started` (its first output, before the settle wait).
  void recording_began(Clock::time_point started, const std::string& started_at, Json extra) {
    recording_started_ = started;
    video()["startedAt"] = started_at;
    for (auto& [key, value] : extra.items()) video()[key] = value;
    set_status("recording");
  }

  void recording_ended(const std::string& reason) {
    const double seconds = std::chrono::duration<double>(Clock::now() - recording_started_).count();
    video()["stoppedAt"] = now_text();
    video()["stopReason"] = reason;
    video()["recordedSeconds"] = std::round(seconds * 1000) / 1000;
    if (reason == "timeout") {
      error("EVIDENCE_CAPTURE_FAILED", "recorder",
            "the recorder did not end within 15 s of its time limit and was stopped");
    }
    set_status("finalizing");
  }

  // The device's own screenrecord: `echo $$; exec screenrecord …` tells its pid, which stop
  // interrupts (SIGINT makes screenrecord write the MP4's index and exit), then adb pull.
  bool record_with_screenrecord() {
    const std::string device_path =
        "/data/local/tmp/clawperator-video-" + record_.session_id + ".mp4";
    std::string command =
        "echo $$; exec screenrecord --time-limit " + std::to_string(record_.duration_seconds);
    if (record_.size) command += " --size " + *record_.size;
    command += " " + device_path;
    process::Started spawned =
        runner_->start(client_.device_argv(record_.serial, {"shell", command}));
    if (!spawned) {
      error("EVIDENCE_CAPTURE_FAILED", "recorder",
            std::string("could not run adb: ") + spawned.error().message());
      return false;
    }
    std::unique_ptr<process::Stream> stream = std::move(*spawned);
    // The pid line.
    std::string out;
    const auto pid_deadline = Clock::now() + kPidLineWait;
    bool exited = false;
    while (out.find('\n') == std::string::npos && Clock::now() < pid_deadline &&
           g_stop_signal == 0) {
      const process::StreamEvent event = stream->wait(kWaitStep);
      // The pid is a few digits: a shell that prints more before its newline is not ours.
      if (out.size() < kMaxPidLine) out += event.out.substr(0, kMaxPidLine - out.size());
      if (recorder_log_.size() < kMaxRecorderLog) recorder_log_ += event.err;
      if (event.exited) {
        exited = true;
        break;
      }
    }
    const Clock::time_point started = Clock::now();
    const std::string started_at = now_text();
    const std::size_t newline = out.find('\n');
    int device_pid = 0;
    if (newline != std::string::npos) {
      device_pid = std::atoi(out.substr(0, newline).c_str());
      recorder_log_ += out.substr(newline + 1);
    }
    if (device_pid <= 0) {
      stream->terminate();
      error("EVIDENCE_CAPTURE_FAILED", "recorder",
            exited ? "adb shell ended before screenrecord started: " + first_line(recorder_log_)
                   : "the device's shell did not answer with the recorder's pid");
      return false;
    }
    const auto settled = wait_for_exit(*stream, kStartSettle);
    if (failed_to_start(settled)) {
      error("EVIDENCE_CAPTURE_FAILED", "recorder",
            "screenrecord ended as it started: " + first_line(recorder_log_));
      remove_device_file(device_path);
      return false;
    }
    recording_began(started, started_at, {{"devicePid", device_pid}, {"devicePath", device_path}});
    const std::string reason = settled ? reason_of(*settled) : wait_for_end(*stream);
    if (reason == "stopped" || reason == "timeout") {
      // SIGINT to screenrecord finalises the file; closing the stream (SIGHUP) does too.
      (void)adb::run_device_shell(
          client_, record_.serial,
          {"kill -INT " + std::to_string(device_pid), "kill -INT (the device recorder)", 10s});
      if (!wait_for_exit(*stream, kFinaliseWait)) stream->terminate();
    }
    recording_ended(reason);
    const std::filesystem::path local = bundle_.path() / std::string(kVideoFile);
    const process::Completion pulled =
        client_.pull(record_.serial, device_path, local.string(), kPullTimeout);
    remove_device_file(device_path);
    if (pulled.status != process::Completion::Status::Exited || pulled.exit_code != 0) {
      error("EVIDENCE_CAPTURE_FAILED", "pull",
            "adb pull " + device_path +
                " failed: " + first_line(pulled.err.empty() ? pulled.out : pulled.err));
      return false;
    }
    return true;
  }

  void remove_device_file(const std::string& device_path) {
    (void)adb::run_device_shell(client_, record_.serial,
                                {"rm -f " + device_path, "rm (the device's recording)", 10s});
  }

  // scrcpy 3.0+ on the host mirrors the screen and writes the MP4 itself; SIGTERM makes it
  // finalise the file.
  bool record_with_scrcpy() {
    const char* named = std::getenv("SCRCPY_PATH");
    process::StreamSpec spec;
    spec.argv = {named != nullptr && *named != '\0' ? named : "scrcpy",
                 "--serial=" + record_.serial,
                 "--no-window",
                 "--no-playback",
                 "--no-audio",
                 "--record=" + (bundle_.path() / std::string(kVideoFile)).string(),
                 "--time-limit=" + std::to_string(record_.duration_seconds)};
    if (record_.size) {
      const std::size_t x = record_.size->find('x');
      const int width = std::atoi(record_.size->substr(0, x).c_str());
      const int height = std::atoi(record_.size->substr(x + 1).c_str());
      spec.argv.push_back("--max-size=" + std::to_string(std::max(width, height)));
    }
    // scrcpy runs the adb it finds in $ADB: ours.
    spec.environment = {"ADB=" + record_.adb.executable};
    spec.terminate_grace = kFinaliseWait;
    process::Started spawned = runner_->start(spec);
    if (!spawned) {
      error("EVIDENCE_CAPTURE_FAILED", "recorder",
            std::string("could not run scrcpy: ") + spawned.error().message());
      return false;
    }
    std::unique_ptr<process::Stream> stream = std::move(*spawned);
    const Clock::time_point started = Clock::now();
    const std::string started_at = now_text();
    const auto settled = wait_for_exit(*stream, kStartSettle);
    if (failed_to_start(settled)) {
      error("EVIDENCE_CAPTURE_FAILED", "recorder",
            "scrcpy ended as it started: " + first_line(recorder_log_));
      return false;
    }
    recording_began(started, started_at, {{"hostPid", stream->pid()}});
    const std::string reason = settled ? reason_of(*settled) : wait_for_end(*stream);
    if (reason == "stopped" || reason == "timeout") stream->terminate();
    recording_ended(reason);
    return true;
  }

  // The MP4 hashed and read by ffprobe: codec, size, duration, frames.
  void check_video() {
    const BundleDirectory::Digest digest = bundle_.digest(kVideoFile);
    Artifact artifact;
    artifact.kind = "video";
    artifact.path = std::string(kVideoFile);
    artifact.mime_type = "video/mp4";
    artifact.started_at = video().value("startedAt", now_text());
    artifact.finished_at = now_text();
    artifact.duration_ms = static_cast<long long>(video().value("recordedSeconds", 0.0) * 1000);
    if (digest.error_number != 0) {
      artifact = failed_artifact(
          "video", std::string(kVideoFile), "video/mp4",
          "the recording is missing: " + std::string(std::strerror(digest.error_number)),
          artifact.started_at, artifact.finished_at, artifact.duration_ms);
      error("EVIDENCE_CAPTURE_FAILED", "pull", *artifact.error);
      manifest_["artifacts"].push_back(to_json(artifact));
      return;
    }
    artifact.bytes = digest.bytes;
    artifact.sha256 = digest.sha256;
    const char* named = std::getenv("FFPROBE_PATH");
    process::CommandSpec spec;
    spec.argv = {named != nullptr && *named != '\0' ? named : "ffprobe"};
    for (std::string& argument :
         ffprobe_arguments((bundle_.path() / std::string(kVideoFile)).string())) {
      spec.argv.push_back(std::move(argument));
    }
    spec.timeout = kProbeTimeout;
    spec.max_output_bytes = 1 << 20;
    const process::Completion probe = runner_->run(spec);
    std::string problem;
    std::optional<VideoFacts> facts;
    if (probe.status == process::Completion::Status::Exited && probe.exit_code == 0) {
      facts = parse_ffprobe_output(probe.out, problem);
    } else {
      problem = "ffprobe cannot read the recording: " +
                first_line(probe.err.empty() ? probe.out : probe.err);
    }
    if (facts) {
      video()["probe"] = to_json(*facts);
    } else {
      video()["probe"] = nullptr;
      artifact.status = "failed";
      artifact.error = problem;
      error("EVIDENCE_CAPTURE_FAILED", "probe", problem);
    }
    manifest_["artifacts"].push_back(to_json(artifact));
  }

  void store_recorder_log() {
    const std::string started = manifest_.value("startedAt", now_text());
    if (auto failure = bundle_.write_new(kRecorderLogFile, recorder_log_)) {
      error("EVIDENCE_STORAGE_UNWRITABLE", "write",
            "could not write " + failure->path.string() + ": " + errno_name(failure->error_number));
      return;
    }
    manifest_["artifacts"].push_back(
        to_json(complete_artifact("encoder_stderr", std::string(kRecorderLogFile), "text/plain",
                                  recorder_log_, started, now_text(), 0)));
  }

  int finish() {
    manifest_["finishedAt"] = now_text();
    // A video file kept (even one ffprobe cannot read, which a person may still repair) makes a
    // partial bundle at worst; the recorder's log alone does not make a recording.
    bool video_kept = false, all_complete = true;
    for (const Json& artifact : manifest_["artifacts"]) {
      if (artifact.value("kind", "") == "video" && artifact.value("bytes", Json()).is_number()) {
        video_kept = true;
      }
      all_complete = all_complete && artifact.value("status", "") == "complete";
    }
    const bool clean = manifest_["errors"].empty();
    // The device is free before the final status says so: whoever reads "failed" or "complete"
    // (the start that waits for it, a caller about to record again) finds no lock left.
    video::release_lock(state_, lock_, record_.session_id);
    set_status(video_kept && all_complete && clean ? "complete"
               : video_kept                        ? "partial"
                                                   : "failed");
    return video_kept ? 0 : 1;
  }

  static std::string first_line(std::string_view text) {
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) return "(no output)";
    text = text.substr(start);
    return std::string(text.substr(0, std::min<std::size_t>(text.find('\n'), 300)));
  }

  video::SessionRecord record_;
  const io::StateDirectory& state_;
  BundleDirectory bundle_;
  Json manifest_;
  std::unique_ptr<process::Runner> runner_;
  adb::AdbClient client_;
  std::string lock_;
  std::string recorder_log_;
  Clock::time_point recording_started_ = Clock::now();
};

}  // namespace

int run_video_supervisor(const std::string& session_id, const io::StateSelection& state) {
  // start_video spawned us and waits for us to exit: the work goes on in a child, which init
  // adopts, so a long-lived server that started the session keeps no child of it.
  const pid_t starter = ::getppid();
  if (const pid_t child = ::fork(); child > 0) {
    return 0;
  } else if (child < 0) {
    return 1;
  }
  install_stop_handlers();
  if (!state.directory || !video::is_session_id(session_id)) return 2;
  auto record = video::read_record(*state.directory, session_id);
  if (!record) return 2;
  auto bundle = BundleDirectory::open(record->bundle_dir);
  if (!bundle) return 2;
  std::string text;
  Json manifest;
  if (!bundle->read(kManifestFileName, kMaxManifestBytes, text)) manifest = parse_json(text);
  if (!manifest.is_object()) manifest = to_json(video::initial_manifest(*record));
  if (!manifest.value("video", Json()).is_object()) manifest["video"] = Json::object();
  if (!manifest.value("errors", Json()).is_array()) manifest["errors"] = Json::array();
  if (!manifest.value("artifacts", Json()).is_array()) manifest["artifacts"] = Json::array();
  Supervisor supervisor(std::move(*record), *state.directory, std::move(*bundle),
                        std::move(manifest));
  return supervisor.run(starter);
}

}  // namespace clawperator::evidence
