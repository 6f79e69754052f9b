#include "vdevice/android/formats/h264_writer.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "video_test_support.hpp"

using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

// The bits written, as '0' and '1', without the padding to a byte.
std::string bit_string(h264::BitWriter& writer) {
  const std::size_t count = writer.bit_count();
  writer.align_with_zeros();
  const std::string bytes = writer.take();
  std::string bits;
  for (std::size_t i = 0; i < count; ++i) {
    bits += ((static_cast<std::uint8_t>(bytes[i / 8]) >> (7 - i % 8)) & 1U) != 0 ? '1' : '0';
  }
  return bits;
}

std::string ue_bits(std::uint32_t value) {
  h264::BitWriter writer;
  writer.unsigned_exp_golomb(value);
  return bit_string(writer);
}

std::string se_bits(std::int32_t value) {
  h264::BitWriter writer;
  writer.signed_exp_golomb(value);
  return bit_string(writer);
}

std::string bytes_of(std::initializer_list<int> values) {
  std::string out;
  for (const int value : values) out += static_cast<char>(value);
  return out;
}

// A picture whose every sample differs from its neighbours': a wrong offset anywhere shows.
h264::YuvPicture gradient_picture(int width, int height, int seed) {
  std::vector<Rgb> pixels;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      pixels.push_back(Rgb{static_cast<std::uint8_t>(x * 7 + seed),
                           static_cast<std::uint8_t>(y * 5 + seed * 3),
                           static_cast<std::uint8_t>((x + y) * 3 + seed * 11)});
    }
  }
  return h264::YuvPicture::from_rgb(width, height, pixels);
}

// The macroblock's samples as I_PCM carries them, read from the planes independently.
std::string expected_pcm(const h264::YuvPicture& picture, int index) {
  const int column = index % picture.macroblock_columns();
  const int row = index / picture.macroblock_columns();
  std::string out;
  const auto block = [&](const std::vector<std::uint8_t>& plane, int size) {
    const int stride = picture.macroblock_columns() * size;
    for (int line = 0; line < size; ++line) {
      for (int x = 0; x < size; ++x) {
        out += static_cast<char>(
            plane[static_cast<std::size_t>((row * size + line) * stride + column * size + x)]);
      }
    }
  };
  block(picture.luma(), 16);
  block(picture.blue_difference(), 8);
  block(picture.red_difference(), 8);
  return out;
}

struct SliceHeader {
  std::uint64_t first_mb = 0;
  std::uint64_t slice_type = 0;
  std::uint32_t frame_num = 0;
  std::uint64_t idr_pic_id = 0;
};

// Reads a slice header as the SPS and PPS above declare it.
SliceHeader read_slice_header(BitReader& in, bool idr) {
  SliceHeader header;
  header.first_mb = in.unsigned_exp_golomb();
  header.slice_type = in.unsigned_exp_golomb();
  CHECK(in.unsigned_exp_golomb() == 0);  // pic_parameter_set_id
  header.frame_num = in.bits(16);
  if (idr) {
    header.idr_pic_id = in.unsigned_exp_golomb();
    CHECK_FALSE(in.flag());  // no_output_of_prior_pics_flag
    CHECK_FALSE(in.flag());  // long_term_reference_flag
  } else {
    CHECK_FALSE(in.flag());  // num_ref_idx_active_override_flag
    CHECK_FALSE(in.flag());  // ref_pic_list_modification_flag_l0
    CHECK_FALSE(in.flag());  // adaptive_ref_pic_marking_mode_flag
  }
  CHECK(in.signed_exp_golomb() == 0);    // slice_qp_delta
  CHECK(in.unsigned_exp_golomb() == 1);  // disable_deblocking_filter_idc
  return header;
}

}  // namespace

TEST_CASE("h264: Exp-Golomb codes as Table 9-2 and 9-3 list them", "[vdevice][android][video]") {
  CHECK(ue_bits(0) == "1");
  CHECK(ue_bits(1) == "010");
  CHECK(ue_bits(2) == "011");
  CHECK(ue_bits(3) == "00100");
  CHECK(ue_bits(6) == "00111");
  CHECK(ue_bits(7) == "0001000");
  CHECK(ue_bits(30) == "000011111");
  // The largest value: 32 zeros, then 2^32 in 33 bits.
  CHECK(ue_bits(0xFFFFFFFFU) == std::string(32, '0') + "1" + std::string(32, '0'));
  CHECK(se_bits(0) == "1");
  CHECK(se_bits(1) == "010");
  CHECK(se_bits(-1) == "011");
  CHECK(se_bits(2) == "00100");
  CHECK(se_bits(-2) == "00101");
  // Read back by an independent reader.
  h264::BitWriter writer;
  for (std::uint32_t value = 0; value < 300; ++value) writer.unsigned_exp_golomb(value);
  writer.signed_exp_golomb(-12345);
  writer.trailing_bits();
  const std::string bytes = writer.take();
  BitReader reader(bytes);
  for (std::uint64_t value = 0; value < 300; ++value) CHECK(reader.unsigned_exp_golomb() == value);
  CHECK(reader.signed_exp_golomb() == -12345);
  reader.expect_trailing_bits();
}

TEST_CASE("h264: u(n), alignment and trailing bits", "[vdevice][android][video]") {
  h264::BitWriter writer;
  writer.bits(0b101, 3);
  CHECK_FALSE(writer.byte_aligned());
  writer.align_with_zeros();
  CHECK(writer.byte_aligned());
  writer.bits(0xABCD, 16);
  writer.trailing_bits();  // already aligned: a whole byte 0x80
  CHECK(writer.take() == bytes_of({0xA0, 0xAB, 0xCD, 0x80}));
  writer.bits(1, 1);
  CHECK_THROWS(writer.take());  // not aligned
}

TEST_CASE("h264: emulation prevention escapes 00 00 0x for x <= 3 only",
          "[vdevice][android][video]") {
  using h264::add_emulation_prevention;
  CHECK(add_emulation_prevention(bytes_of({0, 0, 0})) == bytes_of({0, 0, 3, 0}));
  CHECK(add_emulation_prevention(bytes_of({0, 0, 1})) == bytes_of({0, 0, 3, 1}));
  CHECK(add_emulation_prevention(bytes_of({0, 0, 2})) == bytes_of({0, 0, 3, 2}));
  CHECK(add_emulation_prevention(bytes_of({0, 0, 3})) == bytes_of({0, 0, 3, 3}));
  CHECK(add_emulation_prevention(bytes_of({0, 0, 4})) == bytes_of({0, 0, 4}));
  CHECK(add_emulation_prevention(bytes_of({0, 0})) == bytes_of({0, 0}));
  CHECK(add_emulation_prevention(bytes_of({5, 0, 0, 0, 0, 1})) ==
        bytes_of({5, 0, 0, 3, 0, 0, 3, 1}));
  // The escape byte counts as a non-zero: 00 00 03 00 00 needs no second escape before 05.
  CHECK(add_emulation_prevention(bytes_of({0, 0, 0, 0, 5})) == bytes_of({0, 0, 3, 0, 0, 5}));
  // Whatever the payload, no start code prefix survives, and removing the escapes restores it.
  std::string payload;
  for (int i = 0; i < 4000; ++i) payload += static_cast<char>((i * 37 % 7 == 0) ? 0 : i % 4);
  const std::string escaped = add_emulation_prevention(payload);
  CHECK(escaped.find(bytes_of({0, 0, 0})) == std::string::npos);
  CHECK(escaped.find(bytes_of({0, 0, 1})) == std::string::npos);
  CHECK(escaped.find(bytes_of({0, 0, 2})) == std::string::npos);
  CHECK(rbsp_of(escaped) == payload);
}

TEST_CASE("h264: BT.601 studio-range colours", "[vdevice][android][video]") {
  const auto check = [](Rgb rgb, int y, int cb, int cr) {
    const h264::YuvSample sample = h264::to_yuv(rgb);
    INFO(int(rgb.r) << "," << int(rgb.g) << "," << int(rgb.b));
    CHECK(int(sample.luma) == y);
    CHECK(int(sample.blue_difference) == cb);
    CHECK(int(sample.red_difference) == cr);
  };
  check(Rgb{0, 0, 0}, 16, 128, 128);
  check(Rgb{255, 255, 255}, 235, 128, 128);
  check(Rgb{255, 0, 0}, 82, 90, 240);
  check(Rgb{0, 255, 0}, 144, 54, 34);
  check(Rgb{0, 0, 255}, 41, 240, 110);
}

TEST_CASE("h264: a picture's planes are padded to macroblocks, chroma the 2x2 mean",
          "[vdevice][android][video]") {
  const std::vector<Rgb> pixels = {Rgb{255, 0, 0}, Rgb{0, 0, 255}, Rgb{255, 255, 255},
                                   Rgb{0, 0, 0},   Rgb{0, 0, 0},   Rgb{0, 0, 0}};
  const auto picture = h264::YuvPicture::from_rgb(3, 2, pixels);
  CHECK(picture.macroblock_columns() == 1);
  CHECK(picture.macroblock_rows() == 1);
  CHECK(picture.luma().size() == 256);
  CHECK(picture.blue_difference().size() == 64);
  CHECK(int(picture.luma()[0]) == 82);
  CHECK(int(picture.luma()[1]) == 41);
  CHECK(int(picture.luma()[2]) == 235);
  CHECK(int(picture.luma()[16]) == 16);  // the second row starts one macroblock width on
  // (90 + 240 + 128 + 128) / 4, rounded; the odd last column is its own 1x2 block.
  CHECK(int(picture.blue_difference()[0]) == 147);
  CHECK(int(picture.blue_difference()[1]) == 128);
  CHECK(int(picture.luma()[3]) == 16);  // padding is black
  CHECK_THROWS(h264::YuvPicture::from_rgb(3, 2, std::vector<Rgb>(5)));
}

TEST_CASE("h264: the SPS declares the size, cropping the padding to macroblocks",
          "[vdevice][android][video]") {
  SECTION("360x640: width 23 macroblocks, 8 pixels cropped on the right") {
    const SpsFields sps = parse_sps(h264::sequence_parameter_set(360, 640));
    CHECK(sps.profile == 66);
    CHECK(sps.constraints == 0xC0);
    CHECK(sps.level == 22);
    CHECK(sps.log2_max_frame_num == 16);
    CHECK(sps.pic_order_cnt_type == 2);
    CHECK(sps.max_num_ref_frames == 1);
    CHECK(sps.width_in_macroblocks == 23);
    CHECK(sps.height_in_macroblocks == 40);
    CHECK(sps.frame_mbs_only);
    CHECK(sps.cropping);
    CHECK(sps.crop_left == 0);
    CHECK(sps.crop_right == 4);
    CHECK(sps.crop_top == 0);
    CHECK(sps.crop_bottom == 0);
    CHECK(sps.vui);
    CHECK(sps.width == 360);
    CHECK(sps.height == 640);
  }
  SECTION("1280x720: whole macroblocks, no cropping") {
    const SpsFields sps = parse_sps(h264::sequence_parameter_set(1280, 720));
    CHECK_FALSE(sps.cropping);
    CHECK(sps.width_in_macroblocks == 80);
    CHECK(sps.height_in_macroblocks == 45);
    CHECK(sps.level == 31);
  }
  SECTION("1080x2402: both sides cropped; the level fits the frame size") {
    const SpsFields sps = parse_sps(h264::sequence_parameter_set(1080, 2402));
    CHECK(sps.width == 1080);
    CHECK(sps.height == 2402);
    CHECK(sps.crop_bottom == 7);
    CHECK(sps.level == 50);
  }
  CHECK(h264::level_for(176, 144) == 10);
  CHECK(h264::level_for(720, 1280) == 31);
  CHECK(h264::level_for(1080, 1920) == 40);
  // A 3600-macroblock frame 1 macroblock tall is too wide for 3.1's sqrt(8 x 3600) = 169.
  CHECK(h264::level_for(16 * 200, 16) > 31);
}

TEST_CASE("h264: the PPS: CAVLC, one reference, deblocking control in the slices",
          "[vdevice][android][video]") {
  const std::string nal = h264::picture_parameter_set();
  CHECK(static_cast<std::uint8_t>(nal[0]) == 0x68);
  const std::string rbsp = rbsp_of(nal.substr(1));
  BitReader in(rbsp);
  CHECK(in.unsigned_exp_golomb() == 0);  // pic_parameter_set_id
  CHECK(in.unsigned_exp_golomb() == 0);  // seq_parameter_set_id
  CHECK_FALSE(in.flag());                // entropy_coding_mode_flag
  CHECK_FALSE(in.flag());
  CHECK(in.unsigned_exp_golomb() == 0);  // num_slice_groups_minus1
  CHECK(in.unsigned_exp_golomb() == 0);
  CHECK(in.unsigned_exp_golomb() == 0);
  CHECK_FALSE(in.flag());
  CHECK(in.bits(2) == 0);
  CHECK(in.signed_exp_golomb() == 0);
  CHECK(in.signed_exp_golomb() == 0);
  CHECK(in.signed_exp_golomb() == 0);
  CHECK(in.flag());  // deblocking_filter_control_present_flag
  CHECK_FALSE(in.flag());
  CHECK_FALSE(in.flag());
  in.expect_trailing_bits();
}

TEST_CASE("h264: an IDR picture is every macroblock as I_PCM", "[vdevice][android][video]") {
  const h264::YuvPicture picture = gradient_picture(40, 20, 1);  // 3 x 2 macroblocks
  const std::string nal = h264::idr_picture(picture, 7);
  CHECK(static_cast<std::uint8_t>(nal[0]) == 0x65);  // nal_ref_idc 3, IDR slice
  const std::string rbsp = rbsp_of(nal.substr(1));
  BitReader in(rbsp);
  const SliceHeader header = read_slice_header(in, true);
  CHECK(header.first_mb == 0);
  CHECK(header.slice_type == 7);
  CHECK(header.frame_num == 0);
  CHECK(header.idr_pic_id == 7);
  for (int index = 0; index < picture.macroblock_count(); ++index) {
    INFO("macroblock " << index);
    CHECK(in.unsigned_exp_golomb() == 25);  // I_PCM
    while (!in.aligned()) CHECK(in.bits(1) == 0);
    CHECK(in.bytes(384) == expected_pcm(picture, index));
  }
  in.expect_trailing_bits();
}

TEST_CASE("h264: a P picture skips what did not change and codes the rest as I_PCM",
          "[vdevice][android][video]") {
  const h264::YuvPicture picture = gradient_picture(64, 48, 2);  // 4 x 3 macroblocks
  SECTION("unchanged: one skip run, a few bytes") {
    const std::string nal = h264::p_picture(picture, std::vector<bool>(12, false), 3);
    CHECK(static_cast<std::uint8_t>(nal[0]) == 0x61);  // nal_ref_idc 3, non-IDR slice
    const std::string rbsp = rbsp_of(nal.substr(1));
    BitReader in(rbsp);
    const SliceHeader header = read_slice_header(in, false);
    CHECK(header.slice_type == 5);
    CHECK(header.frame_num == 3);
    CHECK(in.unsigned_exp_golomb() == 12);  // mb_skip_run: all of them
    in.expect_trailing_bits();
    CHECK(nal.size() < 12);
  }
  SECTION("macroblocks 0, 5 and 6 changed; the picture ends with a skip run") {
    std::vector<bool> changed(12, false);
    changed[0] = changed[5] = changed[6] = true;
    const std::string nal = h264::p_picture(picture, changed, 65537);
    const std::string rbsp = rbsp_of(nal.substr(1));
    BitReader in(rbsp);
    const SliceHeader header = read_slice_header(in, false);
    CHECK(header.frame_num == 1);  // modulo 2^16
    for (const auto& [skipped, index] : {std::pair{0, 0}, {4, 5}, {0, 6}}) {
      INFO("macroblock " << index);
      CHECK(in.unsigned_exp_golomb() == static_cast<std::uint64_t>(skipped));
      CHECK(in.unsigned_exp_golomb() == 30);  // I_PCM in a P slice
      while (!in.aligned()) CHECK(in.bits(1) == 0);
      CHECK(in.bytes(384) == expected_pcm(picture, index));
    }
    CHECK(in.unsigned_exp_golomb() == 5);
    in.expect_trailing_bits();
  }
  SECTION("the last macroblock changed: no skip run after it") {
    std::vector<bool> changed(12, false);
    changed[11] = true;
    const std::string rbsp = rbsp_of(h264::p_picture(picture, changed, 1).substr(1));
    BitReader in(rbsp);
    read_slice_header(in, false);
    CHECK(in.unsigned_exp_golomb() == 11);
    CHECK(in.unsigned_exp_golomb() == 30);
    while (!in.aligned()) in.bits(1);
    CHECK(in.bytes(384) == expected_pcm(picture, 11));
    in.expect_trailing_bits();
  }
  CHECK_THROWS(h264::p_picture(picture, std::vector<bool>(11, false), 1));
}

TEST_CASE("h264: macroblocks compare by their samples", "[vdevice][android][video]") {
  const h264::YuvPicture a = gradient_picture(64, 16, 3);
  std::vector<Rgb> pixels;
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 64; ++x) {
      pixels.push_back(Rgb{static_cast<std::uint8_t>(x * 7 + 3),
                           static_cast<std::uint8_t>(y * 5 + 9),
                           static_cast<std::uint8_t>((x + y) * 3 + 33)});
    }
  }
  pixels[static_cast<std::size_t>(5 * 64 + 40)] = Rgb{1, 2, 3};  // inside macroblock 2
  const auto b = h264::YuvPicture::from_rgb(64, 16, pixels);
  CHECK(a.same_macroblock(b, 0));
  CHECK(a.same_macroblock(b, 1));
  CHECK_FALSE(a.same_macroblock(b, 2));
  CHECK(a.same_macroblock(b, 3));
  CHECK_FALSE(a.same_macroblock(h264::YuvPicture(32, 16), 0));  // another size
}
