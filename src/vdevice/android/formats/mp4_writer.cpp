#include "vdevice/android/formats/mp4_writer.hpp"

#include <limits>
#include <stdexcept>

namespace clawperator::vdevice::android::mp4 {
namespace {

constexpr std::uint32_t kLargest32 = std::numeric_limits<std::uint32_t>::max();

void put16(std::string& out, std::uint32_t value) {
  out += static_cast<char>((value >> 8) & 0xFF);
  out += static_cast<char>(value & 0xFF);
}

void put32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((value >> shift) & 0xFF);
}

void put_zeros(std::string& out, std::size_t count) {
  out.append(count, '\0');
}

std::uint32_t checked32(std::uint64_t value, const char* what) {
  if (value > kLargest32) throw std::length_error(std::string("mp4: ") + what + " over 32 bits");
  return static_cast<std::uint32_t>(value);
}

// A box: its 32-bit size, its type, its body.
std::string box(const char (&type)[5], const std::string& body) {
  std::string out;
  put32(out, checked32(8 + std::uint64_t{body.size()}, "box size"));
  out.append(type, 4);
  out += body;
  return out;
}

// A full box: version and flags before the body.
std::string full_box(const char (&type)[5], std::uint8_t version, std::uint32_t flags,
                     const std::string& body) {
  std::string header;
  header += static_cast<char>(version);
  header += static_cast<char>((flags >> 16) & 0xFF);
  put16(header, flags & 0xFFFF);
  return box(type, header + body);
}

// The identity transformation (16.16 and 2.30 fixed point).
void put_unity_matrix(std::string& out) {
  for (const std::uint32_t value :
       {0x00010000U, 0U, 0U, 0U, 0x00010000U, 0U, 0U, 0U, 0x40000000U}) {
    put32(out, value);
  }
}

std::uint32_t movie_duration(const VideoTrack& track) {
  const std::uint64_t ticks = track.samples.total_duration();
  return checked32((ticks * kMovieTimescale + track.timescale / 2) / track.timescale,
                   "movie duration");
}

std::string movie_header(const VideoTrack& track) {
  std::string body;
  const std::uint32_t created = checked32(track.creation_time, "creation time");
  put32(body, created);  // creation_time
  put32(body, created);  // modification_time
  put32(body, kMovieTimescale);
  put32(body, movie_duration(track));
  put32(body, 0x00010000);  // rate 1.0
  put16(body, 0x0100);      // volume 1.0
  put_zeros(body, 2 + 8);   // reserved
  put_unity_matrix(body);
  put_zeros(body, 6 * 4);  // pre_defined
  put32(body, 2);          // next_track_ID
  return full_box("mvhd", 0, 0, body);
}

std::string track_header(const VideoTrack& track) {
  std::string body;
  const std::uint32_t created = checked32(track.creation_time, "creation time");
  put32(body, created);
  put32(body, created);
  put32(body, 1);  // track_ID
  put_zeros(body, 4);
  put32(body, movie_duration(track));
  put_zeros(body, 8);
  put16(body, 0);  // layer
  put16(body, 0);  // alternate_group
  put16(body, 0);  // volume: a video track has none
  put_zeros(body, 2);
  put_unity_matrix(body);
  put32(body, static_cast<std::uint32_t>(track.width) << 16);  // 16.16 fixed point
  put32(body, static_cast<std::uint32_t>(track.height) << 16);
  constexpr std::uint32_t kEnabledInMovie = 0x000003;
  return full_box("tkhd", 0, kEnabledInMovie, body);
}

std::string media_header(const VideoTrack& track) {
  std::string body;
  const std::uint32_t created = checked32(track.creation_time, "creation time");
  put32(body, created);
  put32(body, created);
  put32(body, track.timescale);
  put32(body, checked32(track.samples.total_duration(), "media duration"));
  // ISO-639-2/T "und", three 5-bit letters (each minus 0x60).
  put16(body, ((('u' - 0x60) << 10) | (('n' - 0x60) << 5) | ('d' - 0x60)));
  put16(body, 0);  // pre_defined
  return full_box("mdhd", 0, 0, body);
}

std::string video_handler() {
  std::string body;
  put32(body, 0);  // pre_defined
  body += "vide";
  put_zeros(body, 12);
  body += std::string("VideoHandle") + '\0';
  return full_box("hdlr", 0, 0, body);
}

std::string video_media_header() {
  std::string body;
  put16(body, 0);      // graphicsmode: copy
  put_zeros(body, 6);  // opcolor
  return full_box("vmhd", 0, 1, body);
}

std::string data_information() {
  std::string references;
  put32(references, 1);  // entry_count
  // Flag 1: the media data is in this file.
  references += full_box("url ", 0, 1, "");
  return box("dinf", full_box("dref", 0, 0, references));
}

std::string avc_configuration(const VideoTrack& track) {
  const std::string& sps = track.sequence_parameter_set;
  const std::string& pps = track.picture_parameter_set;
  if (sps.size() < 4) throw std::invalid_argument("mp4: the SPS is too short");
  std::string body;
  body += '\x01';            // configurationVersion
  body += sps.substr(1, 3);  // profile_idc, constraint flags, level_idc
  body += '\xFF';            // reserved bits, lengthSizeMinusOne = 3
  body += '\xE1';            // reserved bits, one SPS
  put16(body, static_cast<std::uint32_t>(sps.size()));
  body += sps;
  body += '\x01';  // one PPS
  put16(body, static_cast<std::uint32_t>(pps.size()));
  body += pps;
  return box("avcC", body);
}

std::string sample_description(const VideoTrack& track) {
  std::string entry;
  put_zeros(entry, 6);  // reserved
  put16(entry, 1);      // data_reference_index
  put_zeros(entry, 2 + 2 + 12);
  put16(entry, static_cast<std::uint32_t>(track.width));
  put16(entry, static_cast<std::uint32_t>(track.height));
  put32(entry, 0x00480000);  // 72 dpi
  put32(entry, 0x00480000);
  put_zeros(entry, 4);
  put16(entry, 1);       // frame_count per sample
  put_zeros(entry, 32);  // compressorname: empty
  put16(entry, 0x0018);  // depth: colour
  put16(entry, 0xFFFF);  // pre_defined = -1
  entry += avc_configuration(track);
  std::string body;
  put32(body, 1);  // entry_count
  body += box("avc1", entry);
  return full_box("stsd", 0, 0, body);
}

std::string sample_tables(const VideoTrack& track) {
  const SampleTable& samples = track.samples;
  const auto count = checked32(samples.count(), "sample count");

  std::string times;
  put32(times, checked32(samples.durations().size(), "stts entries"));
  for (const DurationRun& run : samples.durations()) {
    put32(times, run.count);
    put32(times, run.duration);
  }

  std::string sync;
  put32(sync, checked32(samples.sync_samples().size(), "stss entries"));
  for (const std::uint32_t number : samples.sync_samples()) put32(sync, number);

  // One chunk holds every sample.
  std::string chunks;
  put32(chunks, count == 0 ? 0 : 1);
  if (count != 0) {
    put32(chunks, 1);  // first_chunk
    put32(chunks, count);
    put32(chunks, 1);  // sample_description_index
  }

  std::string sizes;
  put32(sizes, 0);  // sample_size: each has its own
  put32(sizes, count);
  for (const std::uint32_t size : samples.sizes()) put32(sizes, size);

  std::string offsets;
  put32(offsets, count == 0 ? 0 : 1);
  if (count != 0) put32(offsets, checked32(track.first_sample_offset, "chunk offset"));

  return box("stbl", sample_description(track) + full_box("stts", 0, 0, times) +
                         full_box("stss", 0, 0, sync) + full_box("stsc", 0, 0, chunks) +
                         full_box("stsz", 0, 0, sizes) + full_box("stco", 0, 0, offsets));
}

}  // namespace

void SampleTable::add(std::uint32_t size, std::uint32_t duration, bool sync) {
  sizes_.push_back(size);
  if (!durations_.empty() && durations_.back().duration == duration) {
    ++durations_.back().count;
  } else {
    durations_.push_back(DurationRun{1, duration});
  }
  if (sync) sync_samples_.push_back(static_cast<std::uint32_t>(sizes_.size()));
  total_duration_ += duration;
}

std::string file_type_box() {
  std::string body = "isom";
  put32(body, 0x200);  // minor_version
  body += "isomiso2avc1mp41";
  return box("ftyp", body);
}

std::string media_data_box_header(std::uint64_t payload_size) {
  std::string header;
  put32(header, payload_size == 0 ? 0 : checked32(8 + payload_size, "mdat size"));
  header += "mdat";
  return header;
}

std::string movie_box(const VideoTrack& track) {
  const std::string media_information =
      box("minf", video_media_header() + data_information() + sample_tables(track));
  const std::string media = box("mdia", media_header(track) + video_handler() + media_information);
  return box("moov", movie_header(track) + box("trak", track_header(track) + media));
}

std::string length_prefixed(std::string_view nal_unit) {
  std::string sample;
  sample.reserve(4 + nal_unit.size());
  put32(sample, checked32(nal_unit.size(), "NAL unit size"));
  sample += nal_unit;
  return sample;
}

}  // namespace clawperator::vdevice::android::mp4
