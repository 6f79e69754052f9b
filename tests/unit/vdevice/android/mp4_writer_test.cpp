#include "vdevice/android/formats/mp4_writer.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "vdevice/android/formats/h264_writer.hpp"
#include "video_test_support.hpp"

using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

// A track of three samples: an IDR of 1000 bytes, two P of 7, 100 ms each but the last 40 ms.
mp4::VideoTrack three_sample_track() {
  mp4::VideoTrack track;
  track.width = 360;
  track.height = 640;
  track.sequence_parameter_set = h264::sequence_parameter_set(360, 640);
  track.picture_parameter_set = h264::picture_parameter_set();
  track.samples.add(1000, 9000, true);
  track.samples.add(7, 9000, false);
  track.samples.add(7, 3600, false);
  track.first_sample_offset = 40;
  track.creation_time = mp4::kSecondsFrom1904To1970 + 1708344000;
  return track;
}

std::uint32_t field(const Mp4Box& box, std::size_t at) {
  return read_be32(box.body, at);
}

}  // namespace

TEST_CASE("mp4: ftyp and the mdat header", "[vdevice][android][video]") {
  const std::string ftyp = mp4::file_type_box();
  CHECK(ftyp == std::string("\0\0\0\x20"
                            "ftypisom\0\0\x02\0isomiso2avc1mp41",
                            32));
  CHECK(mp4::media_data_box_header(0) == std::string("\0\0\0\0mdat", 8));  // to the end of file
  CHECK(mp4::media_data_box_header(100) == std::string("\0\0\0\x6cmdat", 8));
  CHECK_THROWS_AS(mp4::media_data_box_header(0xFFFFFFFFULL), std::length_error);
  CHECK(mp4::length_prefixed("\x65\x01\x02") == std::string("\0\0\0\x03\x65\x01\x02", 7));
}

TEST_CASE("mp4: the sample table runs equal durations together", "[vdevice][android][video]") {
  mp4::SampleTable table;
  table.add(500, 9000, true);
  table.add(6, 9000, false);
  table.add(6, 9000, false);
  table.add(400, 9000, true);
  table.add(6, 1234, false);
  CHECK(table.count() == 5);
  CHECK(table.total_duration() == 4 * 9000 + 1234);
  CHECK(table.durations() == std::vector<mp4::DurationRun>{{4, 9000}, {1, 1234}});
  CHECK(table.sync_samples() == std::vector<std::uint32_t>{1, 4});
  CHECK(table.sizes() == std::vector<std::uint32_t>{500, 6, 6, 400, 6});
}

TEST_CASE("mp4: moov holds one video track with its sample tables", "[vdevice][android][video]") {
  const mp4::VideoTrack track = three_sample_track();
  const std::string moov = mp4::movie_box(track);
  // The whole tree parses, every box filling its parent exactly.
  const std::vector<Mp4Box> top = boxes_in(moov);
  REQUIRE(top.size() == 1);
  CHECK(top[0].type == "moov");
  const std::vector<Mp4Box> movie = boxes_in(top[0].body);
  REQUIRE(movie.size() == 2);
  CHECK(movie[0].type == "mvhd");
  CHECK(movie[1].type == "trak");
  const auto box = [&](const std::string& path) {
    auto found = find_box(moov, path);
    INFO(path);
    REQUIRE(found);
    return *found;
  };
  CHECK(boxes_in(box("moov/trak").body).size() == 2);       // tkhd, mdia
  CHECK(boxes_in(box("moov/trak/mdia").body).size() == 3);  // mdhd, hdlr, minf

  const Mp4Box mvhd = box("moov/mvhd");
  CHECK(mvhd.body.size() == 100);
  CHECK(field(mvhd, 4) == track.creation_time);
  CHECK(field(mvhd, 12) == 1000);  // timescale
  CHECK(field(mvhd, 16) == 240);   // 21600 ticks of 90 kHz = 240 ms
  CHECK(field(mvhd, 96) == 2);     // next_track_ID

  const Mp4Box tkhd = box("moov/trak/tkhd");
  CHECK(field(tkhd, 0) == 3);   // version 0, enabled and in the movie
  CHECK(field(tkhd, 12) == 1);  // track_ID
  CHECK(field(tkhd, 20) == 240);
  CHECK(field(tkhd, 76) == 360U << 16);
  CHECK(field(tkhd, 80) == 640U << 16);

  const Mp4Box mdhd = box("moov/trak/mdia/mdhd");
  CHECK(field(mdhd, 12) == 90000);
  CHECK(field(mdhd, 16) == 21600);
  CHECK(read_be16(mdhd.body, 20) == 0x55C4);  // "und"

  CHECK(box("moov/trak/mdia/hdlr").body.substr(8, 4) == "vide");
  CHECK(box("moov/trak/mdia/minf/vmhd").body.size() == 12);
  CHECK(box("moov/trak/mdia/minf/dinf/dref/url ").body == std::string("\0\0\0\x01", 4));

  const Mp4Box avc1 = box("moov/trak/mdia/minf/stbl/stsd/avc1");
  CHECK(read_be16(avc1.body, 24) == 360);
  CHECK(read_be16(avc1.body, 26) == 640);
  const Mp4Box avcc = box("moov/trak/mdia/minf/stbl/stsd/avc1/avcC");
  const std::string& sps = track.sequence_parameter_set;
  const std::string& pps = track.picture_parameter_set;
  CHECK(avcc.body.substr(0, 6) == std::string("\x01\x42\xC0\x16\xFF\xE1", 6));
  CHECK(read_be16(avcc.body, 6) == sps.size());
  CHECK(avcc.body.substr(8, sps.size()) == sps);
  CHECK(avcc.body[8 + sps.size()] == '\x01');
  CHECK(read_be16(avcc.body, 9 + sps.size()) == pps.size());
  CHECK(avcc.body.substr(11 + sps.size()) == pps);

  const Mp4Box stts = box("moov/trak/mdia/minf/stbl/stts");
  CHECK(stts.body == std::string("\0\0\0\0"
                                 "\0\0\0\x02"
                                 "\0\0\0\x02\0\0\x23\x28"
                                 "\0\0\0\x01\0\0\x0e\x10",
                                 24));
  CHECK(box("moov/trak/mdia/minf/stbl/stss").body ==
        std::string("\0\0\0\0\0\0\0\x01\0\0\0\x01", 12));
  CHECK(box("moov/trak/mdia/minf/stbl/stsc").body ==
        std::string("\0\0\0\0\0\0\0\x01\0\0\0\x01\0\0\0\x03\0\0\0\x01", 20));
  CHECK(box("moov/trak/mdia/minf/stbl/stsz").body ==
        std::string("\0\0\0\0\0\0\0\0\0\0\0\x03\0\0\x03\xe8\0\0\0\x07\0\0\0\x07", 24));
  CHECK(box("moov/trak/mdia/minf/stbl/stco").body ==
        std::string("\0\0\0\0\0\0\0\x01\0\0\0\x28", 12));
}
