// A recording file read streaming: one physical line at a time, never the whole file, so a
// recording of any length is read in memory bounded by its longest line (kMaxLineBytes) and,
// only for a file whose events are out of seq order, 24 bytes per event (docs/recording.md,
// "Reading"). Line numbers are physical (1-based, blank lines counted), as an editor shows
// them; every error names the file in details.path and the line in details.line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/recording/events.hpp"

namespace clawperator::recording {

// The longest line accepted (its bytes, without the '\n'): a snapshot is at most 262144 bytes
// (docs/payload.md §5), so 64 MiB is far beyond any line the Operator writes, and still a bound
// on what one line can cost.
inline constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

using EventVisitor = std::function<contract::Status(const RecordingEvent&)>;

class RecordingFile {
 public:
  // Opens `path` and reads its header (the first non-blank line). Errors: RECORDING_PARSE_FAILED
  // ("Empty recording file", "Missing or invalid recording header", a file that cannot be read:
  // details.errno) or RECORDING_SCHEMA_VERSION_UNSUPPORTED.
  static contract::Outcome<RecordingFile> open(const std::filesystem::path& path,
                                               std::size_t max_line_bytes = kMaxLineBytes);
  RecordingFile(RecordingFile&&) noexcept;
  RecordingFile& operator=(RecordingFile&&) noexcept;
  ~RecordingFile();

  const RecordingHeader& header() const;
  const std::filesystem::path& path() const;

  // Pass 1: validates every event in file order and hands each to `visit` (which may stop the
  // scan with its own error). Learns whether the file is in seq order. Call once, first.
  contract::Status scan(const EventVisitor& visit);
  // The number of events scan() saw.
  std::uint64_t event_count() const;
  // scan() saw seq never decrease (the Operator's own files always are).
  bool in_seq_order() const;

  // Pass 2: every event again, stably sorted by seq (file order among equal seqs). A file in
  // seq order is simply read again; otherwise an index of (seq, offset, line) is built by one
  // more read, then each line is read at its offset. An error if the file changed meanwhile.
  contract::Status for_each_in_seq_order(const EventVisitor& visit);

 private:
  struct State;
  explicit RecordingFile(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The newest `*.ndjson` file directly in `directory` (by modification time; equal times: the
// greatest name in byte order, which for the Operator's `record-<ms>-…` ids is the later one).
// Errors use `code` (the command's own), naming the directory.
contract::Outcome<std::filesystem::path> newest_recording_in(const std::filesystem::path& directory,
                                                             const std::string& code);

// The file beside a recording named after it: `<input minus .ndjson>` + `suffix`
// (".steps.json", ".export.json"), or the whole name + `suffix` when it does not end in .ndjson.
std::filesystem::path path_beside_recording(const std::filesystem::path& recording,
                                            std::string_view suffix);

}  // namespace clawperator::recording
