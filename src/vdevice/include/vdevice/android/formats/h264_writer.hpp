// A minimal H.264 encoder for `screenrecord`: Constrained Baseline, CAVLC, one slice per
// picture. An IDR picture codes every macroblock as I_PCM (the samples themselves); a P picture
// codes the macroblocks that changed as I_PCM and skips the rest (P_Skip with a zero motion
// vector copies the previous picture's macroblock), so every decoded picture is exactly the
// picture given, and an unchanged screen costs a few bytes a frame.
//
// Written by hand rather than linked: libx264 is GPL, and Debian's libavcodec would pull a large
// dependency into every user's CI for a virtual screen that is mostly static. I_PCM + P_Skip is
// a small, lossless subset that any decoder reads. Pure functions: no I/O.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vdevice/android/formats/png.hpp"

namespace clawperator::vdevice::android::h264 {

// Bits, most significant first, as the H.264 syntax writes them (u(n), ue(v), se(v)).
class BitWriter {
 public:
  // The low `count` bits of `value` (count 0..32).
  void bits(std::uint32_t value, int count);
  void flag(bool value) { bits(value ? 1 : 0, 1); }
  // ue(v): Exp-Golomb, 0 → "1", 1 → "010", 2 → "011", 3 → "00100", …
  void unsigned_exp_golomb(std::uint32_t value);
  // se(v): 1 → ue(1), -1 → ue(2), 2 → ue(3), …
  void signed_exp_golomb(std::int32_t value);
  // Zero bits up to the next byte boundary (pcm_alignment_zero_bit).
  void align_with_zeros();
  // rbsp_trailing_bits: a one, then zeros up to the byte boundary.
  void trailing_bits();
  // Whole bytes, appended as they are (I_PCM samples); the writer must be byte aligned.
  void aligned_bytes(std::span<const std::uint8_t> bytes);

  bool byte_aligned() const noexcept { return pending_count_ == 0; }
  std::size_t bit_count() const noexcept { return bytes_.size() * 8 + pending_count_; }
  // The bytes written so far; the writer must be byte aligned.
  std::string take();

 private:
  std::string bytes_;
  std::uint32_t pending_ = 0;  // bits not yet a whole byte, in the low pending_count_ bits
  int pending_count_ = 0;
};

// The NAL unit's payload with emulation prevention: a 0x03 byte after any two zero bytes that
// a byte 0x00..0x03 follows, so that no start code (00 00 01) appears inside.
std::string add_emulation_prevention(std::string_view rbsp);

struct YuvSample {
  std::uint8_t luma = 16;
  std::uint8_t blue_difference = 128;
  std::uint8_t red_difference = 128;
};

// BT.601, studio range (Y 16..235, Cb/Cr 16..240), as the SPS's VUI declares.
YuvSample to_yuv(Rgb colour);

// A 4:2:0 picture whose planes are padded to whole macroblocks (16×16 luma, 8×8 per chroma
// plane); the SPS crops the padding away.
class YuvPicture {
 public:
  // Black.
  YuvPicture(int width, int height);
  // From `width × height` pixels row by row; chroma is the mean of each 2×2 block's.
  static YuvPicture from_rgb(int width, int height, std::span<const Rgb> pixels);

  int width() const noexcept { return width_; }
  int height() const noexcept { return height_; }
  int macroblock_columns() const noexcept { return columns_; }
  int macroblock_rows() const noexcept { return rows_; }
  int macroblock_count() const noexcept { return columns_ * rows_; }

  // Row-major planes: luma is columns×16 wide, each chroma plane columns×8.
  const std::vector<std::uint8_t>& luma() const noexcept { return luma_; }
  const std::vector<std::uint8_t>& blue_difference() const noexcept { return blue_; }
  const std::vector<std::uint8_t>& red_difference() const noexcept { return red_; }

  bool same_macroblock(const YuvPicture& other, int index) const;
  // The macroblock's 384 samples in I_PCM order: 256 luma, 64 Cb, 64 Cr, each row by row.
  void append_macroblock(int index, BitWriter& out) const;

 private:
  int width_;
  int height_;
  int columns_;
  int rows_;
  std::vector<std::uint8_t> luma_;
  std::vector<std::uint8_t> blue_;
  std::vector<std::uint8_t> red_;
};

// What `frame_num` counts modulo (log2_max_frame_num = 16).
inline constexpr std::uint32_t kMaxFrameNum = 1U << 16;
inline constexpr int kProfileBaseline = 66;
// constraint_set0 and constraint_set1: Constrained Baseline, decodable as Main too.
inline constexpr int kConstraintFlags = 0xC0;
// Bytes of an I_PCM macroblock's samples.
inline constexpr std::size_t kPcmMacroblockBytes = 384;

// The smallest level whose frame size and dimensions fit the picture (level_idc: 31 = 3.1).
int level_for(int width, int height);

// NAL units: the one-byte header and the escaped payload, without start code or length.
std::string sequence_parameter_set(int width, int height);
std::string picture_parameter_set();
// Every macroblock I_PCM. `idr_pic_id` must differ between consecutive IDR pictures.
std::string idr_picture(const YuvPicture& picture, std::uint32_t idr_pic_id);
// The macroblocks `changed` marks as I_PCM, the rest P_Skip. `frame_num` is the count of
// pictures since the last IDR (which is 0), modulo kMaxFrameNum.
std::string p_picture(const YuvPicture& picture, const std::vector<bool>& changed,
                      std::uint32_t frame_num);

}  // namespace clawperator::vdevice::android::h264
