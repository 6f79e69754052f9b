#include "vdevice/android/formats/h264_writer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace clawperator::vdevice::android::h264 {
namespace {

// nal_unit_type values (Table 7-1).
constexpr int kNalIdrSlice = 5;
constexpr int kNalNonIdrSlice = 1;
constexpr int kNalSequenceParameterSet = 7;
constexpr int kNalPictureParameterSet = 8;
// Every NAL unit here is a reference (frames are never dropped by a decoder).
constexpr int kNalRefIdcHighest = 3;

// slice_type 5..9: every slice of the picture has the type (7.4.3).
constexpr std::uint32_t kSliceTypeAllP = 5;
constexpr std::uint32_t kSliceTypeAllI = 7;
// mb_type of I_PCM in an I slice (Table 7-11), and in a P slice after the 5 P types.
constexpr std::uint32_t kIntraPcmInISlice = 25;
constexpr std::uint32_t kIntraPcmInPSlice = 5 + kIntraPcmInISlice;

constexpr int kLog2MaxFrameNum = 16;
// pic_order_cnt_type 2: output order is decoding order, as without B pictures.
constexpr std::uint32_t kPictureOrderFromFrameNum = 2;
// disable_deblocking_filter_idc 1: I_PCM and P_Skip already are the exact samples; filtering
// the edges between them would change what was recorded.
constexpr std::uint32_t kDeblockingDisabled = 1;

// VUI colour description (E.2.1): BT.601-525 primaries, transfer and matrix (6 = SMPTE 170M).
constexpr std::uint32_t kVideoFormatUnspecified = 5;
constexpr std::uint32_t kSmpte170m = 6;

struct Level {
  int level_idc;
  int max_frame_macroblocks;  // MaxFS (Table A-1)
};
constexpr std::array<Level, 11> kLevels = {{{10, 99},
                                            {20, 396},
                                            {21, 792},
                                            {22, 1620},
                                            {31, 3600},
                                            {32, 5120},
                                            {40, 8192},
                                            {42, 8704},
                                            {50, 22080},
                                            {51, 36864},
                                            {60, 139264}}};

int macroblocks_for(int pixels) {
  return (pixels + 15) / 16;
}

std::string nal_unit(int nal_unit_type, std::string_view rbsp) {
  std::string nal(1, static_cast<char>((kNalRefIdcHighest << 5) | nal_unit_type));
  nal += add_emulation_prevention(rbsp);
  return nal;
}

std::uint8_t clamp_sample(int value) {
  return static_cast<std::uint8_t>(std::clamp(value, 0, 255));
}

// The slice header fields the two picture types share up to frame_num (7.3.3).
void slice_header_start(BitWriter& out, std::uint32_t slice_type, std::uint32_t frame_num) {
  out.unsigned_exp_golomb(0);  // first_mb_in_slice
  out.unsigned_exp_golomb(slice_type);
  out.unsigned_exp_golomb(0);  // pic_parameter_set_id
  out.bits(frame_num % kMaxFrameNum, kLog2MaxFrameNum);
}

void slice_header_end(BitWriter& out) {
  out.signed_exp_golomb(0);  // slice_qp_delta (no residual is ever coded)
  out.unsigned_exp_golomb(kDeblockingDisabled);
}

}  // namespace

void BitWriter::bits(std::uint32_t value, int count) {
  if (count < 0 || count > 32) throw std::invalid_argument("BitWriter::bits: count over 32");
  for (int shift = count - 1; shift >= 0; --shift) {
    pending_ = (pending_ << 1) | ((value >> shift) & 1U);
    if (++pending_count_ == 8) {
      bytes_ += static_cast<char>(pending_);
      pending_ = 0;
      pending_count_ = 0;
    }
  }
}

void BitWriter::unsigned_exp_golomb(std::uint32_t value) {
  // codeNum + 1 in binary, after as many zeros as it has bits after its leading one.
  const std::uint64_t code = std::uint64_t{value} + 1;
  const int length = static_cast<int>(std::bit_width(code));
  bits(0, length - 1);
  if (length > 32) {
    bits(static_cast<std::uint32_t>(code >> 32), length - 32);
    bits(static_cast<std::uint32_t>(code), 32);
  } else {
    bits(static_cast<std::uint32_t>(code), length);
  }
}

void BitWriter::signed_exp_golomb(std::int32_t value) {
  const std::int64_t wide = value;
  unsigned_exp_golomb(
      static_cast<std::uint32_t>(wide > 0 ? 2 * wide - 1 : -2 * wide));  // Table 9-3
}

void BitWriter::align_with_zeros() {
  if (pending_count_ != 0) bits(0, 8 - pending_count_);
}

void BitWriter::trailing_bits() {
  flag(true);
  align_with_zeros();
}

void BitWriter::aligned_bytes(std::span<const std::uint8_t> bytes) {
  if (!byte_aligned()) throw std::logic_error("BitWriter::aligned_bytes: not byte aligned");
  bytes_.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

std::string BitWriter::take() {
  if (!byte_aligned()) throw std::logic_error("BitWriter::take: not byte aligned");
  return std::exchange(bytes_, {});
}

std::string add_emulation_prevention(std::string_view rbsp) {
  std::string escaped;
  escaped.reserve(rbsp.size() + rbsp.size() / 64 + 4);
  int zeros = 0;
  for (const char c : rbsp) {
    const auto byte = static_cast<std::uint8_t>(c);
    if (zeros >= 2 && byte <= 3) {
      escaped += '\x03';
      zeros = 0;
    }
    escaped += c;
    zeros = byte == 0 ? zeros + 1 : 0;
  }
  return escaped;
}

YuvSample to_yuv(Rgb colour) {
  const int r = colour.r;
  const int g = colour.g;
  const int b = colour.b;
  // The BT.601 studio-range matrix in 8-bit fixed point (the usual rounding of 219/255 and
  // 224/255 times the analogue coefficients).
  return YuvSample{clamp_sample(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16),
                   clamp_sample(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128),
                   clamp_sample(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128)};
}

YuvPicture::YuvPicture(int width, int height)
    : width_(width),
      height_(height),
      columns_(macroblocks_for(width)),
      rows_(macroblocks_for(height)) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("YuvPicture: empty picture");
  const YuvSample black = to_yuv(Rgb{0, 0, 0});
  luma_.assign(static_cast<std::size_t>(columns_) * 16 * rows_ * 16, black.luma);
  blue_.assign(static_cast<std::size_t>(columns_) * 8 * rows_ * 8, black.blue_difference);
  red_.assign(blue_.size(), black.red_difference);
}

YuvPicture YuvPicture::from_rgb(int width, int height, std::span<const Rgb> pixels) {
  YuvPicture picture(width, height);
  if (pixels.size() != static_cast<std::size_t>(width) * height) {
    throw std::invalid_argument("YuvPicture::from_rgb: pixel count is not width × height");
  }
  const int luma_stride = picture.columns_ * 16;
  const int chroma_stride = picture.columns_ * 8;
  for (int y = 0; y < height; y += 2) {
    for (int x = 0; x < width; x += 2) {
      // The 2×2 block (fewer at an odd right or bottom edge): luma each, chroma their mean.
      int blue_sum = 0;
      int red_sum = 0;
      int count = 0;
      for (int dy = 0; dy < 2 && y + dy < height; ++dy) {
        for (int dx = 0; dx < 2 && x + dx < width; ++dx) {
          const YuvSample sample =
              to_yuv(pixels[static_cast<std::size_t>(y + dy) * width + (x + dx)]);
          picture.luma_[static_cast<std::size_t>(y + dy) * luma_stride + (x + dx)] = sample.luma;
          blue_sum += sample.blue_difference;
          red_sum += sample.red_difference;
          ++count;
        }
      }
      const std::size_t chroma_at = static_cast<std::size_t>(y / 2) * chroma_stride + x / 2;
      picture.blue_[chroma_at] = static_cast<std::uint8_t>((blue_sum + count / 2) / count);
      picture.red_[chroma_at] = static_cast<std::uint8_t>((red_sum + count / 2) / count);
    }
  }
  return picture;
}

bool YuvPicture::same_macroblock(const YuvPicture& other, int index) const {
  if (other.columns_ != columns_ || other.rows_ != rows_) return false;
  const int column = index % columns_;
  const int row = index / columns_;
  const auto rows_equal = [column, row](const std::vector<std::uint8_t>& a,
                                        const std::vector<std::uint8_t>& b, std::size_t stride,
                                        std::size_t size) {
    for (std::size_t line = 0; line < size; ++line) {
      const std::size_t at = (row * size + line) * stride + column * size;
      if (!std::equal(a.begin() + static_cast<std::ptrdiff_t>(at),
                      a.begin() + static_cast<std::ptrdiff_t>(at + size),
                      b.begin() + static_cast<std::ptrdiff_t>(at))) {
        return false;
      }
    }
    return true;
  };
  const std::size_t luma_stride = static_cast<std::size_t>(columns_) * 16;
  const std::size_t chroma_stride = static_cast<std::size_t>(columns_) * 8;
  return rows_equal(luma_, other.luma_, luma_stride, 16) &&
         rows_equal(blue_, other.blue_, chroma_stride, 8) &&
         rows_equal(red_, other.red_, chroma_stride, 8);
}

void YuvPicture::append_macroblock(int index, BitWriter& out) const {
  const int column = index % columns_;
  const int row = index / columns_;
  const auto plane_block = [&](const std::vector<std::uint8_t>& plane, std::size_t size) {
    const std::size_t stride = static_cast<std::size_t>(columns_) * size;
    for (std::size_t line = 0; line < size; ++line) {
      const std::size_t at = (row * size + line) * stride + column * size;
      out.aligned_bytes(std::span<const std::uint8_t>(plane.data() + at, size));
    }
  };
  plane_block(luma_, 16);
  plane_block(blue_, 8);
  plane_block(red_, 8);
}

int level_for(int width, int height) {
  const int columns = macroblocks_for(width);
  const int rows = macroblocks_for(height);
  for (const Level& level : kLevels) {
    // A side may be at most sqrt(8 × MaxFS) macroblocks (A.3.1 f, g).
    const double longest_side = std::sqrt(8.0 * level.max_frame_macroblocks);
    if (columns * rows <= level.max_frame_macroblocks && columns <= longest_side &&
        rows <= longest_side) {
      return level.level_idc;
    }
  }
  return kLevels.back().level_idc;
}

std::string sequence_parameter_set(int width, int height) {
  const int columns = macroblocks_for(width);
  const int rows = macroblocks_for(height);
  BitWriter out;
  out.bits(kProfileBaseline, 8);
  out.bits(kConstraintFlags, 8);  // constraint_set0..5_flag, reserved_zero_2bits
  out.bits(static_cast<std::uint32_t>(level_for(width, height)), 8);
  out.unsigned_exp_golomb(0);                     // seq_parameter_set_id
  out.unsigned_exp_golomb(kLog2MaxFrameNum - 4);  // log2_max_frame_num_minus4
  out.unsigned_exp_golomb(kPictureOrderFromFrameNum);
  out.unsigned_exp_golomb(1);  // max_num_ref_frames: the previous picture only
  out.flag(false);             // gaps_in_frame_num_value_allowed_flag
  out.unsigned_exp_golomb(static_cast<std::uint32_t>(columns - 1));
  out.unsigned_exp_golomb(static_cast<std::uint32_t>(rows - 1));
  out.flag(true);  // frame_mbs_only_flag
  out.flag(true);  // direct_8x8_inference_flag
  // Cropping, in 4:2:0 chroma units of two pixels: the padding to whole macroblocks.
  const int crop_right = (columns * 16 - width) / 2;
  const int crop_bottom = (rows * 16 - height) / 2;
  const bool cropped = crop_right != 0 || crop_bottom != 0;
  out.flag(cropped);
  if (cropped) {
    out.unsigned_exp_golomb(0);
    out.unsigned_exp_golomb(static_cast<std::uint32_t>(crop_right));
    out.unsigned_exp_golomb(0);
    out.unsigned_exp_golomb(static_cast<std::uint32_t>(crop_bottom));
  }
  out.flag(true);   // vui_parameters_present_flag
  out.flag(false);  // aspect_ratio_info_present_flag
  out.flag(false);  // overscan_info_present_flag
  out.flag(true);   // video_signal_type_present_flag: the samples are BT.601 studio range
  out.bits(kVideoFormatUnspecified, 3);
  out.flag(false);  // video_full_range_flag
  out.flag(true);   // colour_description_present_flag
  out.bits(kSmpte170m, 8);
  out.bits(kSmpte170m, 8);
  out.bits(kSmpte170m, 8);
  out.flag(false);  // chroma_loc_info_present_flag
  out.flag(false);  // timing_info_present_flag (the MP4 has the times)
  out.flag(false);  // nal_hrd_parameters_present_flag
  out.flag(false);  // vcl_hrd_parameters_present_flag
  out.flag(false);  // pic_struct_present_flag
  // bitstream_restriction: no reordering, so a decoder outputs each picture at once.
  out.flag(true);
  out.flag(true);               // motion_vectors_over_pic_boundaries_flag
  out.unsigned_exp_golomb(0);   // max_bytes_per_pic_denom: no limit
  out.unsigned_exp_golomb(0);   // max_bits_per_mb_denom: no limit
  out.unsigned_exp_golomb(16);  // log2_max_mv_length_horizontal
  out.unsigned_exp_golomb(16);  // log2_max_mv_length_vertical
  out.unsigned_exp_golomb(0);   // max_num_reorder_frames
  out.unsigned_exp_golomb(1);   // max_dec_frame_buffering
  out.trailing_bits();
  return nal_unit(kNalSequenceParameterSet, out.take());
}

std::string picture_parameter_set() {
  BitWriter out;
  out.unsigned_exp_golomb(0);  // pic_parameter_set_id
  out.unsigned_exp_golomb(0);  // seq_parameter_set_id
  out.flag(false);             // entropy_coding_mode_flag: CAVLC
  out.flag(false);             // bottom_field_pic_order_in_frame_present_flag
  out.unsigned_exp_golomb(0);  // num_slice_groups_minus1
  out.unsigned_exp_golomb(0);  // num_ref_idx_l0_default_active_minus1
  out.unsigned_exp_golomb(0);  // num_ref_idx_l1_default_active_minus1
  out.flag(false);             // weighted_pred_flag
  out.bits(0, 2);              // weighted_bipred_idc
  out.signed_exp_golomb(0);    // pic_init_qp_minus26
  out.signed_exp_golomb(0);    // pic_init_qs_minus26
  out.signed_exp_golomb(0);    // chroma_qp_index_offset
  out.flag(true);              // deblocking_filter_control_present_flag: slices turn it off
  out.flag(false);             // constrained_intra_pred_flag
  out.flag(false);             // redundant_pic_cnt_present_flag
  out.trailing_bits();
  return nal_unit(kNalPictureParameterSet, out.take());
}

std::string idr_picture(const YuvPicture& picture, std::uint32_t idr_pic_id) {
  BitWriter out;
  slice_header_start(out, kSliceTypeAllI, 0);
  out.unsigned_exp_golomb(idr_pic_id);
  out.flag(false);  // no_output_of_prior_pics_flag
  out.flag(false);  // long_term_reference_flag
  slice_header_end(out);
  for (int index = 0; index < picture.macroblock_count(); ++index) {
    out.unsigned_exp_golomb(kIntraPcmInISlice);
    out.align_with_zeros();
    picture.append_macroblock(index, out);
  }
  out.trailing_bits();
  return nal_unit(kNalIdrSlice, out.take());
}

std::string p_picture(const YuvPicture& picture, const std::vector<bool>& changed,
                      std::uint32_t frame_num) {
  if (changed.size() != static_cast<std::size_t>(picture.macroblock_count())) {
    throw std::invalid_argument("p_picture: one changed flag per macroblock");
  }
  BitWriter out;
  slice_header_start(out, kSliceTypeAllP, frame_num);
  out.flag(false);  // num_ref_idx_active_override_flag
  out.flag(false);  // ref_pic_list_modification_flag_l0
  out.flag(false);  // adaptive_ref_pic_marking_mode_flag: the sliding window
  slice_header_end(out);
  // slice_data (7.3.4): before each coded macroblock the run of skipped ones (maybe 0); after
  // the last coded one, the run of skipped ones that ends the picture, if any.
  std::uint32_t skipped = 0;
  for (int index = 0; index < picture.macroblock_count(); ++index) {
    if (!changed[static_cast<std::size_t>(index)]) {
      ++skipped;
      continue;
    }
    out.unsigned_exp_golomb(skipped);
    skipped = 0;
    out.unsigned_exp_golomb(kIntraPcmInPSlice);
    out.align_with_zeros();
    picture.append_macroblock(index, out);
  }
  if (skipped > 0) out.unsigned_exp_golomb(skipped);
  out.trailing_bits();
  return nal_unit(kNalNonIdrSlice, out.take());
}

}  // namespace clawperator::vdevice::android::h264
