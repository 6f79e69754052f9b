// screenrecord and kill on the simulated device (a fake clock: durations are exact), and the
// files they leave as ffprobe and ffmpeg read them.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "android_test_support.hpp"
#include "media_probe.hpp"
#include "skip.hpp"
#include "vdevice/android/formats/h264_writer.hpp"
#include "vdevice/android/formats/mp4_writer.hpp"
#include "video_test_support.hpp"

using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;
using clawperator::testing::command_output;
using clawperator::testing::ffprobe_json;
using clawperator::testing::program_on_path;

namespace {

// A file of its own under the temporary directory, removed with the object.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& bytes) {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("clawperator-screenrecord-" + std::to_string(::getpid()) + "-" +
              std::to_string(++counter) + ".mp4"))
                .string();
    std::ofstream(path_, std::ios::binary) << bytes;
  }
  ~TemporaryFile() { std::filesystem::remove(path_); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string device_file(Harness& harness, const std::string& path) {
  const ShellResult read = harness.shell("cat " + path);
  INFO(read.err);
  REQUIRE(read.status == 0);
  return read.out;
}

Mp4Box box(const std::string& file, const std::string& path) {
  auto found = find_box(file, path);
  INFO(path);
  REQUIRE(found);
  return *found;
}

std::uint32_t sample_count(const std::string& file) {
  return read_be32(box(file, "moov/trak/mdia/minf/stbl/stsz").body, 8);
}

std::vector<std::uint32_t> sample_sizes(const std::string& file) {
  const Mp4Box stsz = box(file, "moov/trak/mdia/minf/stbl/stsz");
  std::vector<std::uint32_t> sizes;
  for (std::uint32_t i = 0; i < read_be32(stsz.body, 8); ++i) {
    sizes.push_back(read_be32(stsz.body, 12 + 4 * i));
  }
  return sizes;
}

// mdhd's duration, in 90 kHz ticks.
std::uint32_t media_duration(const std::string& file) {
  return read_be32(box(file, "moov/trak/mdia/mdhd").body, 16);
}

std::vector<std::uint32_t> sync_samples(const std::string& file) {
  const Mp4Box stss = box(file, "moov/trak/mdia/minf/stbl/stss");
  std::vector<std::uint32_t> numbers;
  for (std::uint32_t i = 0; i < read_be32(stss.body, 4); ++i) {
    numbers.push_back(read_be32(stss.body, 8 + 4 * i));
  }
  return numbers;
}

// A complete recording: ftyp, an mdat whose size covers the samples stsz lists (starting where
// stco says), moov; every sample a length-prefixed slice NAL unit.
void check_complete(const std::string& file) {
  const std::vector<Mp4Box> top = boxes_in(file);
  REQUIRE(top.size() == 3);
  CHECK(top[0].type == "ftyp");
  CHECK(top[1].type == "mdat");
  CHECK(top[2].type == "moov");
  const std::uint32_t first = read_be32(box(file, "moov/trak/mdia/minf/stbl/stco").body, 8);
  CHECK(first == top[1].offset + 8);
  std::size_t at = first;
  const std::vector<std::uint32_t> sizes = sample_sizes(file);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    INFO("sample " << i + 1);
    REQUIRE(at + sizes[i] <= file.size());
    CHECK(read_be32(file, at) + 4 == sizes[i]);
    const auto nal_type = static_cast<std::uint8_t>(file[at + 4]) & 0x1F;
    CHECK((nal_type == 5 || nal_type == 1));
    at += sizes[i];
  }
  CHECK(at == top[2].offset);
}

// A recording a signal or the fault cut short: ftyp and an mdat running to the end of the file.
void check_truncated(const std::string& file) {
  REQUIRE(file.size() > 40);
  CHECK(file.substr(4, 4) == "ftyp");
  CHECK(file.substr(32, 8) == std::string("\0\0\0\0mdat", 8));
  CHECK(file.find("moov") == std::string::npos);
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

h264::YuvPicture pattern_picture(int width, int height, int seed, int changed_size) {
  std::vector<Rgb> pixels;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int s = x < changed_size && y < changed_size ? seed : 0;
      pixels.push_back(Rgb{static_cast<std::uint8_t>(x * 5 + s * 40),
                           static_cast<std::uint8_t>(y * 3 + s * 70),
                           static_cast<std::uint8_t>(x + y + s * 90)});
    }
  }
  return h264::YuvPicture::from_rgb(width, height, pixels);
}

// The visible part of a picture as ffmpeg's rawvideo yuv420p writes it.
std::string visible_planes(const h264::YuvPicture& picture) {
  std::string out;
  const auto plane = [&](const std::vector<std::uint8_t>& samples, int stride, int width,
                         int height) {
    for (int y = 0; y < height; ++y) {
      out.append(reinterpret_cast<const char*>(samples.data()) + y * stride,
                 static_cast<std::size_t>(width));
    }
  };
  const int columns = picture.macroblock_columns();
  plane(picture.luma(), columns * 16, picture.width(), picture.height());
  plane(picture.blue_difference(), columns * 8, picture.width() / 2, picture.height() / 2);
  plane(picture.red_difference(), columns * 8, picture.width() / 2, picture.height() / 2);
  return out;
}

}  // namespace

TEST_CASE("screenrecord: until the time limit, a complete MP4 in the device's files",
          "[vdevice][android][screenrecord]") {
  Harness harness;
  const Clock::time_point started = harness.now;
  const ShellResult result =
      harness.shell("screenrecord --time-limit 2 --size 360x640 /sdcard/clip.mp4");
  INFO(result.err);
  CHECK(result.status == 0);
  CHECK(result.out.empty());
  CHECK(result.err.empty());
  // The stream ended at the limit, not before (the harness steps 5 ms at a time).
  CHECK(harness.now - started >= milliseconds(2000));
  CHECK(harness.now - started <= milliseconds(2010));
  const std::string file = device_file(harness, "/sdcard/clip.mp4");
  check_complete(file);
  CHECK(sample_count(file) == 20);
  CHECK(media_duration(file) == 2 * 90000);
  CHECK(read_be32(box(file, "moov/mvhd").body, 16) == 2000);
  // A still screen: one IDR, then P pictures of skipped macroblocks, a few bytes each.
  CHECK(sync_samples(file) == std::vector<std::uint32_t>{1});
  const std::vector<std::uint32_t> sizes = sample_sizes(file);
  CHECK(sizes[0] > 23 * 40 * 384);
  for (std::size_t i = 1; i < sizes.size(); ++i) CHECK(sizes[i] < 16);
  const SpsFields sps = parse_sps(
      box(file, "moov/trak/mdia/minf/stbl/stsd/avc1/avcC")
          .body.substr(8, read_be16(box(file, "moov/trak/mdia/minf/stbl/stsd/avc1/avcC").body, 6)));
  CHECK(sps.width == 360);
  CHECK(sps.height == 640);
}

TEST_CASE("screenrecord: the display's size by default, AOSP's verbose lines",
          "[vdevice][android][screenrecord]") {
  Harness harness;
  const ShellResult result = harness.shell("screenrecord --verbose --time-limit=1 /sdcard/v.mp4");
  CHECK(result.status == 0);
  CHECK(result.out ==
        "Main display is 1080x2400 @60.00fps (orientation=0)\n"
        "Configuring recorder for 1080x2400 video/avc at 20.00Mbps\n"
        "Content area is 1080x2400 at offset x=0 y=0\n"
        "Time limit reached\n"
        "Encoder stopping; recorded 10 frames in 1 seconds\n"
        "Stopping encoder and muxer\n"
        "Executing: /system/bin/am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE "
        "-d file:///sdcard/v.mp4\n"
        "Broadcasting: Intent { act=android.intent.action.MEDIA_SCANNER_SCAN_FILE "
        "dat=file:///sdcard/v.mp4 flg=0x400000 }\n"
        "Broadcast completed: result=0\n");
  const std::string file = device_file(harness, "/sdcard/v.mp4");
  check_complete(file);
  CHECK(read_be16(box(file, "moov/trak/mdia/minf/stbl/stsd/avc1").body, 24) == 1080);
  CHECK(read_be16(box(file, "moov/trak/mdia/minf/stbl/stsd/avc1").body, 26) == 2400);
}

TEST_CASE("screenrecord: options and paths as AOSP's main() answers them",
          "[vdevice][android][screenrecord]") {
  struct Case {
    std::string args;
    std::string err;
    int status;
  };
  const std::vector<Case> cases = {
      {"--time-limit 0 /sdcard/x.mp4", "Time limit 0s outside acceptable range [1,180]\n", 2},
      {"--time-limit 181 /sdcard/x.mp4", "Time limit 181s outside acceptable range [1,180]\n", 2},
      {"--time-limit -1 /sdcard/x.mp4", "Time limit -1s outside acceptable range [1,180]\n", 2},
      {"--time-limit soon /sdcard/x.mp4", "Time limit 0s outside acceptable range [1,180]\n", 2},
      {"--bit-rate 50000 /sdcard/x.mp4",
       "Bit rate 50000bps outside acceptable range [100000,200000000]\n", 2},
      {"--bit-rate 4X /sdcard/x.mp4", "Unrecognized value: 4X\n", 2},
      {"--size 360 /sdcard/x.mp4", "Invalid size '360', must be width x height\n", 2},
      {"--size 360x /sdcard/x.mp4", "Invalid size '360x', must be width x height\n", 2},
      {"--size 0x640 /sdcard/x.mp4", "Invalid size 0x640, width and height may not be zero\n", 2},
      {"", "Must specify output file (see --help).\n", 2},
      {"/sdcard/x.mp4 /sdcard/y.mp4", "Must specify output file (see --help).\n", 2},
      {"--frobnicate /sdcard/x.mp4", "screenrecord: unknown option -- frobnicate\n", 2},
      {"-x /sdcard/x.mp4", "screenrecord: unknown option -- x\n", 2},
      {"/sdcard/x.mp4 --time-limit", "screenrecord: option requires an argument -- time-limit\n",
       2},
      {"--verbose=yes /sdcard/x.mp4", "screenrecord: option doesn't take an argument -- verbose\n",
       2},
      {"--bugreport /sdcard/x.mp4",
       "screenrecord: --bugreport is not supported by the virtual device\n", 2},
      {"/system/x.mp4", "Unable to open '/system/x.mp4': Read-only file system\n", 1},
      {"x.mp4", "Unable to open 'x.mp4': Permission denied\n", 1},
      {"/sdcard/no/such/dir/x.mp4",
       "Unable to open '/sdcard/no/such/dir/x.mp4': No such file or directory\n", 1},
      {"/sdcard", "Unable to open '/sdcard': Is a directory\n", 1},
  };
  Harness harness;
  for (const Case& c : cases) {
    INFO("screenrecord " << c.args);
    const ShellResult result = harness.shell("screenrecord " + c.args);
    CHECK(result.err == c.err);
    CHECK(result.status == c.status);
    CHECK(result.out.empty());
  }
  // None of them left a file behind.
  CHECK(harness.shell("cat /sdcard/x.mp4").status == 1);

  const ShellResult help = harness.shell("screenrecord --help");
  CHECK(help.status == 0);
  CHECK(help.err.rfind("Usage: screenrecord [options] <filename>\n\nAndroid screenrecord v1.3.",
                       0) == 0);
  CHECK(help.err.find("Default / maximum is 180.") != std::string::npos);

  // An encoder takes even sizes only: the configure error, and AOSP's status_t as the status.
  const ShellResult odd = harness.shell("screenrecord --size 361x640 /sdcard/odd.mp4");
  CHECK(odd.err == "ERROR: unable to configure video/avc codec at 361x640 (err=-22)\n");
  CHECK(odd.status == 234);
  // main() created the file before the encoder failed: it stays, empty.
  CHECK(harness.shell("cat /sdcard/odd.mp4").status == 0);
  CHECK(device_file(harness, "/sdcard/odd.mp4").empty());

  // getopt_long: options after the file name, unambiguous prefixes, "=".
  const ShellResult late = harness.shell("screenrecord /sdcard/late.mp4 --time=1 --si 200x200");
  CHECK(late.err.empty());
  CHECK(late.status == 0);
  CHECK(media_duration(device_file(harness, "/sdcard/late.mp4")) == 90000);
  CHECK(harness.shell("screenrecord --s 200x200 /sdcard/x.mp4").err ==
        "screenrecord: ambiguous option -- s\n");
}

TEST_CASE("screenrecord: kill -INT from another shell finishes the file at once",
          "[vdevice][android][screenrecord]") {
  Harness harness;
  Stream recording = harness.open("echo $$; exec screenrecord --size 360x640 /sdcard/k.mp4");
  harness.advance(milliseconds(950));
  const std::string pid = first_line(recording.output->out);
  REQUIRE_FALSE(pid.empty());
  CHECK(harness.shell("kill -0 " + pid).status == 0);  // it exists
  CHECK_FALSE(recording.ended());
  // The file grows while recording: ftyp and the frames so far, no moov yet.
  check_truncated(device_file(harness, "/sdcard/k.mp4"));

  SECTION("kill -INT") {
    const ShellResult killed = harness.shell("kill -INT " + pid);
    CHECK(killed.status == 0);
    CHECK(killed.err.empty());
  }
  SECTION("kill -2") {
    CHECK(harness.shell("kill -2 " + pid).status == 0);
  }
  SECTION("kill -s INT") {
    CHECK(harness.shell("kill -s INT " + pid).status == 0);
  }
  SECTION("toybox: /system/bin/kill -s SIGINT") {
    CHECK(harness.shell("/system/bin/kill -s SIGINT " + pid).status == 0);
  }
  harness.finish(recording, milliseconds(100));
  REQUIRE(recording.ended());
  CHECK(*recording.output->exit_code == 0);
  const std::string file = device_file(harness, "/sdcard/k.mp4");
  check_complete(file);
  // Frames at 0, 100, …, 900 ms; the last lasts until the signal at 950 ms.
  CHECK(sample_count(file) == 10);
  CHECK(media_duration(file) == 95 * 900);
  // Gone: both kills say so as theirs do.
  const ShellResult again = harness.shell("kill -INT " + pid);
  CHECK(again.err == "/system/bin/sh: kill: " + pid + ": No such process\n");
  CHECK(again.status == 1);
  const ShellResult toybox = harness.shell("/system/bin/kill -INT " + pid);
  CHECK(toybox.err == "kill: unknown pid '" + pid + "'\n");
  CHECK(toybox.status == 1);
}

TEST_CASE("screenrecord: a signal it does not catch kills it, the file left without moov",
          "[vdevice][android][screenrecord]") {
  Harness harness;
  Stream recording = harness.open("echo $$; exec screenrecord --size 360x640 /sdcard/t.mp4");
  harness.advance(milliseconds(300));
  const std::string pid = first_line(recording.output->out);
  int signal = 0;
  SECTION("kill (TERM)") {
    CHECK(harness.shell("kill " + pid).status == 0);
    signal = 15;
  }
  SECTION("kill -9") {
    CHECK(harness.shell("kill -9 " + pid).status == 0);
    signal = 9;
  }
  harness.finish(recording, milliseconds(100));
  REQUIRE(recording.ended());
  CHECK(*recording.output->exit_code == 128 + signal);
  check_truncated(device_file(harness, "/sdcard/t.mp4"));
}

TEST_CASE("screenrecord: the adb stream closing (SIGHUP) finishes the file",
          "[vdevice][android][screenrecord]") {
  Harness harness;
  Stream recording = harness.open("screenrecord --size 360x640 /sdcard/h.mp4");
  harness.advance(milliseconds(420));
  recording.session->on_host_close();
  harness.advance(milliseconds(500));
  const std::string file = device_file(harness, "/sdcard/h.mp4");
  check_complete(file);
  CHECK(sample_count(file) == 5);
  CHECK(media_duration(file) == 42 * 900);
  CHECK_FALSE(recording.output->misuse);
}

TEST_CASE("screenrecord: Ctrl-C in an interactive shell finishes it, the prompt returns",
          "[vdevice][android][screenrecord]") {
  Harness harness;
  Stream shell = harness.open("");
  shell.session->on_input("screenrecord --size 360x640 /sdcard/i.mp4\r");
  harness.advance(milliseconds(320));
  shell.session->on_input("\x03");
  harness.advance(milliseconds(10));
  INFO(shell.output->out);
  CHECK(shell.output->out.ends_with("^C\r\nvpixel:/ $ "));
  shell.session->on_input("echo $?\r");
  CHECK(shell.output->out.ends_with("echo $?\r\n0\r\nvpixel:/ $ "));
  const std::string file = device_file(harness, "/sdcard/i.mp4");
  check_complete(file);
  CHECK(media_duration(file) == 32 * 900);
}

TEST_CASE("screenrecord: a changed screen is coded within the bit rate's budget",
          "[vdevice][android][screenrecord]") {
  Harness harness;
  // The screen goes black at 450 ms: every macroblock changes, so the frame at 500 ms is an IDR.
  SECTION("the default bit rate pays for it at once") {
    Stream recording = harness.open("screenrecord --time-limit 1 --size 360x640 /sdcard/c.mp4");
    harness.advance(milliseconds(450));
    harness.shell("input keyevent KEYCODE_SLEEP");
    harness.finish(recording);
    const std::string file = device_file(harness, "/sdcard/c.mp4");
    check_complete(file);
    CHECK(sync_samples(file) == std::vector<std::uint32_t>{1, 6});
  }
  SECTION("0.1 Mbps: the change waits until the budget has refilled") {
    Stream recording =
        harness.open("screenrecord --time-limit 1 --bit-rate 100000 --size 360x640 /sdcard/c.mp4");
    harness.advance(milliseconds(450));
    harness.shell("input keyevent KEYCODE_SLEEP");
    harness.finish(recording);
    const std::string file = device_file(harness, "/sdcard/c.mp4");
    check_complete(file);
    CHECK(sync_samples(file) == std::vector<std::uint32_t>{1});
    for (const std::uint32_t size : sample_sizes(file)) CHECK((size < 16 || size > 300000));
  }
}

TEST_CASE("screenrecord faults: the encoder fails to start, the recorder is killed",
          "[vdevice][android][screenrecord]") {
  SECTION("screenrecordFails: AOSP's configure error and its retry at 720p") {
    Scenario scenario = quiet_scenario();
    scenario.faults.screenrecord_fails = true;
    Harness harness(scenario);
    const ShellResult result = harness.shell("screenrecord /sdcard/f.mp4");
    CHECK(result.err ==
          "ERROR: unable to configure video/avc codec at 1080x2400 (err=-38)\n"
          "WARNING: failed at 1080x2400, retrying at 720x1280\n"
          "ERROR: unable to configure video/avc codec at 720x1280 (err=-38)\n");
    CHECK(result.status == 218);
    CHECK(device_file(harness, "/sdcard/f.mp4").empty());
    const ShellResult sized = harness.shell("screenrecord --size 360x640 /sdcard/f.mp4");
    CHECK(sized.err == "ERROR: unable to configure video/avc codec at 360x640 (err=-38)\n");
    CHECK(sized.status == 218);
  }
  SECTION("screenrecordKilledAfterMs: SIGKILL, mdat without moov") {
    Scenario scenario = quiet_scenario();
    scenario.faults.screenrecord_killed_after_ms = 700;
    Harness harness(scenario);
    const Clock::time_point started = harness.now;
    const ShellResult result = harness.shell("screenrecord --size 360x640 /sdcard/f.mp4");
    CHECK(result.status == 137);
    CHECK(result.err.empty());
    CHECK(harness.now - started <= milliseconds(710));
    const std::string file = device_file(harness, "/sdcard/f.mp4");
    check_truncated(file);
    // Seven frames (0 to 600 ms), each a length-prefixed slice, to the end of the file.
    std::size_t at = 40;
    int frames = 0;
    while (at < file.size()) {
      at += 4 + read_be32(file, at);
      ++frames;
    }
    CHECK(at == file.size());
    CHECK(frames == 7);
  }
  SECTION("the scenario file's keys") {
    auto scenario = load_scenario(
        R"({"faults": {"screenrecordFails": true, "screenrecordKilledAfterMs": 1500}})");
    REQUIRE(scenario);
    CHECK(scenario->faults.screenrecord_fails);
    CHECK(scenario->faults.screenrecord_killed_after_ms == 1500);
    const auto negative = load_scenario(R"({"faults": {"screenrecordKilledAfterMs": -1}})");
    CHECK_FALSE(negative);
  }
}

TEST_CASE("screenrecord: ffprobe and ffmpeg read the written files",
          "[vdevice][android][screenrecord][ffprobe][may-skip]") {
  const auto ffprobe = program_on_path("ffprobe");
  if (!ffprobe) SKIP_TEST("ffprobe is not installed");
  using nlohmann::json;
  SECTION("the writers' own file: sizes off the macroblock grid, IDR, skips, a partial change") {
    // 200x120: 13 x 8 macroblocks, cropped by 8 columns and 8 rows.
    constexpr int kWidth = 200;
    constexpr int kHeight = 120;
    const h264::YuvPicture first = pattern_picture(kWidth, kHeight, 1, 0);
    const h264::YuvPicture corner = pattern_picture(kWidth, kHeight, 1, 40);
    const h264::YuvPicture second = pattern_picture(kWidth, kHeight, 2, kWidth);
    std::vector<bool> changed(static_cast<std::size_t>(corner.macroblock_count()));
    for (int i = 0; i < corner.macroblock_count(); ++i) {
      changed[static_cast<std::size_t>(i)] = !corner.same_macroblock(first, i);
    }
    CHECK(std::count(changed.begin(), changed.end(), true) == 9);  // 3 x 3 macroblocks
    const std::vector<bool> none(changed.size(), false);
    // What each sample shows, and the NAL unit that codes it.
    const std::vector<std::pair<const h264::YuvPicture*, std::string>> frames = {
        {&first, h264::idr_picture(first, 0)},          {&first, h264::p_picture(first, none, 1)},
        {&corner, h264::p_picture(corner, changed, 2)}, {&corner, h264::p_picture(corner, none, 3)},
        {&second, h264::idr_picture(second, 1)},        {&second, h264::p_picture(second, none, 1)},
    };
    mp4::VideoTrack track;
    track.width = kWidth;
    track.height = kHeight;
    track.sequence_parameter_set = h264::sequence_parameter_set(kWidth, kHeight);
    track.picture_parameter_set = h264::picture_parameter_set();
    std::string mdat;
    std::string expected_pixels;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      const std::string sample = mp4::length_prefixed(frames[i].second);
      mdat += sample;
      track.samples.add(static_cast<std::uint32_t>(sample.size()),
                        i + 1 < frames.size() ? 9000 : 3330, i == 0 || i == 4);
      expected_pixels += visible_planes(*frames[i].first);
    }
    const std::string head = mp4::file_type_box() + mp4::media_data_box_header(mdat.size());
    track.first_sample_offset = head.size();
    const TemporaryFile file(head + mdat + mp4::movie_box(track));

    int status = 0;
    const std::string probed = ffprobe_json(*ffprobe, file.path(), status);
    INFO(probed);
    REQUIRE(status == 0);
    const json document = json::parse(probed);
    const json& stream = document.at("streams").at(0);
    CHECK(stream.at("codec_name") == "h264");
    CHECK(stream.at("width") == kWidth);
    CHECK(stream.at("height") == kHeight);
    CHECK(stream.at("nb_frames") == "6");
    CHECK(stream.at("nb_read_frames") == "6");
    CHECK(std::stod(stream.at("duration").get<std::string>()) == Approx(0.537).margin(0.001));
    CHECK(std::stod(document.at("format").at("duration").get<std::string>()) ==
          Approx(0.537).margin(0.001));

    // Lossless: ffmpeg decodes exactly the samples that were coded, skipped ones included.
    if (const auto ffmpeg = program_on_path("ffmpeg")) {
      int decode_status = 0;
      const std::string decoded =
          command_output("'" + *ffmpeg + "' -v error -i '" + file.path() +
                             "' -vsync 0 -f rawvideo -pix_fmt yuv420p - 2>/dev/null",
                         decode_status);
      CHECK(decode_status == 0);
      REQUIRE(decoded.size() == expected_pixels.size());
      CHECK(decoded == expected_pixels);
    } else {
      clawperator::testing::note_skip("ffmpeg is not installed: the decoded samples not checked");
    }
  }
  SECTION("the device's recording, stopped by SIGINT") {
    Harness harness;
    Stream recording = harness.open("echo $$; exec screenrecord --size 360x640 /sdcard/p.mp4");
    harness.advance(milliseconds(1234));
    CHECK(harness.shell("kill -INT " + first_line(recording.output->out)).status == 0);
    harness.finish(recording, milliseconds(100));
    const TemporaryFile file(device_file(harness, "/sdcard/p.mp4"));
    int status = 0;
    const std::string probed = ffprobe_json(*ffprobe, file.path(), status);
    INFO(probed);
    REQUIRE(status == 0);
    const json stream = json::parse(probed).at("streams").at(0);
    CHECK(stream.at("codec_name") == "h264");
    CHECK(stream.at("width") == 360);
    CHECK(stream.at("height") == 640);
    CHECK(stream.at("nb_frames") == "13");
    CHECK(stream.at("nb_read_frames") == "13");
    CHECK(std::stod(stream.at("duration").get<std::string>()) == Approx(1.234).margin(0.001));
  }
  SECTION("a killed recorder's file: no moov, which ffprobe refuses") {
    Scenario scenario = quiet_scenario();
    scenario.faults.screenrecord_killed_after_ms = 500;
    Harness harness(scenario);
    CHECK(harness.shell("screenrecord --size 360x640 /sdcard/f.mp4").status == 137);
    const TemporaryFile file(device_file(harness, "/sdcard/f.mp4"));
    int status = 0;
    const std::string probed = ffprobe_json(*ffprobe, file.path(), status);
    CHECK(status != 0);
    CHECK(probed.find("moov atom not found") != std::string::npos);
  }
}
