// The correlated-line ring is filled lazily (lines are copied when feed() returns); whatever the
// read sizes, it must hold exactly what copying every line at once would hold.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/transport/result_stream.hpp"
#include "transport_test_support.hpp"

using namespace clawperator::transport;

namespace {

std::string cut_on_character(std::string_view line, std::size_t max_bytes) {
  if (line.size() <= max_bytes) return std::string(line);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return std::string(line.substr(0, cut));
}

// The last 20 complete lines in `consumed` that mention the command.
std::vector<std::string> expected_correlated(std::string_view consumed, std::string_view command) {
  std::vector<std::string> lines;
  while (true) {
    const std::size_t newline = consumed.find('\n');
    if (newline == std::string_view::npos) break;
    std::string_view line = consumed.substr(0, newline);
    consumed.remove_prefix(newline + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.find(command) != std::string_view::npos) {
      lines.push_back(cut_on_character(line, ResultStreamDecoder::kMaxCorrelatedLineBytes));
    }
  }
  if (lines.size() > ResultStreamDecoder::kMaxCorrelatedLines) {
    lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(
                                                 ResultStreamDecoder::kMaxCorrelatedLines));
  }
  return lines;
}

}  // namespace

TEST_CASE("result stream: correlated lines are the same whatever the read sizes",
          "[transport][result]") {
  std::mt19937 random(7);
  std::string stream;
  for (int i = 0; i < 300; ++i) {
    const std::size_t length = i % 17 == 0 ? 2100 + random() % 100 : random() % 300;
    std::string text;
    while (text.size() < length) text += i % 5 == 0 ? "漢" : "x";
    const bool ours = random() % 3 != 0;
    stream +=
        test::time_line("Tag", (ours ? "cmd-7f3a " : "other ") + std::to_string(i) + " " + text);
    stream += i % 7 == 0 ? "\r\n" : "\n";
  }
  for (const std::size_t max_piece : {1, 7, 100, 1500, 4096, 65536}) {
    for (unsigned seed = 0; seed < 3; ++seed) {
      ResultStreamDecoder decoder("cmd-7f3a", "task-1");
      decoder.begin_capture();
      std::size_t consumed = 0;
      for (const std::string_view piece : test::random_pieces(stream, seed, max_piece)) {
        decoder.feed(piece);
        consumed += piece.size();
        if (random() % 8 == 0) {
          REQUIRE(decoder.correlated_lines() ==
                  expected_correlated(std::string_view(stream).substr(0, consumed), "cmd-7f3a"));
        }
      }
      CHECK(decoder.correlated_lines() == expected_correlated(stream, "cmd-7f3a"));
    }
  }
}

TEST_CASE("result stream: an unterminated last line is remembered at finish",
          "[transport][result]") {
  ResultStreamDecoder decoder("cmd-7f3a", "task-1");
  decoder.begin_capture();
  decoder.feed(test::time_line("Tag", "cmd-7f3a first") + "\n");
  decoder.feed(test::time_line("Tag", "cmd-7f3a last, no newline"));
  decoder.finish();
  CHECK(decoder.correlated_lines() ==
        std::vector<std::string>{test::time_line("Tag", "cmd-7f3a first"),
                                 test::time_line("Tag", "cmd-7f3a last, no newline")});
}
