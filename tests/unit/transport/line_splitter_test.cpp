#include "clawperator/transport/line_splitter.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "transport_test_support.hpp"

using clawperator::transport::LineSplitter;
using Lines = std::vector<std::string>;

namespace {

Lines feed_pieces(LineSplitter& splitter, const std::vector<std::string_view>& pieces) {
  Lines lines;
  for (std::string_view piece : pieces) {
    splitter.feed(piece, [&lines](std::string_view line) { lines.emplace_back(line); });
  }
  return lines;
}

}  // namespace

TEST_CASE("line splitter delivers complete lines without terminators", "[transport][splitter]") {
  LineSplitter splitter;
  CHECK(splitter.feed("one\ntwo\r\n\nthree") == Lines{"one", "two", ""});
  CHECK(splitter.pending_bytes() == 5);
  CHECK(splitter.feed(" more\r") == Lines{});
  CHECK(splitter.feed("\n") == Lines{"three more"});
  CHECK(splitter.pending_bytes() == 0);
  CHECK_FALSE(splitter.finish().has_value());
}

TEST_CASE("line splitter strips only one trailing carriage return", "[transport][splitter]") {
  LineSplitter splitter;
  CHECK(splitter.feed("a\r\r\nb\rc\n") == Lines{"a\r", "b\rc"});
}

TEST_CASE("line splitter reassembles lines from random pieces, down to single bytes",
          "[transport][splitter]") {
  const std::string text =
      "first line\nsecond ünïcödé 漢字 🙂 line\r\n\n"
      "a much longer third line with some padding padding padding padding\nunterminated tail 🙂";
  const Lines expected{"first line", "second ünïcödé 漢字 🙂 line", "",
                       "a much longer third line with some padding padding padding padding"};

  for (unsigned seed : {1U, 2U, 3U, 42U, 1234U}) {
    for (std::size_t max_piece :
         {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{64}}) {
      INFO("seed " << seed << ", max piece " << max_piece);
      LineSplitter splitter;
      const auto pieces = clawperator::transport::test::random_pieces(text, seed, max_piece);
      CHECK(feed_pieces(splitter, pieces) == expected);
      const std::optional<std::string> tail = splitter.finish();
      REQUIRE(tail.has_value());
      CHECK(*tail == "unterminated tail 🙂");
    }
  }
}

TEST_CASE("line splitter keeps a UTF-8 character split across pieces intact",
          "[transport][splitter]") {
  const std::string emoji = "🙂";  // F0 9F 99 82
  REQUIRE(emoji.size() == 4);
  LineSplitter splitter;
  CHECK(splitter.feed("x" + emoji.substr(0, 1)) == Lines{});
  CHECK(splitter.feed(emoji.substr(1, 2)) == Lines{});
  CHECK(splitter.feed(emoji.substr(3) + "y\n") == Lines{"x🙂y"});
}

TEST_CASE("line splitter drops an overlong line whole and counts it", "[transport][splitter]") {
  LineSplitter splitter(8);
  SECTION("arriving in one piece") {
    CHECK(splitter.feed("12345678\n123456789\nok\n") == Lines{"12345678", "ok"});
    CHECK(splitter.overlong_lines() == 1);
  }
  SECTION("arriving in pieces: never buffered past the cap") {
    CHECK(splitter.feed("12345") == Lines{});
    CHECK(splitter.feed("6789") == Lines{});
    CHECK(splitter.pending_bytes() == 0);
    CHECK(splitter.overlong_lines() == 1);
    CHECK(splitter.feed("still the same long line") == Lines{});
    CHECK(splitter.pending_bytes() == 0);
    CHECK(splitter.feed(" end\nnext\n") == Lines{"next"});
    CHECK(splitter.overlong_lines() == 1);
  }
  SECTION("a partial that completes past the cap") {
    CHECK(splitter.feed("12345") == Lines{});
    CHECK(splitter.feed("6789\nok\n") == Lines{"ok"});
    CHECK(splitter.overlong_lines() == 1);
  }
  SECTION("an overlong tail is not reported by finish") {
    CHECK(splitter.feed("123456789") == Lines{});
    CHECK_FALSE(splitter.finish().has_value());
    CHECK(splitter.overlong_lines() == 1);
    CHECK(splitter.feed("fresh\n") == Lines{"fresh"});
  }
}

TEST_CASE("line splitter default cap is 4 MiB", "[transport][splitter]") {
  LineSplitter splitter;
  CHECK(splitter.max_line_bytes() == 4U * 1024U * 1024U);
  const std::string at_cap(4U * 1024U * 1024U, 'x');
  const Lines lines = splitter.feed(at_cap + "\n" + at_cap + "y\nz\n");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].size() == at_cap.size());
  CHECK(lines[1] == "z");
  CHECK(splitter.overlong_lines() == 1);
}

TEST_CASE("line splitter discard_partial drops the whole line in progress",
          "[transport][splitter]") {
  LineSplitter splitter;
  CHECK(splitter.feed("done\nhalf of a li") == Lines{"done"});
  splitter.discard_partial();
  CHECK(splitter.pending_bytes() == 0);
  CHECK(splitter.feed("ne before the cut\nafter\n") == Lines{"after"});
  CHECK(splitter.overlong_lines() == 0);

  SECTION("at a line boundary nothing is dropped") {
    splitter.discard_partial();
    CHECK(splitter.feed("kept\n") == Lines{"kept"});
  }
}

TEST_CASE("line splitter finish strips a trailing carriage return and resets",
          "[transport][splitter]") {
  LineSplitter splitter;
  CHECK(splitter.feed("tail\r") == Lines{});
  CHECK(splitter.finish() == std::optional<std::string>("tail"));
  CHECK_FALSE(splitter.finish().has_value());
  CHECK(splitter.feed("again\n") == Lines{"again"});
}

TEST_CASE("line splitter views stay valid during the callback after buffering",
          "[transport][splitter]") {
  LineSplitter splitter;
  Lines lines;
  splitter.feed("par", [&lines](std::string_view line) { lines.emplace_back(line); });
  splitter.feed("tial\nwhole\nnext par",
                [&lines](std::string_view line) { lines.emplace_back(line); });
  splitter.feed("t\n", [&lines](std::string_view line) { lines.emplace_back(line); });
  CHECK(lines == Lines{"partial", "whole", "next part"});
}
