// Turns the reader's stdout, arriving in pieces of any size, into lines.
// Works on bytes only: a UTF-8 character split across pieces is rejoined untouched.
#pragma once

#include <concepts>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawperator::transport {

class LineSplitter {
 public:
  // logcat never writes a line anywhere near this long; the cap only bounds memory when the
  // stream is not logcat at all.
  static constexpr std::size_t kDefaultMaxLineBytes = std::size_t{4} << 20;

  explicit LineSplitter(std::size_t max_line_bytes = kDefaultMaxLineBytes) noexcept;

  // Calls on_line(std::string_view) once per completed line, without its "\n" and without
  // one trailing "\r". The view is valid only during the call.
  template <typename OnLine>
  requires std::invocable<OnLine&, std::string_view>
  void feed(std::string_view bytes, OnLine&& on_line) {
    while (std::optional<std::string_view> line = next_line(bytes)) on_line(*line);
  }

  // The same, for callers that prefer owning copies.
  std::vector<std::string> feed(std::string_view bytes);

  // Drops the partial line received so far, and the rest of that line when it arrives: its
  // start predates the caller's cut-off (the dispatch moment).
  void discard_partial() noexcept;

  // Ends the stream. Returns the unterminated tail, if any: a line whose end was never seen,
  // so it may be truncated. The splitter is then empty and may be fed again.
  std::optional<std::string> finish();

  // Lines longer than the cap (bytes before "\n"), dropped whole and never buffered past it.
  std::size_t overlong_lines() const noexcept { return overlong_lines_; }
  std::size_t pending_bytes() const noexcept;
  std::size_t max_line_bytes() const noexcept { return max_line_bytes_; }

 private:
  // Consumes bytes up to and including the next completed line and returns that line, or
  // keeps the remainder as the partial line and returns nullopt.
  std::optional<std::string_view> next_line(std::string_view& bytes);
  void absorb_partial(std::string_view bytes);
  void release_partial() noexcept;

  std::size_t max_line_bytes_;
  std::string partial_;
  // partial_ holds the line last returned by next_line(); clear it on the next call.
  bool partial_was_delivered_ = false;
  // Inside a line that is being dropped (overlong, or discarded at the cut-off).
  bool skipping_to_newline_ = false;
  std::size_t overlong_lines_ = 0;
};

}  // namespace clawperator::transport
