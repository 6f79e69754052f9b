// Reading back what screenrecord writes, independently of the writers: H.264 bits and NAL
// units, MP4 boxes (ffprobe and ffmpeg: tests/support/media_probe.hpp).
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace clawperator::vdevice::android::test {

// u(n), ue(v), se(v) over an RBSP (emulation prevention already removed).
class BitReader {
 public:
  explicit BitReader(std::string_view bytes) : bytes_(bytes) {}

  std::uint32_t bits(int count) {
    std::uint32_t value = 0;
    for (int i = 0; i < count; ++i) {
      REQUIRE(position_ < bytes_.size() * 8);
      const auto byte = static_cast<std::uint8_t>(bytes_[position_ / 8]);
      value = (value << 1) | ((byte >> (7 - position_ % 8)) & 1U);
      ++position_;
    }
    return value;
  }
  bool flag() { return bits(1) == 1; }
  std::uint64_t unsigned_exp_golomb() {
    int zeros = 0;
    while (bits(1) == 0) {
      ++zeros;
      REQUIRE(zeros <= 32);
    }
    std::uint64_t value = 1;
    for (int i = 0; i < zeros; ++i) value = (value << 1) | bits(1);
    return value - 1;
  }
  std::int64_t signed_exp_golomb() {
    const std::uint64_t code = unsigned_exp_golomb();
    const auto magnitude = static_cast<std::int64_t>((code + 1) / 2);
    return code % 2 == 1 ? magnitude : -magnitude;
  }
  bool aligned() const { return position_ % 8 == 0; }
  std::size_t position() const { return position_; }
  // The bytes from here (aligned), `count` of them.
  std::string_view bytes(std::size_t count) {
    REQUIRE(aligned());
    REQUIRE(position_ / 8 + count <= bytes_.size());
    const std::string_view out = bytes_.substr(position_ / 8, count);
    position_ += count * 8;
    return out;
  }
  // rbsp_trailing_bits, and nothing after them.
  void expect_trailing_bits() {
    CHECK(bits(1) == 1);
    while (!aligned()) CHECK(bits(1) == 0);
    CHECK(position_ == bytes_.size() * 8);
  }

 private:
  std::string_view bytes_;
  std::size_t position_ = 0;
};

// The NAL unit's payload as the decoder sees it: every 0x03 after two zero bytes removed.
inline std::string rbsp_of(std::string_view escaped) {
  std::string out;
  int zeros = 0;
  for (const char c : escaped) {
    if (zeros >= 2 && c == '\x03') {
      zeros = 0;
      continue;
    }
    out += c;
    zeros = c == '\0' ? zeros + 1 : 0;
  }
  return out;
}

struct SpsFields {
  std::uint32_t profile = 0;
  std::uint32_t constraints = 0;
  std::uint32_t level = 0;
  std::uint64_t log2_max_frame_num = 0;
  std::uint64_t pic_order_cnt_type = 0;
  std::uint64_t max_num_ref_frames = 0;
  int width_in_macroblocks = 0;
  int height_in_macroblocks = 0;
  bool frame_mbs_only = false;
  bool cropping = false;
  std::uint64_t crop_left = 0, crop_right = 0, crop_top = 0, crop_bottom = 0;
  bool vui = false;
  int width = 0;   // after cropping
  int height = 0;  // after cropping
};

// Parses a Baseline SPS NAL unit (header byte first) up to the VUI flag.
inline SpsFields parse_sps(std::string_view nal) {
  REQUIRE(nal.size() > 4);
  CHECK(static_cast<std::uint8_t>(nal[0]) == 0x67);  // nal_ref_idc 3, type 7
  const std::string rbsp = rbsp_of(nal.substr(1));
  BitReader in(rbsp);
  SpsFields sps;
  sps.profile = in.bits(8);
  sps.constraints = in.bits(8);
  sps.level = in.bits(8);
  CHECK(in.unsigned_exp_golomb() == 0);  // seq_parameter_set_id
  sps.log2_max_frame_num = in.unsigned_exp_golomb() + 4;
  sps.pic_order_cnt_type = in.unsigned_exp_golomb();
  sps.max_num_ref_frames = in.unsigned_exp_golomb();
  CHECK_FALSE(in.flag());  // gaps_in_frame_num_value_allowed_flag
  sps.width_in_macroblocks = static_cast<int>(in.unsigned_exp_golomb() + 1);
  sps.height_in_macroblocks = static_cast<int>(in.unsigned_exp_golomb() + 1);
  sps.frame_mbs_only = in.flag();
  CHECK(in.flag());  // direct_8x8_inference_flag
  sps.cropping = in.flag();
  if (sps.cropping) {
    sps.crop_left = in.unsigned_exp_golomb();
    sps.crop_right = in.unsigned_exp_golomb();
    sps.crop_top = in.unsigned_exp_golomb();
    sps.crop_bottom = in.unsigned_exp_golomb();
  }
  sps.vui = in.flag();
  // 4:2:0 crops in units of two samples.
  sps.width = sps.width_in_macroblocks * 16 - 2 * static_cast<int>(sps.crop_left + sps.crop_right);
  sps.height =
      sps.height_in_macroblocks * 16 - 2 * static_cast<int>(sps.crop_top + sps.crop_bottom);
  return sps;
}

inline std::uint32_t read_be32(std::string_view bytes, std::size_t at) {
  REQUIRE(at + 4 <= bytes.size());
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i)
    value = (value << 8) | static_cast<std::uint8_t>(bytes[at + i]);
  return value;
}

inline std::uint32_t read_be16(std::string_view bytes, std::size_t at) {
  REQUIRE(at + 2 <= bytes.size());
  return (std::uint32_t{static_cast<std::uint8_t>(bytes[at])} << 8) |
         static_cast<std::uint8_t>(bytes[at + 1]);
}

struct Mp4Box {
  std::string type;
  std::size_t offset = 0;  // of the header, in the bytes given
  std::string_view body;   // after the 8-byte header
};

// The boxes that follow each other in `bytes`, each required to fit exactly.
inline std::vector<Mp4Box> boxes_in(std::string_view bytes, std::size_t base = 0) {
  std::vector<Mp4Box> boxes;
  std::size_t at = 0;
  while (at < bytes.size()) {
    REQUIRE(at + 8 <= bytes.size());
    const std::uint32_t size = read_be32(bytes, at);
    INFO("box " << bytes.substr(at + 4, 4) << " at " << base + at << " size " << size);
    REQUIRE(size >= 8);
    REQUIRE(at + size <= bytes.size());
    boxes.push_back(
        Mp4Box{std::string(bytes.substr(at + 4, 4)), base + at, bytes.substr(at + 8, size - 8)});
    at += size;
  }
  return boxes;
}

// Bytes a container has before its child boxes (full box headers, sample entry fields).
inline std::size_t child_offset(const std::string& type) {
  if (type == "stsd" || type == "dref") return 8;  // version, flags, entry_count
  if (type == "avc1") return 78;                   // VisualSampleEntry's fields
  return 0;
}

// The box at a '/'-separated path of types under the top-level boxes of `file`.
inline std::optional<Mp4Box> find_box(std::string_view file, const std::string& path) {
  std::vector<Mp4Box> level = boxes_in(file);
  std::optional<Mp4Box> found;
  std::istringstream parts(path);
  std::string type;
  while (std::getline(parts, type, '/')) {
    found.reset();
    for (const Mp4Box& box : level) {
      if (box.type == type) found = box;
    }
    if (!found) return std::nullopt;
    const std::size_t skip = child_offset(found->type);
    if (parts.peek() != EOF) {
      REQUIRE(found->body.size() >= skip);
      level = boxes_in(found->body.substr(skip));
    }
  }
  return found;
}

}  // namespace clawperator::vdevice::android::test
