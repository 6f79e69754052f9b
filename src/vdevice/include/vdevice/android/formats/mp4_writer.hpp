// A minimal MP4 (ISO/IEC 14496-12 and -15) muxer for one H.264 video track, laid out as a
// recorder writes it: `ftyp`, then `mdat` growing sample by sample, then `moov` once the
// recording ends (a recorder killed before that leaves a file without `moov`, which players
// refuse). Pure functions: no I/O. Hand-written for the reasons in h264_writer.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace clawperator::vdevice::android::mp4 {

// One `stts` entry: `count` consecutive samples of `duration` ticks each.
struct DurationRun {
  std::uint32_t count = 0;
  std::uint32_t duration = 0;
  friend bool operator==(const DurationRun&, const DurationRun&) = default;
};

// The samples of the track, in decoding order, all in one chunk (they follow each other in
// `mdat`).
class SampleTable {
 public:
  void add(std::uint32_t size, std::uint32_t duration, bool sync);

  std::size_t count() const noexcept { return sizes_.size(); }
  std::uint64_t total_duration() const noexcept { return total_duration_; }
  const std::vector<std::uint32_t>& sizes() const noexcept { return sizes_; }
  const std::vector<DurationRun>& durations() const noexcept { return durations_; }
  // 1-based sample numbers of the sync (IDR) samples.
  const std::vector<std::uint32_t>& sync_samples() const noexcept { return sync_samples_; }

 private:
  std::vector<std::uint32_t> sizes_;
  std::vector<DurationRun> durations_;
  std::vector<std::uint32_t> sync_samples_;
  std::uint64_t total_duration_ = 0;
};

struct VideoTrack {
  int width = 0;
  int height = 0;
  std::uint32_t timescale = 90000;  // ticks per second of the sample durations
  // NAL units (header byte and payload) for `avcC`.
  std::string sequence_parameter_set;
  std::string picture_parameter_set;
  SampleTable samples;
  // Where the first sample starts in the file (after the `mdat` header).
  std::uint64_t first_sample_offset = 0;
  // Seconds since 1904-01-01 UTC, as `mvhd`, `tkhd` and `mdhd` count.
  std::uint64_t creation_time = 0;
};

// The movie's timescale: `mvhd` and `tkhd` durations are in milliseconds.
inline constexpr std::uint32_t kMovieTimescale = 1000;
// Seconds from 1904-01-01 to 1970-01-01.
inline constexpr std::uint64_t kSecondsFrom1904To1970 = 2082844800;

// `ftyp`: isom brand, compatible with isom, iso2, avc1, mp41.
std::string file_type_box();
// The 8-byte header of an `mdat` holding `payload_size` bytes; size 0 (the box runs to the end
// of the file) while the recording is in progress. Throws std::length_error past 32 bits.
std::string media_data_box_header(std::uint64_t payload_size);
// `moov`: `mvhd` and one video `trak` with its sample tables.
std::string movie_box(const VideoTrack& track);
// A sample as `mdat` stores it: the NAL unit after its 4-byte big-endian length (`avcC`'s
// lengthSizeMinusOne is 3).
std::string length_prefixed(std::string_view nal_unit);

}  // namespace clawperator::vdevice::android::mp4
