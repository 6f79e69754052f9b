// screenrecord on a virtual device through the real adb, as a host's video recording uses it:
// record, stop with kill -INT from a second adb shell, pull, and let ffprobe judge the file;
// and the two faults a host must survive.
#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "farm_fixture.hpp"
#include "media_probe.hpp"

using clawperator::testing::Farm;
using clawperator::testing::ffprobe_json;
using clawperator::testing::program_on_path;
using clawperator::testing::RunResult;
using clawperator::testing::scenario;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

// ffprobe's verdict on a pulled file: the video stream, or a failed test.
json probe_video(const std::string& path) {
  const auto ffprobe = program_on_path("ffprobe");
  REQUIRE(ffprobe);  // the integration tests run where Debian's ffmpeg is installed
  int status = 0;
  const std::string out = ffprobe_json(*ffprobe, path, status);
  INFO(out);
  REQUIRE(status == 0);
  const json document = json::parse(out);
  REQUIRE(document.at("streams").size() == 1);
  json stream = document.at("streams").at(0);
  stream["format_duration"] = document.at("format").at("duration");
  return stream;
}

double seconds_of(const json& value) {
  return std::stod(value.get<std::string>());
}

// `adb shell CMD` whose stdout is read as it comes, for a pid printed before the command ends.
class LiveShell {
 public:
  LiveShell(Farm& farm, const std::string& command) {
    const std::string line = "'" + farm.farm().adb() + "' -P " +
                             std::to_string(farm.farm().adb_server_port()) + " -s '" +
                             farm.serials().front() + "' shell '" + command + "'";
    pipe_ = ::popen(line.c_str(), "r");
    REQUIRE(pipe_ != nullptr);
  }
  ~LiveShell() {
    if (pipe_ != nullptr) wait();
  }
  LiveShell(const LiveShell&) = delete;
  LiveShell& operator=(const LiveShell&) = delete;

  std::string line() {
    char buffer[256];
    if (std::fgets(buffer, sizeof buffer, pipe_) == nullptr) return {};
    std::string text = buffer;
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }
  // adb's exit status, which is the device command's.
  int wait() {
    const int status = ::pclose(pipe_);
    pipe_ = nullptr;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  FILE* pipe_ = nullptr;
};

}  // namespace

TEST_CASE("screenrecord through adb: 2 s at 360x640, pulled, as ffprobe reads it",
          "[integration][screenrecord]") {
  Farm farm({"default"});
  const std::string& serial = farm.serials().front();
  const auto started = Clock::now();
  const RunResult recorded = farm.adb(
      {"-s", serial, "shell", "screenrecord --time-limit 2 --size 360x640 /sdcard/clip.mp4"});
  const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  INFO(recorded.out << recorded.err);
  CHECK(recorded.exit_code == 0);
  CHECK(elapsed >= 2.0);
  const std::string local = farm.log_dir() + "-clip.mp4";
  const RunResult pulled = farm.adb({"-s", serial, "pull", "/sdcard/clip.mp4", local});
  INFO(pulled.out << pulled.err);
  REQUIRE(pulled.exit_code == 0);
  const json video = probe_video(local);
  std::filesystem::remove(local);
  CHECK(video.at("codec_name") == "h264");
  CHECK(video.at("width") == 360);
  CHECK(video.at("height") == 640);
  CHECK(seconds_of(video.at("duration")) == Approx(2.0).margin(0.1));
  CHECK(seconds_of(video.at("format_duration")) == Approx(2.0).margin(0.1));
  // Ten frames a second, every one decodable.
  CHECK(video.at("nb_frames") == "20");
  CHECK(video.at("nb_read_frames") == "20");
}

TEST_CASE("screenrecord through adb: kill -INT from a second shell stops it after 1 s",
          "[integration][screenrecord]") {
  Farm farm({"default"});
  const std::string& serial = farm.serials().front();
  // From before the shell starts: the recording begins before its pid reaches us, by up to a
  // loaded machine's adb round trip.
  const auto started = Clock::now();
  // A time limit well past the kill: bounds the wait should the kill go astray.
  LiveShell recording(farm,
                      "echo $$; exec screenrecord --time-limit 10 --size 360x640 /sdcard/stop.mp4");
  const std::string pid = recording.line();
  REQUIRE_FALSE(pid.empty());
  // Recording for 1 s before the kill: the video's length, checked below, is that second.
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  const RunResult killed = farm.adb({"-s", serial, "shell", "kill -INT " + pid});
  // The most the recording can have lasted: from before the shell started to after kill returned.
  const double longest = std::chrono::duration<double>(Clock::now() - started).count();
  INFO(killed.out << killed.err);
  CHECK(killed.exit_code == 0);
  CHECK(recording.wait() == 0);  // SIGINT is caught: the file is finished, exit 0

  const std::string local = farm.log_dir() + "-stop.mp4";
  REQUIRE(farm.adb({"-s", serial, "pull", "/sdcard/stop.mp4", local}).exit_code == 0);
  const json video = probe_video(local);
  std::filesystem::remove(local);
  CHECK(video.at("codec_name") == "h264");
  // About 1 s: at least the sleep, at most the host's time from the pid to kill's return
  // (which a loaded machine stretches), with ffprobe's and the clocks' ±0.1 s.
  const double duration = seconds_of(video.at("duration"));
  INFO("recorded " << duration << " s, the host saw at most " << longest << " s");
  CHECK(duration >= 0.95);
  CHECK(duration <= longest + 0.1);
  // One frame per started 100 ms.
  const int frames = std::stoi(video.at("nb_frames").get<std::string>());
  CHECK(frames == static_cast<int>(std::ceil(duration * 10 - 1e-6)));
  CHECK(video.at("nb_read_frames") == video.at("nb_frames"));

  // The process is gone: the shell's kill says so.
  const RunResult again = farm.adb({"-s", serial, "shell", "kill -INT " + pid});
  CHECK(again.exit_code == 1);
  CHECK(again.err.find("kill: " + pid + ": No such process") != std::string::npos);
}

TEST_CASE("screenrecord through adb: the faults screenrecordFails and screenrecordKilledAfterMs",
          "[integration][screenrecord]") {
  SECTION("the encoder cannot be configured: an error, a non-zero status, no video") {
    auto broken = scenario("default");
    broken.faults.screenrecord_fails = true;
    Farm farm(Farm::Built{{broken}});
    const std::string& serial = farm.serials().front();
    const RunResult recorded =
        farm.adb({"-s", serial, "shell", "screenrecord --size 360x640 /sdcard/f.mp4"});
    CHECK(recorded.exit_code == 218);
    CHECK(recorded.err == "ERROR: unable to configure video/avc codec at 360x640 (err=-38)\n");
    // What main() created before the encoder failed: an empty file.
    const RunResult size = farm.adb({"-s", serial, "shell", "cat /sdcard/f.mp4"});
    CHECK(size.exit_code == 0);
    CHECK(size.out.empty());
  }
  SECTION("the recorder is killed: a file without moov, status 137") {
    auto killed = scenario("default");
    killed.faults.screenrecord_killed_after_ms = 800;
    Farm farm(Farm::Built{{killed}});
    const std::string& serial = farm.serials().front();
    const RunResult recorded =
        farm.adb({"-s", serial, "shell", "screenrecord --size 360x640 /sdcard/k.mp4"});
    CHECK(recorded.exit_code == 137);
    const std::string local = farm.log_dir() + "-killed.mp4";
    REQUIRE(farm.adb({"-s", serial, "pull", "/sdcard/k.mp4", local}).exit_code == 0);
    const std::string bytes = clawperator::testing::read_file(local);
    CHECK(bytes.substr(4, 4) == "ftyp");
    CHECK(bytes.substr(36, 4) == "mdat");
    CHECK(bytes.find("moov") == std::string::npos);
    int status = 0;
    const std::string probed = ffprobe_json(*program_on_path("ffprobe"), local, status);
    std::filesystem::remove(local);
    CHECK(status != 0);
    CHECK(probed.find("moov atom not found") != std::string::npos);
  }
}
