#include "clawperator/transport/result_stream.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

#include "clawperator/json.hpp"
#include "clawperator/text.hpp"

namespace clawperator::transport {

namespace {

constexpr std::string_view kHierarchyEnd = "</hierarchy>";
// What a result record ("[Clawperator-Result] ") and a chunk record ("[Clawperator-Result-Chunk]")
// both start with.
constexpr std::string_view kRecordPrefix = "[Clawperator-Result";

// Cuts at most max_bytes without splitting a UTF-8 sequence (continuation bytes: 10xxxxxx).
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) noexcept {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut);
}

// Android's uid = user id * 100000 + app id (AID_USER_OFFSET); nullopt for a name (root, shell)
// or anything that is not a decimal uid.
std::optional<std::uint64_t> app_id_of(std::string_view uid) noexcept {
  if (uid.empty() || uid.size() > 10) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : uid) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  constexpr std::uint64_t kUserOffset = 100000;
  return value % kUserOffset;
}

}  // namespace

ResultStreamDecoder::ResultStreamDecoder(std::string command_id, std::string task_id,
                                         std::string operator_package)
    : command_id_(std::move(command_id)),
      task_id_(std::move(task_id)),
      pruned_uid_name_(operator_package.empty() ? std::string() : "(" + operator_package + ")"),
      quoted_command_id_(quote_json(command_id_)),
      snapshot_marker_("[TaskScope] UI Hierarchy [commandId=" + command_id_ + "]:"),
      reassembler_(command_id_, task_id_),
      correlated_ring_(kMaxCorrelatedLines) {}

void ResultStreamDecoder::feed(std::string_view stdout_bytes) {
  stdout_bytes_seen_ += stdout_bytes.size();
  current_input_ = stdout_bytes;
  try {
    splitter_.feed(stdout_bytes, [this](std::string_view line) { read_line(line); });
  } catch (...) {
    // The noted lines point into the caller's buffer: never keep them past this call.
    pending_count_ = 0;
    current_input_ = {};
    throw;
  }
  flush_pending_correlated();
  current_input_ = {};
}

void ResultStreamDecoder::begin_capture() noexcept {
  if (capturing_) return;
  splitter_.discard_partial();
  capturing_ = true;
}

void ResultStreamDecoder::finish() {
  if (std::optional<std::string> tail = splitter_.finish()) {
    read_line(*tail);
    flush_pending_correlated();
  }
  close_snapshot();
}

const ChunkDiagnostics& ResultStreamDecoder::chunk_diagnostics() const noexcept {
  if (const auto* malformed = std::get_if<MalformedResult>(&status_)) return malformed->transport;
  return reassembler_.diagnostics();
}

std::vector<std::string> ResultStreamDecoder::correlated_lines() const {
  std::vector<std::string> lines;
  lines.reserve(correlated_count_);
  const std::size_t oldest =
      (correlated_next_ + kMaxCorrelatedLines - correlated_count_) % kMaxCorrelatedLines;
  for (std::size_t i = 0; i < correlated_count_; ++i) {
    lines.push_back(correlated_ring_[(oldest + i) % kMaxCorrelatedLines]);
  }
  return lines;
}

void ResultStreamDecoder::read_line(std::string_view line) {
  // Before dispatch nothing can be ours; such lines only count as observed bytes.
  if (!capturing_) return;
  if (line.find(command_id_) != std::string_view::npos) remember_correlated(line);

  const LogcatLine parsed = parse_logcat_line(line);
  note_lost_lines(parsed);
  if (written_by_other(parsed)) {
    if (is_record_for_command(parsed.message)) ++foreign_lines_;
    return;
  }
  if (!settled() && is_record_for_command(parsed.message)) {
    if (parsed.uid.empty()) {
      ++unattributed_lines_;
    } else if (writer_uid_.empty()) {
      writer_uid_.assign(parsed.uid);
    }
  }
  track_snapshot(parsed);
  if (settled()) return;

  switch (reassembler_.feed(parsed.message)) {
    case ChunkFeedResult::NotAChunk:
      read_single_line_result(parsed.message);
      break;
    case ChunkFeedResult::Complete: {
      std::optional<Envelope> envelope = reassembler_.take_envelope();
      if (!envelope) break;  // unreachable: Complete always carries the envelope
      status_ = CompleteResult{std::move(*envelope), reassembler_.take_line(), true};
      close_snapshot();
      break;
    }
    case ChunkFeedResult::Failed: {
      const std::optional<ChunkError>& failure = reassembler_.failure();
      if (failure) status_ = MalformedResult{failure->reason, failure->diagnostics, failure->kind};
      break;
    }
    case ChunkFeedResult::Ignored:
    case ChunkFeedResult::Accepted:
      break;
  }
}

void ResultStreamDecoder::expect_writer(const std::vector<std::string>& uids) {
  writer_app_ids_.clear();
  for (const std::string& uid : uids) {
    if (const auto app_id = app_id_of(uid)) writer_app_ids_.push_back(*app_id);
  }
}

bool ResultStreamDecoder::written_by_other(const LogcatLine& line) const noexcept {
  if (writer_app_ids_.empty() || line.uid.empty()) return false;
  const std::optional<std::uint64_t> app_id = app_id_of(line.uid);
  return !app_id || std::find(writer_app_ids_.begin(), writer_app_ids_.end(), *app_id) ==
                        writer_app_ids_.end();
}

bool ResultStreamDecoder::is_record_for_command(std::string_view message) const noexcept {
  if (message.find(snapshot_marker_) != std::string_view::npos) return true;
  return message.find(kRecordPrefix) != std::string_view::npos &&
         message.find(quoted_command_id_) != std::string_view::npos;
}

void ResultStreamDecoder::note_lost_lines(const LogcatLine& line) {
  // logcat's own words, not a log line: "logcat: Unexpected EOF!" (older: "read: unexpected
  // EOF!").
  if (line.tag.empty()) {
    if (line.message.find("nexpected EOF") != std::string_view::npos) overrun_reported_ = true;
    return;
  }
  // logd's "uid=%u%s%s expire %u line%s", left where it pruned a chatty app's records; the
  // first %s is the uid's name in parentheses, the Operator's package for its records.
  if (line.tag != "chatty" || pruned_uid_name_.empty()) return;
  const std::size_t at = line.message.find(" expire ");
  if (at == std::string_view::npos || line.message.substr(0, 4) != "uid=") return;
  const std::size_t name = line.message.find('(');
  if (name == std::string_view::npos || name > at ||
      line.message.compare(name, pruned_uid_name_.size(), pruned_uid_name_) != 0) {
    return;
  }
  std::string_view rest = line.message.substr(at + 8);
  std::uint64_t count = 0;
  std::size_t digits = 0;
  while (digits < rest.size() && digits < 12 && rest[digits] >= '0' && rest[digits] <= '9') {
    count = count * 10 + static_cast<std::uint64_t>(rest[digits] - '0');
    ++digits;
  }
  ++pruned_notices_;
  pruned_lines_ += digits > 0 ? count : 1;
}

void ResultStreamDecoder::remember_correlated(std::string_view line) {
  const std::less<const char*> before;
  const bool in_input =
      !before(line.data(), current_input_.data()) &&
      !before(current_input_.data() + current_input_.size(), line.data() + line.size());
  if (in_input) {
    pending_correlated_[pending_next_] = line;
    pending_next_ = (pending_next_ + 1) % kMaxCorrelatedLines;
    if (pending_count_ < kMaxCorrelatedLines) ++pending_count_;
    return;
  }
  // A line rejoined from several reads lives in the splitter only until the next line.
  flush_pending_correlated();
  store_correlated(line);
}

void ResultStreamDecoder::flush_pending_correlated() {
  const std::size_t oldest =
      (pending_next_ + kMaxCorrelatedLines - pending_count_) % kMaxCorrelatedLines;
  for (std::size_t i = 0; i < pending_count_; ++i) {
    store_correlated(pending_correlated_[(oldest + i) % kMaxCorrelatedLines]);
  }
  pending_count_ = 0;
  pending_next_ = 0;
}

void ResultStreamDecoder::store_correlated(std::string_view line) {
  // assign() reuses each slot's capacity: a long chunked result cycles through 20 buffers.
  correlated_ring_[correlated_next_].assign(utf8_prefix(line, kMaxCorrelatedLineBytes));
  correlated_next_ = (correlated_next_ + 1) % kMaxCorrelatedLines;
  if (correlated_count_ < kMaxCorrelatedLines) ++correlated_count_;
}

void ResultStreamDecoder::read_single_line_result(std::string_view message) {
  const std::size_t prefix = message.find(kResultPrefix);
  if (prefix == std::string_view::npos) return;
  const std::string_view json_text = message.substr(prefix + kResultPrefix.size());
  // Other commands' results, even malformed ones, are none of our business.
  if (json_text.find(quoted_command_id_) == std::string_view::npos) return;

  Expected<Envelope, Problem> envelope = parse_envelope(json_text);
  if (!envelope) {
    settle_malformed("malformed envelope: " + envelope.error().text(), std::nullopt);
    return;
  }
  if (envelope->commandId != command_id_) return;  // it merely mentions our id
  if (envelope->taskId != task_id_) {
    settle_malformed("correlation mismatch: envelope taskId " + quote_json(envelope->taskId) +
                         " is not " + quote_json(task_id_),
                     std::nullopt);
    return;
  }
  status_ = CompleteResult{std::move(envelope).value(), std::string(message.substr(prefix)), false};
  close_snapshot();
}

void ResultStreamDecoder::settle_malformed(std::string reason,
                                           std::optional<ChunkErrorKind> chunk_failure) {
  status_ = MalformedResult{std::move(reason), reassembler_.diagnostics(), chunk_failure};
}

void ResultStreamDecoder::track_snapshot(const LogcatLine& line) {
  if (const std::size_t marker = line.message.find(snapshot_marker_);
      marker != std::string_view::npos) {
    close_snapshot();
    snapshot_open_ = true;
    snapshot_tag_.assign(line.tag);
    const std::string_view rest = line.message.substr(marker + snapshot_marker_.size());
    append_to_snapshot(rest, /*starts_line=*/false);
    if (rest.find(kHierarchyEnd) != std::string_view::npos) close_snapshot();
    return;
  }
  if (!snapshot_open_ || line.tag != snapshot_tag_) return;
  // Another record ("[TaskScope] …", a result, a chunk) ends the dump; XML never starts so.
  if (trim(line.message).starts_with('[')) {
    close_snapshot();
    return;
  }
  append_to_snapshot(line.message, /*starts_line=*/true);
  if (line.message.find(kHierarchyEnd) != std::string_view::npos) close_snapshot();
}

void ResultStreamDecoder::append_to_snapshot(std::string_view text, bool starts_line) {
  if (snapshot_overflowed_) return;
  if (snapshot_text_.size() + text.size() + 1 > kMaxSnapshotBytes) {
    snapshot_overflowed_ = true;
    std::string().swap(snapshot_text_);
    return;
  }
  if (starts_line) snapshot_text_ += '\n';
  snapshot_text_.append(text);
}

void ResultStreamDecoder::close_snapshot() {
  if (!snapshot_open_) return;
  snapshot_open_ = false;
  if (std::exchange(snapshot_overflowed_, false)) {
    ++dropped_snapshot_blocks_;
    return;
  }
  const std::string_view block = trim(snapshot_text_);
  if (!block.empty()) {
    snapshot_bytes_kept_ += block.size();
    snapshot_blocks_.emplace_back(block);
    // Steps take blocks from the end, so the oldest are the ones to give up.
    std::size_t first_kept = 0;
    while (snapshot_bytes_kept_ > kMaxSnapshotBytes) {
      snapshot_bytes_kept_ -= snapshot_blocks_[first_kept].size();
      ++first_kept;
      ++dropped_snapshot_blocks_;
    }
    snapshot_blocks_.erase(snapshot_blocks_.begin(),
                           snapshot_blocks_.begin() + static_cast<std::ptrdiff_t>(first_kept));
  }
  std::string().swap(snapshot_text_);
}

CompleteResult ResultStreamDecoder::take_complete() {
  CompleteResult taken = std::move(std::get<CompleteResult>(status_));
  status_ = CompleteResult{};
  return taken;
}

}  // namespace clawperator::transport
