// A user's output file written a piece at a time, yet atomically: the pieces go to a temporary
// file in the same directory, which commit() fsyncs and renames over the path. Until then the
// path keeps its old content (or stays absent); a writer destroyed without commit() removes
// its temporary file. For documents too large to hold (steps with snapshots, exports); a whole
// string goes through io::write_file_atomically instead.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "clawperator/contract/outcome.hpp"

namespace clawperator::recording {

class StreamedFile {
 public:
  // Failures are `code` errors naming the path, with details.errno.
  static contract::Outcome<StreamedFile> create(const std::filesystem::path& path,
                                                std::string code);
  StreamedFile(StreamedFile&&) noexcept;
  StreamedFile& operator=(StreamedFile&&) noexcept;
  ~StreamedFile();

  // Buffered; a failure is reported here or by a later call.
  contract::Status write(std::string_view bytes);
  contract::Status commit();

 private:
  struct State;
  explicit StreamedFile(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace clawperator::recording
