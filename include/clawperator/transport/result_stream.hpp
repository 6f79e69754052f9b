// Reads the result of one dispatched command out of the logcat reader's stdout
// (docs/wire-protocol.md §7): single-line and chunked envelopes, the lines that
// mention the command, and snapshot blocks. Pure: the caller owns the process and the clock.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "clawperator/transport/chunk_reassembler.hpp"
#include "clawperator/transport/envelope.hpp"
#include "clawperator/transport/line_splitter.hpp"
#include "clawperator/transport/logcat_line.hpp"

namespace clawperator::transport {

struct PendingResult {};

struct CompleteResult {
  Envelope envelope;
  std::string canonical_line;  // "[Clawperator-Result] {...}" exactly as the Operator wrote it
  bool chunked = false;
};

// RESULT_ENVELOPE_MALFORMED.
struct MalformedResult {
  std::string reason;
  ChunkDiagnostics transport;                   // details.transport
  std::optional<ChunkErrorKind> chunk_failure;  // set when the chunk framing failed
};

using ResultStatus = std::variant<PendingResult, CompleteResult, MalformedResult>;

class ResultStreamDecoder {
 public:
  static constexpr std::size_t kMaxCorrelatedLines = 20;
  static constexpr std::size_t kMaxCorrelatedLineBytes = 2048;
  // Bounds what a runaway snapshot block (a marker never followed by its end) can hold.
  static constexpr std::size_t kMaxSnapshotBytes = kMaxResultBytes;

  // `operator_package`: the Operator whose records logd's pruning notices must name to count
  // (pruned_notices); empty: none counts.
  ResultStreamDecoder(std::string command_id, std::string task_id,
                      std::string operator_package = {});

  // Who may write the result (docs/guardrails.md): the Operator's uids, as `pm list packages -U`
  // printed them. A line that shows another app's uid is never read as the result, a chunk of
  // it or its hierarchy; the ones that carry such a record for this command are counted
  // (foreign_lines). Uids are compared by app id (uid % 100000): the Operator running for
  // another user (a work profile) is still the Operator. None (the default): the writer is
  // unknown and every line is read.
  void expect_writer(const std::vector<std::string>& uids);
  void feed(std::string_view stdout_bytes);
  // The dispatch moment: only lines completed from here on can carry the result. The partial
  // line received so far is dropped, with its remainder.
  void begin_capture() noexcept;
  // The reader's stdout closed: an unterminated last line is still read (a complete result
  // written just before exit wins), and an open snapshot block is closed.
  void finish();

  const ResultStatus& status() const noexcept { return status_; }
  // Moves the complete result out (status() must hold one): a multi-megabyte result is then
  // held once, not copied. The status stays complete, with empty contents.
  CompleteResult take_complete();
  bool settled() const noexcept { return !std::holds_alternative<PendingResult>(status_); }
  bool capturing() const noexcept { return capturing_; }

  // Up to the last 20 captured lines that contain the commandId, oldest first, each cut to
  // 2048 bytes on a UTF-8 character boundary.
  std::vector<std::string> correlated_lines() const;
  // The UI hierarchy dumps logged for this command (docs/wire-protocol.md §7.7), oldest
  // first, trimmed, empty ones dropped. A block starts after
  // "[TaskScope] UI Hierarchy [commandId=<id>]:" (the rest of that message included),
  // continues on messages with the marker's logcat tag, and ends before a message starting
  // with "[", after one containing "</hierarchy>", at the result, or at finish(). When the
  // kept blocks exceed kMaxSnapshotBytes the oldest are dropped (and counted).
  const std::vector<std::string>& snapshot_blocks() const noexcept { return snapshot_blocks_; }
  std::size_t dropped_snapshot_blocks() const noexcept { return dropped_snapshot_blocks_; }
  // The chunk sequence so far, also while pending (for a timeout's details.transport).
  const ChunkDiagnostics& chunk_diagnostics() const noexcept;
  std::uint64_t stdout_bytes_seen() const noexcept { return stdout_bytes_seen_; }
  std::size_t overlong_lines() const noexcept { return splitter_.overlong_lines(); }
  // logd pruned the Operator's log records since capture began (its `chatty`
  // "uid=N(<operator package>) … expire N lines" notices; other apps' do not count): a chunked
  // result may then never complete. How many notices, and the lines they count.
  std::uint64_t pruned_notices() const noexcept { return pruned_notices_; }
  std::uint64_t pruned_lines() const noexcept { return pruned_lines_; }
  // logcat said on stdout (a device without shell v2 merges its stderr there) that logd cut it
  // off for falling behind ("Unexpected EOF!"), since capture began.
  bool overrun_reported() const noexcept { return overrun_reported_; }
  // Records for this command (a result, a chunk, a hierarchy marker) written by another uid
  // than expect_writer's, since capture began: never used.
  std::uint64_t foreign_lines() const noexcept { return foreign_lines_; }
  // Records for this command that were read although their line showed no uid (logcat without
  // `-v uid`, or a logd that does not know it), until the result settled: its writer is
  // unproven.
  std::uint64_t unattributed_lines() const noexcept { return unattributed_lines_; }
  // The uid the records read for this command showed (one of expect_writer's); empty when none
  // showed one.
  const std::string& writer_uid() const noexcept { return writer_uid_; }

 private:
  void read_line(std::string_view line);
  bool written_by_other(const LogcatLine& line) const noexcept;
  bool is_record_for_command(std::string_view message) const noexcept;
  void remember_correlated(std::string_view line);
  void note_lost_lines(const LogcatLine& line);
  void store_correlated(std::string_view line);
  void flush_pending_correlated();
  void track_snapshot(const LogcatLine& line);
  void append_to_snapshot(std::string_view text, bool starts_line);
  void close_snapshot();
  void read_single_line_result(std::string_view message);
  void settle_malformed(std::string reason, std::optional<ChunkErrorKind> chunk_failure);

  std::string command_id_;
  std::string task_id_;
  std::string pruned_uid_name_;  // "(<operator package>)", as logd names the uid
  std::string quoted_command_id_;
  std::string snapshot_marker_;

  LineSplitter splitter_;
  ChunkReassembler reassembler_;
  ResultStatus status_;
  bool capturing_ = false;
  std::uint64_t stdout_bytes_seen_ = 0;
  std::uint64_t pruned_notices_ = 0;
  std::uint64_t pruned_lines_ = 0;
  bool overrun_reported_ = false;
  std::vector<std::uint64_t> writer_app_ids_;
  std::uint64_t foreign_lines_ = 0;
  std::uint64_t unattributed_lines_ = 0;
  std::string writer_uid_;

  std::vector<std::string> correlated_ring_;
  std::size_t correlated_next_ = 0;
  std::size_t correlated_count_ = 0;
  // A chunked result puts every record line in the ring, yet only the last 20 survive: lines
  // that lie in feed()'s input are only noted here, and copied when feed() returns.
  std::string_view current_input_;
  std::array<std::string_view, kMaxCorrelatedLines> pending_correlated_{};
  std::size_t pending_next_ = 0;
  std::size_t pending_count_ = 0;

  bool snapshot_open_ = false;
  bool snapshot_overflowed_ = false;
  std::string snapshot_tag_;
  std::string snapshot_text_;
  std::vector<std::string> snapshot_blocks_;
  std::size_t snapshot_bytes_kept_ = 0;
  std::size_t dropped_snapshot_blocks_ = 0;
};

}  // namespace clawperator::transport
