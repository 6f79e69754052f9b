#include "clawperator/recording/recording_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "clawperator/io/bounded_file.hpp"
#include "clawperator/process/unique_fd.hpp"
#include "clawperator/text.hpp"
#include "clawperator/utf8.hpp"

namespace clawperator::recording {
namespace {

constexpr std::size_t kRecordingReadChunk = std::size_t{1} << 16;

// Physical lines of a file descriptor, read a chunk at a time. A line longer than the limit is
// refused as soon as the limit is passed, before more of it is held.
class RecordingLineReader {
 public:
  enum class Result { Line, End, TooLong, ReadError };

  RecordingLineReader(int fd, std::size_t max_line_bytes)
      : fd_(fd), max_line_bytes_(max_line_bytes), buffer_(kRecordingReadChunk) {}

  // The next line without its '\n' (a '\r' before it stays: the JSON reader skips it).
  Result next(std::string& line) {
    line.clear();
    line_offset_ = offset_;
    ++line_number_;
    while (true) {
      if (begin_ == end_) {
        const ssize_t got = ::read(fd_, buffer_.data(), buffer_.size());
        if (got < 0) {
          if (errno == EINTR) continue;
          error_number_ = errno;
          return Result::ReadError;
        }
        if (got == 0) {
          if (line.empty() && !partial_) return Result::End;
          partial_ = false;
          return Result::Line;  // the last line had no '\n'
        }
        begin_ = 0;
        end_ = static_cast<std::size_t>(got);
      }
      const char* start = buffer_.data() + begin_;
      const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
      const std::size_t take =
          newline != nullptr ? static_cast<std::size_t>(newline - start) : end_ - begin_;
      if (line.size() + take > max_line_bytes_) return Result::TooLong;
      line.append(start, take);
      partial_ = true;
      begin_ += take;
      offset_ += take;
      if (newline != nullptr) {
        ++begin_;
        ++offset_;
        partial_ = false;
        return Result::Line;
      }
    }
  }

  // The next line read is the one at byte `offset`, numbered `line_number`.
  bool seek(std::uint64_t offset, std::uint64_t line_number) {
    if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) {
      error_number_ = errno;
      return false;
    }
    begin_ = end_ = 0;
    offset_ = offset;
    line_number_ = line_number - 1;
    partial_ = false;
    return true;
  }

  std::uint64_t line_number() const { return line_number_; }
  std::uint64_t line_offset() const { return line_offset_; }
  int error_number() const { return error_number_; }

 private:
  int fd_;
  std::size_t max_line_bytes_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::uint64_t offset_ = 0;       // of buffer_[begin_] in the file
  std::uint64_t line_offset_ = 0;  // of the line last returned
  std::uint64_t line_number_ = 0;  // of the line last returned
  bool partial_ = false;           // part of a line was consumed
  int error_number_ = 0;
};

struct RecordingIndexEntry {
  double seq;
  std::uint64_t offset;
  std::uint64_t line;
};

}  // namespace

struct RecordingFile::State {
  std::filesystem::path path;
  process::UniqueFd fd;
  RecordingLineReader reader;
  RecordingHeader header;
  std::uint64_t first_event_offset = 0;
  std::uint64_t first_event_line = 1;
  std::size_t max_line_bytes;
  std::uint64_t events = 0;
  bool scanned = false;
  bool ordered = true;
  std::string line;

  State(std::filesystem::path file, int descriptor, std::size_t line_limit)
      : path(std::move(file)),
        fd(descriptor),
        reader(descriptor, line_limit),
        max_line_bytes(line_limit) {}

  contract::HostError error(std::string code, std::string message, Json details = Json::object()) {
    details["path"] = path.string();
    return recording_error(std::move(code), std::move(message), std::move(details));
  }

  contract::HostError read_error() {
    return error(
        "RECORDING_PARSE_FAILED",
        "Cannot read recording file " + path.string() + ": " + std::strerror(reader.error_number()),
        Json{{"errno", reader.error_number()}});
  }

  // The next non-blank line, checked for length and UTF-8: true, false at the end, or the error.
  contract::Outcome<bool> next_line() {
    while (true) {
      switch (reader.next(line)) {
        case RecordingLineReader::Result::End:
          return false;
        case RecordingLineReader::Result::ReadError:
          return contract::failed(read_error());
        case RecordingLineReader::Result::TooLong:
          return contract::failed(
              error("RECORDING_PARSE_FAILED",
                    "Line " + std::to_string(reader.line_number()) + " exceeds the limit of " +
                        std::to_string(max_line_bytes) + " bytes",
                    Json{{"line", reader.line_number()}, {"limitBytes", max_line_bytes}}));
        case RecordingLineReader::Result::Line:
          break;
      }
      if (trim(line).empty()) continue;
      if (const auto bad = find_invalid_utf8(line)) {
        return contract::failed(error("RECORDING_PARSE_FAILED",
                                      "Invalid UTF-8 at line " +
                                          std::to_string(reader.line_number()) + ": " +
                                          describe_invalid_utf8(line, *bad),
                                      Json{{"line", reader.line_number()}, {"byteOffset", *bad}}));
      }
      // The JSON reader would take a NUL for the end of the text and accept what precedes it.
      if (line.find('\0') != std::string::npos) {
        return contract::failed(
            error("RECORDING_PARSE_FAILED",
                  "Malformed NDJSON at line " + std::to_string(reader.line_number()),
                  Json{{"line", reader.line_number()}}));
      }
      return true;
    }
  }

  contract::Outcome<RecordingEvent> event_of_line() {
    auto event = parse_event_line(line, reader.line_number());
    if (!event) {
      event.error().details["path"] = path.string();
      return contract::failed(std::move(event).error());
    }
    return event;
  }
};

RecordingFile::RecordingFile(std::unique_ptr<State> state) : state_(std::move(state)) {}
RecordingFile::RecordingFile(RecordingFile&&) noexcept = default;
RecordingFile& RecordingFile::operator=(RecordingFile&&) noexcept = default;
RecordingFile::~RecordingFile() = default;

const RecordingHeader& RecordingFile::header() const {
  return state_->header;
}
const std::filesystem::path& RecordingFile::path() const {
  return state_->path;
}
std::uint64_t RecordingFile::event_count() const {
  return state_->events;
}
bool RecordingFile::in_seq_order() const {
  return state_->ordered;
}

contract::Outcome<RecordingFile> RecordingFile::open(const std::filesystem::path& path,
                                                     std::size_t max_line_bytes) {
  // A FIFO, a device or a directory is refused at once (io/bounded_file.hpp).
  const io::OpenedFile opened = io::open_regular_file(path);
  if (opened.fd < 0) {
    return contract::failed(
        recording_error("RECORDING_PARSE_FAILED",
                        "Cannot open recording file " + path.string() + ": " +
                            io::describe_open_error(opened.error),
                        Json{{"path", path.string()}, {"errno", opened.error}}));
  }
  const int fd = opened.fd;
  auto state = std::make_unique<State>(path, fd, max_line_bytes);
  auto got = state->next_line();
  if (!got) return contract::failed(std::move(got).error());
  if (!*got) {
    return contract::failed(
        state->error("RECORDING_PARSE_FAILED", "Empty recording file", Json{{"line", nullptr}}));
  }
  auto header = parse_header_line(state->line);
  if (!header) {
    contract::HostError failure = std::move(header).error();
    failure.details["line"] = state->reader.line_number();
    failure.details["path"] = path.string();
    return contract::failed(std::move(failure));
  }
  state->header = std::move(*header);
  state->first_event_line = state->reader.line_number() + 1;
  state->first_event_offset = state->reader.line_offset() + state->line.size() + 1;
  return RecordingFile(std::move(state));
}

contract::Status RecordingFile::scan(const EventVisitor& visit) {
  State& state = *state_;
  state.events = 0;
  state.ordered = true;
  if (!state.reader.seek(state.first_event_offset, state.first_event_line))
    return contract::failed(state.read_error());
  std::optional<double> previous_seq;
  while (true) {
    auto got = state.next_line();
    if (!got) return contract::failed(std::move(got).error());
    if (!*got) break;
    CLAWPERATOR_TRY_ASSIGN(auto event, state.event_of_line());
    if (previous_seq && event.seq < *previous_seq) state.ordered = false;
    previous_seq = event.seq;
    ++state.events;
    CLAWPERATOR_TRY(visit(event));
  }
  state.scanned = true;
  return {};
}

contract::Status RecordingFile::for_each_in_seq_order(const EventVisitor& visit) {
  State& state = *state_;
  auto changed = [&] {
    return contract::failed(
        state.error("RECORDING_PARSE_FAILED",
                    "Recording file " + state.path.string() + " changed while it was being read",
                    Json{{"line", state.reader.line_number()}}));
  };
  if (!state.reader.seek(state.first_event_offset, state.first_event_line))
    return contract::failed(state.read_error());
  std::uint64_t seen = 0;
  if (state.ordered) {
    while (true) {
      auto got = state.next_line();
      if (!got) return contract::failed(std::move(got).error());
      if (!*got) break;
      CLAWPERATOR_TRY_ASSIGN(auto event, state.event_of_line());
      if (++seen > state.events) return changed();
      CLAWPERATOR_TRY(visit(event));
    }
    if (seen != state.events) return changed();
    return {};
  }
  // Out of seq order: where each event is, sorted (stably, by file position among equal seqs).
  std::vector<RecordingIndexEntry> index;
  index.reserve(static_cast<std::size_t>(state.events));
  while (true) {
    auto got = state.next_line();
    if (!got) return contract::failed(std::move(got).error());
    if (!*got) break;
    CLAWPERATOR_TRY_ASSIGN(auto event, state.event_of_line());
    index.push_back({event.seq, state.reader.line_offset(), state.reader.line_number()});
  }
  if (index.size() != state.events) return changed();
  std::stable_sort(
      index.begin(), index.end(),
      [](const RecordingIndexEntry& a, const RecordingIndexEntry& b) { return a.seq < b.seq; });
  for (const RecordingIndexEntry& entry : index) {
    if (!state.reader.seek(entry.offset, entry.line)) return contract::failed(state.read_error());
    auto got = state.next_line();
    if (!got) return contract::failed(std::move(got).error());
    if (!*got || state.reader.line_number() != entry.line) return changed();
    CLAWPERATOR_TRY_ASSIGN(auto event, state.event_of_line());
    if (event.seq != entry.seq) return changed();
    CLAWPERATOR_TRY(visit(event));
  }
  return {};
}

contract::Outcome<std::filesystem::path> newest_recording_in(const std::filesystem::path& directory,
                                                             const std::string& code) {
  std::error_code error;
  std::filesystem::directory_iterator entries(directory, error);
  auto failure = [&](std::string message, int error_number) {
    Json details{{"path", directory.string()}};
    if (error_number != 0) details["errno"] = error_number;
    return contract::failed(recording_error(code, std::move(message), std::move(details)));
  };
  if (error) {
    return failure("Cannot list directory " + directory.string() + ": " + error.message(),
                   error.value());
  }
  std::optional<std::filesystem::path> newest;
  std::filesystem::file_time_type newest_time;
  for (const auto& entry : entries) {
    const std::filesystem::path& candidate = entry.path();
    const std::string name = candidate.filename().string();
    if (name.size() <= 7 || name.compare(name.size() - 7, 7, ".ndjson") != 0) continue;
    std::error_code status_error;
    if (!entry.is_regular_file(status_error)) continue;
    const auto time = entry.last_write_time(status_error);
    if (status_error) continue;
    if (!newest || time > newest_time ||
        (time == newest_time && name > newest->filename().string())) {
      newest = candidate;
      newest_time = time;
    }
  }
  if (!newest) return failure("No .ndjson recording in directory " + directory.string(), 0);
  return *newest;
}

std::filesystem::path path_beside_recording(const std::filesystem::path& recording,
                                            std::string_view suffix) {
  std::string text = recording.string();
  constexpr std::string_view kNdjson = ".ndjson";
  if (text.size() >= kNdjson.size() &&
      text.compare(text.size() - kNdjson.size(), kNdjson.size(), kNdjson) == 0) {
    text.resize(text.size() - kNdjson.size());
  }
  return text + std::string(suffix);
}

}  // namespace clawperator::recording
