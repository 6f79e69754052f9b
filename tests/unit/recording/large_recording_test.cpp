// A recording of ~100 MB is parsed and exported in bounded memory: the reader holds one line at
// a time and the writers stream, so the peak resident set grows by far less than the file
// (docs/performance.md, "Recording parse").
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>

#include "clawperator/recording/export.hpp"
#include "clawperator/recording/parse.hpp"
#include "proc_files.hpp"
#include "recording_lines.hpp"
#include "scripted_device.hpp"

using namespace clawperator;
using namespace clawperator::test_recording;

namespace {

// VmHWM (peak resident set) of this process, in KiB.
long peak_rss_kib() {
  const std::string status = testing::read_proc_file("/proc/self/status");
  const auto at = status.find("VmHWM:");
  REQUIRE(at != std::string::npos);
  return std::stol(status.substr(at + 6));
}

// Resets VmHWM to the current resident set (Linux: "5" to clear_refs), so that what earlier
// tests in this process used does not hide what this one uses.
void reset_peak_rss() {
  std::ofstream("/proc/self/clear_refs") << "5";
}

}  // namespace

TEST_CASE("a 100 MB recording is parsed and exported in bounded memory", "[recording][large]") {
  const testing::TemporaryDirectory dir{"recording-large"};
  const auto input = dir.path() / "big.ndjson";
  // 100 events of ~1 MiB each: a click whose snapshot is a large hierarchy.
  std::string nodes;
  for (int index = 0; nodes.size() < (std::size_t{1} << 20); ++index) {
    nodes +=
        node("com.example.app:id/row_" + std::to_string(index), "Row " + std::to_string(index));
  }
  const std::string snapshot = hierarchy(nodes);
  constexpr int kEvents = 100;
  {
    std::ofstream out(input, std::ios::binary);
    out << header_line("big") << '\n';
    for (int seq = 0; seq < kEvents; ++seq) {
      ClickFields row;
      row.resource_id = "com.example.app:id/row_" + std::to_string(seq);
      out << (seq == 0 ? window_change_line(seq, "com.example.app", snapshot)
                       : click_line(seq, row, snapshot))
          << '\n';
    }
  }
  const auto input_bytes = std::filesystem::file_size(input);
  REQUIRE(input_bytes > 100'000'000);

  reset_peak_rss();
  const long before = peak_rss_kib();
  auto parsed = recording::parse_recording({input, std::nullopt, nullptr});
  REQUIRE(parsed.has_value());
  CHECK(parsed->at("stepCount") == kEvents);
  CHECK(std::filesystem::file_size(dir.path() / "big.steps.json") > input_bytes);
  auto exported =
      recording::export_recording({input, std::nullopt, recording::SnapshotMode::Include});
  REQUIRE(exported.has_value());
  CHECK(exported->at("eventCount") == kEvents);
  const long growth_kib = peak_rss_kib() - before;
  INFO("input " << input_bytes << " bytes; peak RSS growth " << growth_kib << " KiB");
  std::fprintf(stderr, "recording parse+export of %ju bytes: peak RSS growth %ld KiB\n",
               static_cast<std::uintmax_t>(input_bytes), growth_kib);
  CHECK(growth_kib < 64 * 1024);
}
