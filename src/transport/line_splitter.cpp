#include "clawperator/transport/line_splitter.hpp"

namespace clawperator::transport {

namespace {

// Past one huge line, give the memory back rather than keep it for the life of the reader.
constexpr std::size_t kRetainedPartialCapacity = std::size_t{64} << 10;

std::string_view without_carriage_return(std::string_view line) noexcept {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

LineSplitter::LineSplitter(std::size_t max_line_bytes) noexcept : max_line_bytes_(max_line_bytes) {}

std::vector<std::string> LineSplitter::feed(std::string_view bytes) {
  std::vector<std::string> lines;
  feed(bytes, [&lines](std::string_view line) { lines.emplace_back(line); });
  return lines;
}

std::optional<std::string_view> LineSplitter::next_line(std::string_view& bytes) {
  if (partial_was_delivered_) {
    partial_was_delivered_ = false;
    release_partial();
  }
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) {
      absorb_partial(bytes);
      bytes = {};
      return std::nullopt;
    }
    const std::string_view piece = bytes.substr(0, newline);
    bytes.remove_prefix(newline + 1);

    if (skipping_to_newline_) {
      skipping_to_newline_ = false;
      continue;
    }
    if (partial_.size() + piece.size() > max_line_bytes_) {
      ++overlong_lines_;
      release_partial();
      continue;
    }
    if (partial_.empty()) return without_carriage_return(piece);  // no copy
    partial_.append(piece);
    partial_was_delivered_ = true;
    return without_carriage_return(partial_);
  }
  return std::nullopt;
}

void LineSplitter::absorb_partial(std::string_view bytes) {
  if (skipping_to_newline_) return;
  if (partial_.size() + bytes.size() > max_line_bytes_) {
    ++overlong_lines_;
    release_partial();
    skipping_to_newline_ = true;
    return;
  }
  partial_.append(bytes);
}

void LineSplitter::release_partial() noexcept {
  if (partial_.capacity() > kRetainedPartialCapacity) {
    std::string().swap(partial_);
  } else {
    partial_.clear();
  }
}

void LineSplitter::discard_partial() noexcept {
  if (partial_was_delivered_) {
    partial_was_delivered_ = false;
    release_partial();
  }
  if (!partial_.empty()) skipping_to_newline_ = true;
  release_partial();
}

std::optional<std::string> LineSplitter::finish() {
  if (partial_was_delivered_) {
    partial_was_delivered_ = false;
    release_partial();
  }
  skipping_to_newline_ = false;
  if (partial_.empty()) return std::nullopt;
  std::string tail(without_carriage_return(partial_));
  release_partial();
  return tail;
}

std::size_t LineSplitter::pending_bytes() const noexcept {
  return partial_was_delivered_ ? 0 : partial_.size();
}

}  // namespace clawperator::transport
