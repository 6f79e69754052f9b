// screenrecord: records the screen to an H.264 MP4 in the device's files, as AOSP's
// frameworks/av/cmds/screenrecord does for a host tool: its options, messages and exit
// statuses (main() returns a status_t; the shell sees its low byte), a file that grows while
// recording, and a complete MP4 (moov written) once it ends at the time limit, on SIGINT or on
// SIGHUP (the adb stream closing).
//
// Frames come at a fixed 10 per second, not only when the screen changes: the frame count is
// then the duration times ten, players and frame extraction by time behave, and an unchanged
// frame is a P picture of skipped macroblocks, a few bytes. The last sample lasts until the
// recording ended, so the file's duration is the recorded time.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "vdevice/android/formats/h264_writer.hpp"
#include "vdevice/android/formats/mp4_writer.hpp"
#include "vdevice/android/shell/shell_command.hpp"
#include "vdevice/android/ui/screenshot.hpp"

namespace clawperator::vdevice::android {
namespace {

using std::chrono::milliseconds;

constexpr int kMaxTimeLimitSeconds = 180;
constexpr std::uint32_t kMinBitRate = 100000;
constexpr std::uint32_t kMaxBitRate = 200000000;
constexpr std::uint32_t kDefaultBitRate = 20000000;
constexpr int kVersionMajor = 1;
constexpr int kVersionMinor = 3;
// AOSP's fallback when the display's size cannot be encoded (portrait here).
constexpr int kFallbackWidth = 720;
constexpr int kFallbackHeight = 1280;
// The largest side the encoder takes, as a phone's AVC encoder limits it.
constexpr int kLargestSide = 4096;
constexpr milliseconds kFrameInterval{100};
constexpr std::uint32_t kTicksPerSecond = 90000;
constexpr std::uint32_t kFrameTicks = kTicksPerSecond / 1000 * kFrameInterval.count();
constexpr double kDisplayFps = 60.0;

// status_t values main() returns, and what the shell then reports (their low byte).
constexpr int kBadValue = -22;          // an encoder refusing the size
constexpr int kInvalidOperation = -38;  // an encoder that cannot be configured at all
constexpr int kNoSpace = -28;           // the muxer's write failed (ENOSPC)
constexpr int kUsageStatus = 2;
constexpr int kOpenFailedStatus = 1;
constexpr int kKilledStatus = 128 + kSignalKill;

int exit_status_of(int status_t_value) {
  return status_t_value & 0xFF;
}

std::string printf_string(const char* format, auto... values) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, values...);
  return buffer;
}

// strtol(text, &end, 10) as bionic does it: leading white space, a sign, digits; `used` is
// how many characters it took (0 when there are no digits), overflow saturates.
long long c_strtol(const std::string& text, std::size_t& used) {
  std::size_t at = 0;
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])) != 0) ++at;
  bool negative = false;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) negative = text[at++] == '-';
  const std::size_t digits_start = at;
  long long value = 0;
  constexpr long long kLongMax = 0x7FFFFFFFFFFFFFFFLL;
  for (; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])) != 0; ++at) {
    const int digit = text[at] - '0';
    value = value > (kLongMax - digit) / 10 ? kLongMax : value * 10 + digit;
  }
  used = at == digits_start ? 0 : at;
  return negative ? -value : value;
}

struct RecordOptions {
  bool size_specified = false;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t bit_rate = kDefaultBitRate;
  std::uint32_t time_limit_seconds = kMaxTimeLimitSeconds;
  bool verbose = false;
  std::string file;
};

// What parsing decided when it does not record: text for stderr and the exit status.
struct ParseExit {
  std::string message;
  int status = 0;
};

std::string usage() {
  return printf_string(
             "Usage: screenrecord [options] <filename>\n"
             "\n"
             "Android screenrecord v%d.%d.  Records the device's display to a .mp4 file.\n"
             "\n"
             "Options:\n",
             kVersionMajor, kVersionMinor) +
         "--size WIDTHxHEIGHT\n"
         "    Set the video size, e.g. \"1280x720\".  Default is the device's main\n"
         "    display resolution (if supported), 1280x720 if not.  For best results,\n"
         "    use a size supported by the AVC encoder.\n"
         "--bit-rate RATE\n"
         "    Set the video bit rate, in bits per second.  Value may be specified as\n" +
         printf_string(
             "    bits or megabits, e.g. '4000000' is equivalent to '4M'.  Default %dMbps.\n",
             static_cast<int>(kDefaultBitRate / 1000000)) +
         "--time-limit TIME\n" +
         printf_string(
             "    Set the maximum recording time, in seconds.  Default / maximum is %d.\n",
             kMaxTimeLimitSeconds) +
         "--verbose\n"
         "    Display interesting information on stdout.\n"
         "--help\n"
         "    Show this message.\n"
         "\n"
         "Recording continues until Ctrl-C is hit or the time limit is reached.\n"
         "\n";
}

struct LongOption {
  std::string_view name;
  bool takes_value;
  bool supported;
};

// AOSP's options; the unsupported ones are refused by name rather than taken as unknown.
constexpr LongOption kLongOptions[] = {
    {"help", false, true},
    {"verbose", false, true},
    {"size", true, true},
    {"bit-rate", true, true},
    {"time-limit", true, true},
    {"bugreport", false, false},
    {"show-device-info", false, false},
    {"show-frame-time", false, false},
    {"rotate", false, false},
    {"output-format", true, true},
    {"codec-name", true, false},
    {"monotonic-time", false, false},
    {"persistent-surface", false, false},
    {"display-id", true, false},
};

// getopt_long as bionic's (OpenBSD's) finds a long option: the exact name, else the one
// option the text begins.
const LongOption* find_long_option(std::string_view name, bool& ambiguous) {
  const LongOption* found = nullptr;
  ambiguous = false;
  for (const LongOption& option : kLongOptions) {
    if (option.name == name) return &option;
    if (option.name.starts_with(name)) {
      if (found != nullptr) ambiguous = true;
      found = &option;
    }
  }
  return ambiguous ? nullptr : found;
}

// One option and its value: what screenrecord's main() does with it.
std::optional<ParseExit> apply_option(const LongOption& option, const std::string& value,
                                      RecordOptions& options) {
  const std::string_view name = option.name;
  if (name == "help") return ParseExit{usage(), 0};
  if (name == "verbose") {
    options.verbose = true;
  } else if (name == "size") {
    // parseWidthHeight: strtol, an 'x', strtol, nothing after.
    std::size_t used = 0;
    const long long width = c_strtol(value, used);
    if (used == 0 || used >= value.size() || value[used] != 'x' || used + 1 == value.size()) {
      return ParseExit{"Invalid size '" + value + "', must be width x height\n", kUsageStatus};
    }
    const std::string rest = value.substr(used + 1);
    std::size_t height_used = 0;
    const long long height = c_strtol(rest, height_used);
    if (height_used != rest.size()) {
      return ParseExit{"Invalid size '" + value + "', must be width x height\n", kUsageStatus};
    }
    options.width = static_cast<std::uint32_t>(width);
    options.height = static_cast<std::uint32_t>(height);
    if (options.width == 0 || options.height == 0) {
      return ParseExit{printf_string("Invalid size %ux%u, width and height may not be zero\n",
                                     options.width, options.height),
                       kUsageStatus};
    }
    options.size_specified = true;
  } else if (name == "bit-rate") {
    // parseValueWithUnit: a bare number, or one with an M.
    std::size_t used = 0;
    long long rate = c_strtol(value, used);
    const std::string unit = value.substr(used);
    if (unit == "M" || unit == "m") {
      rate *= 1000000;
    } else if (!unit.empty()) {
      return ParseExit{"Unrecognized value: " + value + "\n", kUsageStatus};
    }
    options.bit_rate = static_cast<std::uint32_t>(rate);
    if (options.bit_rate < kMinBitRate || options.bit_rate > kMaxBitRate) {
      return ParseExit{printf_string("Bit rate %dbps outside acceptable range [%d,%d]\n",
                                     static_cast<int>(options.bit_rate),
                                     static_cast<int>(kMinBitRate), static_cast<int>(kMaxBitRate)),
                       kUsageStatus};
    }
  } else if (name == "time-limit") {
    // atoi, then unsigned: "-1" is over the maximum, and printed as -1.
    std::size_t used = 0;
    options.time_limit_seconds =
        static_cast<std::uint32_t>(static_cast<int>(c_strtol(value, used)));
    if (options.time_limit_seconds == 0 || options.time_limit_seconds > kMaxTimeLimitSeconds) {
      return ParseExit{
          printf_string("Time limit %ds outside acceptable range [1,%d]\n",
                        static_cast<int>(options.time_limit_seconds), kMaxTimeLimitSeconds),
          kUsageStatus};
    }
  } else if (name == "output-format") {
    if (value != "mp4") {
      return ParseExit{"screenrecord: --output-format " + value +
                           " is not supported by the virtual device (mp4 only)\n",
                       kUsageStatus};
    }
  }
  return std::nullopt;
}

// getopt_long with no short options, permuting (options may follow the file name), then
// exactly one file name.
std::variant<RecordOptions, ParseExit> parse_options(const std::vector<std::string>& argv) {
  RecordOptions options;
  std::vector<std::string> operands;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg == "--") {
      operands.insert(operands.end(), argv.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                      argv.end());
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      operands.push_back(arg);
      continue;
    }
    if (arg[1] != '-') {
      return ParseExit{"screenrecord: unknown option -- " + std::string(1, arg[1]) + "\n",
                       kUsageStatus};
    }
    const std::size_t equals = arg.find('=');
    const std::string name =
        arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    bool ambiguous = false;
    const LongOption* option = find_long_option(name, ambiguous);
    if (option == nullptr) {
      return ParseExit{"screenrecord: " + std::string(ambiguous ? "ambiguous" : "unknown") +
                           " option -- " + name + "\n",
                       kUsageStatus};
    }
    std::string value;
    if (equals != std::string::npos) {
      if (!option->takes_value) {
        return ParseExit{"screenrecord: option doesn't take an argument -- " + name + "\n",
                         kUsageStatus};
      }
      value = arg.substr(equals + 1);
    } else if (option->takes_value) {
      if (i + 1 >= argv.size()) {
        return ParseExit{"screenrecord: option requires an argument -- " + name + "\n",
                         kUsageStatus};
      }
      value = argv[++i];
    }
    if (!option->supported) {
      return ParseExit{"screenrecord: --" + std::string(option->name) +
                           " is not supported by the virtual device\n",
                       kUsageStatus};
    }
    if (auto exit = apply_option(*option, value, options)) return *exit;
  }
  if (operands.size() != 1) {
    return ParseExit{"Must specify output file (see --help).\n", kUsageStatus};
  }
  options.file = operands.front();
  return options;
}

std::string parent_directory(const std::string& normalized) {
  const std::size_t slash = normalized.rfind('/');
  return slash == 0 ? "/" : normalized.substr(0, slash);
}

// open(file, O_CREAT | O_RDWR, 0644), as main() tries before recording "for better
// diagnostics": an existing file is kept as it is. 0 or an errno.
int create_output(FileSystem& files, const std::string& file, std::int64_t mtime) {
  const std::string path = FileSystem::normalize(file);
  if (const auto existing = files.stat(path)) return existing->directory ? EISDIR : 0;
  const auto parent = files.stat(parent_directory(path));
  if (!parent) return parent.error();
  if (!parent->directory) return ENOTDIR;
  return files.write(path, {}, 0644, mtime);
}

// Where the display goes in the video: scaled to fit, its aspect ratio kept, centred (AOSP's
// setDisplayProjection, in its float arithmetic).
struct ContentArea {
  int width = 0;
  int height = 0;
  int left = 0;
  int top = 0;
};

ContentArea content_area(const DisplaySpec& display, int video_width, int video_height) {
  const float display_aspect =
      static_cast<float>(display.height) / static_cast<float>(display.width);
  ContentArea area;
  if (static_cast<std::uint32_t>(video_height) >
      static_cast<std::uint32_t>(static_cast<float>(video_width) * display_aspect)) {
    area.width = video_width;
    area.height = static_cast<int>(static_cast<float>(video_width) * display_aspect);
  } else {
    area.height = video_height;
    area.width = static_cast<int>(static_cast<float>(video_height) / display_aspect);
  }
  area.left = (video_width - area.width) / 2;
  area.top = (video_height - area.height) / 2;
  return area;
}

// The screen in the video's frame: nearest neighbour inside the content area, black around.
std::vector<Rgb> project(const IndexedImage& screen, int video_width, int video_height,
                         const ContentArea& area) {
  std::vector<Rgb> pixels(static_cast<std::size_t>(video_width) * video_height, Rgb{0, 0, 0});
  if (area.width <= 0 || area.height <= 0) return pixels;
  std::vector<int> source_columns(static_cast<std::size_t>(area.width));
  for (int x = 0; x < area.width; ++x) {
    source_columns[static_cast<std::size_t>(x)] = static_cast<int>(
        (static_cast<std::int64_t>(2 * x + 1) * screen.width()) / (2 * area.width));
  }
  const auto& palette = screen.palette();
  const auto& indices = screen.pixels();
  for (int y = 0; y < area.height; ++y) {
    const int source_row = static_cast<int>(
        (static_cast<std::int64_t>(2 * y + 1) * screen.height()) / (2 * area.height));
    const std::size_t source_at = static_cast<std::size_t>(source_row) * screen.width();
    Rgb* row = pixels.data() + static_cast<std::size_t>(area.top + y) * video_width + area.left;
    for (int x = 0; x < area.width; ++x) {
      row[x] = palette[indices[source_at + static_cast<std::size_t>(source_columns[x])]];
    }
  }
  return pixels;
}

std::uint32_t ticks_between(SteadyTime from, SteadyTime to) {
  const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count();
  const long long ticks =
      (std::max<long long>(nanoseconds, 0) * kTicksPerSecond + 500000000) / 1000000000;
  return static_cast<std::uint32_t>(std::max<long long>(ticks, 1));
}

class ScreenRecording : public RunningCommand,
                        public std::enable_shared_from_this<ScreenRecording> {
 public:
  ScreenRecording(CommandContext& context, RecordOptions options, int width, int height)
      : system_(context.system),
        output_(context.output),
        finish_(context.finish),
        options_(std::move(options)),
        width_(width),
        height_(height),
        area_(content_area(context.system.scenario().display, width, height)),
        full_picture_bytes_(
            static_cast<double>(h264::YuvPicture(width, height).macroblock_count()) *
            h264::kPcmMacroblockBytes),
        bytes_per_frame_(static_cast<double>(options_.bit_rate) / 8.0 *
                         std::chrono::duration<double>(kFrameInterval).count()),
        budget_capacity_(
            std::max(full_picture_bytes_, static_cast<double>(options_.bit_rate) / 8.0)),
        budget_(budget_capacity_) {
    track_.width = width;
    track_.height = height;
    track_.timescale = kTicksPerSecond;
    track_.sequence_parameter_set = h264::sequence_parameter_set(width, height);
    track_.picture_parameter_set = h264::picture_parameter_set();
    track_.creation_time =
        static_cast<std::uint64_t>(system_.epoch_ms() / 1000) + mp4::kSecondsFrom1904To1970;
  }

  // Creates the file (AOSP unlinks and recreates it) and records the first frame. False when
  // the file could not be written; the message is out.
  bool begin() {
    started_ = system_.now();
    deadline_ = started_ + std::chrono::seconds(options_.time_limit_seconds);
    const std::string head = mp4::file_type_box() + mp4::media_data_box_header(0);
    track_.first_sample_offset = head.size();
    if (const int error = system_.files().write(options_.file, head, 0600, mtime())) {
      output_.err(
          printf_string("Unable to open '%s': %s\n", options_.file.c_str(), std::strerror(error)));
      return false;
    }
    capture_frame();
    if (const int kill_after = system_.scenario().faults.screenrecord_killed_after_ms;
        kill_after > 0) {
      std::weak_ptr<ScreenRecording> weak = weak_from_this();
      system_.events().after(milliseconds(kill_after), [weak] {
        if (auto recording = weak.lock()) recording->killed();
      });
    }
    schedule_next();
    return true;
  }

  // SIGHUP: the stream closed (or the device goes away). The file is finished; nobody reads
  // the messages, and the shell no longer waits for a status.
  void stop() override {
    if (state_ == State::Recording) end(system_.now(), End::Quietly);
  }

  bool on_signal(int signal) override {
    if (state_ != State::Recording) return true;  // already on its way out
    if (signal == kSignalInterrupt || signal == kSignalHangUp) {
      end(system_.now(), End::Stopped);
      finish_(status_);
      return true;
    }
    // Not caught: the process dies where it is, its file without `moov`.
    state_ = State::Killed;
    return false;
  }

 private:
  enum class State { Recording, Finished, Killed };
  enum class End { TimeLimit, Stopped, Quietly };

  std::int64_t mtime() const { return system_.epoch_ms() / 1000; }

  void schedule_next() {
    const SteadyTime next = started_ + kFrameInterval * static_cast<long>(frames_);
    std::weak_ptr<ScreenRecording> weak = weak_from_this();
    if (next >= deadline_) {
      system_.events().at(deadline_, [weak] {
        auto recording = weak.lock();
        if (!recording || recording->state_ != State::Recording) return;
        recording->end(recording->deadline_, End::TimeLimit);
        recording->finish_(recording->status_);
      });
      return;
    }
    system_.events().at(next, [weak] {
      auto recording = weak.lock();
      if (!recording || recording->state_ != State::Recording) return;
      recording->capture_frame();
      recording->schedule_next();
    });
  }

  // The frame due now: the screen as it is, coded against what the decoder shows.
  void capture_frame() {
    budget_ = std::min(budget_capacity_, budget_ + bytes_per_frame_);
    auto tree = system_.ui().tree(system_.now());
    IndexedImage screen = render_screen(*tree, system_.scenario().display, system_.screen_on());
    std::string nal;
    bool sync = false;
    const bool screen_changed = !last_screen_ || last_screen_->pixels() != screen.pixels();
    if (screen_changed || !reference_current_) {
      const std::vector<Rgb> pixels = project(screen, width_, height_, area_);
      h264::YuvPicture picture = h264::YuvPicture::from_rgb(width_, height_, pixels);
      nal = code_picture(picture, sync);
      last_screen_ = std::move(screen);
    }
    if (nal.empty()) nal = h264::p_picture(*reference_, skip_all(), next_frame_num());
    append_sample(nal, sync);
  }

  std::vector<bool> skip_all() const {
    return std::vector<bool>(static_cast<std::size_t>(reference_->macroblock_count()), false);
  }

  std::uint32_t next_frame_num() { return frame_num_++ % h264::kMaxFrameNum; }

  // An IDR when most macroblocks changed (also a seek point), else a P picture with the
  // changed ones; nothing (the caller skips) while the bit rate's budget cannot pay for it,
  // so that I_PCM pictures of a busy screen keep to the bit rate on average.
  std::string code_picture(h264::YuvPicture& picture, bool& sync) {
    std::vector<bool> changed(static_cast<std::size_t>(picture.macroblock_count()), true);
    int changed_count = picture.macroblock_count();
    if (reference_) {
      changed_count = 0;
      for (int index = 0; index < picture.macroblock_count(); ++index) {
        const bool differs = !picture.same_macroblock(*reference_, index);
        changed[static_cast<std::size_t>(index)] = differs;
        changed_count += differs ? 1 : 0;
      }
    }
    const bool idr = !reference_ || changed_count * 2 >= picture.macroblock_count();
    const double cost = static_cast<double>(idr ? picture.macroblock_count() : changed_count) *
                        h264::kPcmMacroblockBytes;
    reference_current_ = false;
    if (changed_count == 0) {
      reference_current_ = true;
      return {};
    }
    if (reference_ && cost > budget_) return {};
    budget_ -= cost;
    std::string nal;
    if (idr) {
      frame_num_ = 0;
      nal = h264::idr_picture(picture, idr_pic_id_++ % h264::kMaxFrameNum);
      next_frame_num();
      sync = true;
    } else {
      nal = h264::p_picture(picture, changed, next_frame_num());
    }
    reference_ = std::move(picture);
    reference_current_ = true;
    return nal;
  }

  // The previous sample lasts one frame interval; this one's duration is known later.
  void append_sample(const std::string& nal, bool sync) {
    if (pending_sample_)
      track_.samples.add(pending_sample_->size, kFrameTicks, pending_sample_->sync);
    const std::string sample = mp4::length_prefixed(nal);
    pending_sample_ = PendingSample{static_cast<std::uint32_t>(sample.size()), sync};
    last_frame_at_ = started_ + kFrameInterval * static_cast<long>(frames_);
    ++frames_;
    payload_bytes_ += sample.size();
    if (written(system_.files().append(options_.file, sample, mtime()))) return;
    // The muxer's write failed (a full disk): runEncoder gives up, the file keeps no `moov`.
    state_ = State::Finished;
    output_.err(printf_string("Failed writing data to muxer (err=%d)\n", kNoSpace));
    output_.err(printf_string("Encoder failed (err=%d)\n", kNoSpace));
    finish_(exit_status_of(kNoSpace));
  }

  // A write's outcome. A file removed while recording is an unlinked inode on a phone: the
  // writes go nowhere and the recording goes on.
  static bool written(int error) { return error == 0 || error == ENOENT; }

  // Finishes the file: the last sample's duration, the `mdat` size, `moov`.
  void end(SteadyTime at, End how) {
    state_ = State::Finished;
    if (pending_sample_) {
      track_.samples.add(pending_sample_->size, ticks_between(last_frame_at_, at),
                         pending_sample_->sync);
      pending_sample_.reset();
    }
    const bool verbose = options_.verbose && how != End::Quietly;
    if (verbose && how == End::TimeLimit) output_.out("Time limit reached\n");
    if (verbose) {
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(at - started_).count();
      output_.out(printf_string("Encoder stopping; recorded %u frames in %" PRId64 " seconds\n",
                                static_cast<unsigned>(frames_),
                                static_cast<std::int64_t>(seconds)));
      output_.out("Stopping encoder and muxer\n");
    }
    FileSystem& files = system_.files();
    const std::string header = mp4::media_data_box_header(payload_bytes_);
    // The muxer's stop() failing (no room for `moov`) is main()'s status; it prints nothing.
    if (!written(files.overwrite(options_.file, track_.first_sample_offset - header.size(), header,
                                 mtime())) ||
        !written(files.append(options_.file, mp4::movie_box(track_), mtime()))) {
      status_ = exit_status_of(kNoSpace);
      return;
    }
    if (verbose) {
      // notifyMediaScanner: `am broadcast`, whose output verbose mode lets through.
      const std::string url = "file://" + options_.file;
      output_.out(
          "Executing: /system/bin/am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE "
          "-d " +
          url + "\nBroadcasting: Intent { act=android.intent.action.MEDIA_SCANNER_SCAN_FILE dat=" +
          url + " flg=0x400000 }\nBroadcast completed: result=0\n");
    }
  }

  // The scenario's fault: SIGKILL now. No message, no `moov`.
  void killed() {
    if (state_ != State::Recording) return;
    state_ = State::Killed;
    finish_(kKilledStatus);
  }

  struct PendingSample {
    std::uint32_t size = 0;
    bool sync = false;
  };

  AndroidSystem& system_;
  CommandOutput& output_;
  std::function<void(int)> finish_;
  RecordOptions options_;
  int width_;
  int height_;
  ContentArea area_;
  double full_picture_bytes_;
  double bytes_per_frame_;
  double budget_capacity_;
  double budget_;
  mp4::VideoTrack track_;
  State state_ = State::Recording;
  int status_ = 0;
  SteadyTime started_{};
  SteadyTime deadline_{};
  SteadyTime last_frame_at_{};
  std::uint64_t frames_ = 0;
  std::uint64_t payload_bytes_ = 0;
  std::optional<PendingSample> pending_sample_;
  std::optional<IndexedImage> last_screen_;
  std::optional<h264::YuvPicture> reference_;
  bool reference_current_ = false;
  std::uint32_t frame_num_ = 0;
  std::uint32_t idr_pic_id_ = 0;
};

// prepareEncoder's failure, with AOSP's retry at 720p when the size was the display's.
std::string configure_failure(int width, int height, int error) {
  return printf_string("ERROR: unable to configure video/avc codec at %dx%d (err=%d)\n", width,
                       height, error);
}

}  // namespace

CommandResult run_screenrecord(CommandContext& context) {
  auto parsed = parse_options(context.argv);
  if (auto* exit = std::get_if<ParseExit>(&parsed)) {
    context.output.err(exit->message);
    return {exit->status, nullptr};
  }
  RecordOptions options = std::move(std::get<RecordOptions>(parsed));
  AndroidSystem& system = context.system;
  const std::int64_t mtime = system.epoch_ms() / 1000;
  if (const int error = create_output(system.files(), options.file, mtime)) {
    return fail(
        context,
        printf_string("Unable to open '%s': %s", options.file.c_str(), std::strerror(error)),
        kOpenFailedStatus);
  }
  const DisplaySpec& display = system.scenario().display;
  if (options.verbose) {
    context.output.out(printf_string("Main display is %dx%d @%.2ffps (orientation=%u)\n",
                                     display.width, display.height, kDisplayFps, 0U));
  }
  // The encoder cannot take odd sizes: the display's is rounded down to even.
  int width = options.size_specified ? static_cast<int>(options.width) : display.width & ~1;
  int height = options.size_specified ? static_cast<int>(options.height) : display.height & ~1;
  const auto configure = [&](int w, int h) {
    if (options.verbose) {
      context.output.out(printf_string("Configuring recorder for %dx%d %s at %.2fMbps\n", w, h,
                                       "video/avc", options.bit_rate / 1000000.0));
    }
    if (system.scenario().faults.screenrecord_fails) return kInvalidOperation;
    const bool supported =
        w > 0 && h > 0 && w <= kLargestSide && h <= kLargestSide && w % 2 == 0 && h % 2 == 0;
    return supported ? 0 : kBadValue;
  };
  int error = configure(width, height);
  if (error != 0) context.output.err(configure_failure(width, height, error));
  if (error != 0 && !options.size_specified) {
    const bool portrait = width < height;
    const int fallback_width = portrait ? kFallbackWidth : kFallbackHeight;
    const int fallback_height = portrait ? kFallbackHeight : kFallbackWidth;
    if (width != fallback_width && height != fallback_height) {
      context.output.err(printf_string("WARNING: failed at %dx%d, retrying at %dx%d\n", width,
                                       height, fallback_width, fallback_height));
      width = fallback_width;
      height = fallback_height;
      error = configure(width, height);
      if (error != 0) context.output.err(configure_failure(width, height, error));
    }
  }
  if (error != 0) return {exit_status_of(error), nullptr};
  if (options.verbose) {
    const ContentArea area = content_area(display, width, height);
    context.output.out(printf_string("Content area is %ux%u at offset x=%d y=%d\n",
                                     static_cast<unsigned>(area.width),
                                     static_cast<unsigned>(area.height), area.left, area.top));
  }
  auto recording = std::make_shared<ScreenRecording>(context, std::move(options), width, height);
  if (!recording->begin()) return {kOpenFailedStatus, nullptr};
  return {0, recording};
}

}  // namespace clawperator::vdevice::android
