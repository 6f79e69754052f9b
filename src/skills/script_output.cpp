#include "clawperator/skills/script_output.hpp"

#include <algorithm>
#include <cstring>

#include "clawperator/skills/skill_result.hpp"

namespace clawperator::skills {
namespace {

std::string_view trim_result_text(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

}  // namespace

BoundedCapture::BoundedCapture(std::size_t head_bytes, std::size_t tail_bytes)
    : head_cap_(head_bytes), tail_cap_(tail_bytes) {}

void BoundedCapture::append(std::string_view bytes) {
  total_ += bytes.size();
  const std::size_t to_head = std::min(bytes.size(), head_cap_ - head_.size());
  head_.append(bytes.substr(0, to_head));
  bytes.remove_prefix(to_head);
  if (bytes.empty() || tail_cap_ == 0) return;
  if (bytes.size() >= tail_cap_) {
    tail_.assign(bytes.substr(bytes.size() - tail_cap_));
    return;
  }
  tail_.append(bytes);
  if (tail_.size() > 2 * tail_cap_) tail_.erase(0, tail_.size() - tail_cap_);
}

std::string BoundedCapture::text() const {
  const std::size_t keep = std::min(tail_.size(), tail_cap_);
  std::string out;
  out.reserve(head_.size() + keep);
  out.append(head_);
  out.append(tail_, tail_.size() - keep, keep);
  return out;
}

std::uint64_t BoundedCapture::omitted_bytes() const {
  const std::uint64_t kept = head_.size() + std::min(tail_.size(), tail_cap_);
  return total_ - kept;
}

StreamingSearch::StreamingSearch(std::string needle) : needle_(std::move(needle)) {
  found_ = needle_.empty();
}

void StreamingSearch::feed(std::string_view chunk) {
  if (found_ || chunk.empty()) return;
  const std::size_t keep = needle_.size() - 1;
  // A match across the boundary starts in the carry and ends in the first keep bytes of chunk.
  if (!carry_.empty()) {
    std::string boundary = carry_;
    boundary.append(chunk.substr(0, std::min(keep, chunk.size())));
    if (boundary.find(needle_) != std::string::npos) {
      found_ = true;
      return;
    }
  }
  if (chunk.find(needle_) != std::string_view::npos) {
    found_ = true;
    return;
  }
  if (chunk.size() >= keep) {
    carry_.assign(chunk.substr(chunk.size() - keep));
  } else {
    carry_.append(chunk);
    if (carry_.size() > keep) carry_.erase(0, carry_.size() - keep);
  }
}

SkillResultScanner::Line read_skill_result(std::string_view text) {
  SkillResultScanner::Line line;
  Json parsed = parse_json(trim_result_text(text));
  if (parsed.is_discarded()) {
    line.error = "the text after the marker is not valid JSON";
    return line;
  }
  if (!parsed.is_object()) {
    line.error = "the text after the marker is not a JSON object";
    return line;
  }
  if (!parsed.contains("source")) parsed["source"] = Json{{"kind", "script"}};
  // The object must be a SkillResult, as the original's emittedSkillResultSchema demands and
  // as `recording compare` later checks it (skills/skill_result.cpp): a run must not report a
  // result that compare would refuse.
  const std::vector<std::string> issues = skill_result_issues(parsed);
  if (!issues.empty()) {
    line.error = "the object is not a SkillResult: ";
    for (std::size_t i = 0; i < issues.size(); ++i) line.error += (i == 0 ? "" : "; ") + issues[i];
    return line;
  }
  line.value = std::move(parsed);
  return line;
}

Json script_output_json(std::string_view stdout_text) {
  std::string rest;
  rest.reserve(stdout_text.size());
  while (!stdout_text.empty()) {
    const std::size_t newline = stdout_text.find('\n');
    const std::size_t end = newline == std::string_view::npos ? stdout_text.size() : newline + 1;
    const std::string_view line = stdout_text.substr(0, end);
    if (line.substr(0, kSkillResultMarker.size()) != kSkillResultMarker) rest.append(line);
    stdout_text.remove_prefix(end);
  }
  const std::string_view text = trim_result_text(rest);
  if (text.empty()) return nullptr;
  Json parsed = parse_json(text);
  if (parsed.is_discarded()) return nullptr;
  return parsed;
}

void SkillResultScanner::end_line() {
  if (mode_ == Mode::Capturing) {
    if (overflow_) {
      Line line;
      line.error =
          "the result line is longer than " + std::to_string(kMaxSkillResultLineBytes) + " bytes";
      last_ = std::move(line);
    } else {
      last_ = read_skill_result(buffer_);
    }
    last_->line_number = line_number_;
  }
  ++line_number_;
  mode_ = Mode::Matching;
  buffer_.clear();
  overflow_ = false;
}

void SkillResultScanner::feed(std::string_view chunk) {
  while (!chunk.empty()) {
    const auto newline = static_cast<const char*>(std::memchr(chunk.data(), '\n', chunk.size()));
    const std::size_t line_end =
        newline == nullptr ? chunk.size() : static_cast<std::size_t>(newline - chunk.data());
    std::string_view piece = chunk.substr(0, line_end);
    if (mode_ == Mode::Matching) {
      // buffer_ holds the start of the line, a prefix of the marker so far.
      const std::size_t wanted = kSkillResultMarker.size() - buffer_.size();
      const std::string_view start = piece.substr(0, std::min(wanted, piece.size()));
      if (kSkillResultMarker.substr(buffer_.size(), start.size()) != start) {
        mode_ = Mode::Skipping;
      } else {
        buffer_.append(start);
        piece.remove_prefix(start.size());
        if (buffer_.size() == kSkillResultMarker.size()) {
          buffer_.clear();
          mode_ = Mode::Capturing;
        }
      }
    }
    if (mode_ == Mode::Capturing && !overflow_) {
      if (buffer_.size() + piece.size() > kMaxSkillResultLineBytes) {
        overflow_ = true;
        buffer_.clear();
      } else {
        buffer_.append(piece);
      }
    }
    if (newline == nullptr) return;
    end_line();
    chunk.remove_prefix(line_end + 1);
  }
}

void SkillResultScanner::finish() {
  if (mode_ == Mode::Capturing) end_line();
}

}  // namespace clawperator::skills
