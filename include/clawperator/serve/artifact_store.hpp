// The screenshots the server takes, kept for GET /artifacts/<id> (docs/serve.md §4): in a
// private directory of its own inside the verified state directory (mode 0700, checked and
// held open as io::StateDirectory does), named by the server and never by a caller, bounded in
// count and bytes (the oldest go first) and removed when the server stops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/contract/execution.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"

namespace clawperator::serve {

struct ArtifactLimits {
  std::size_t max_count = 64;
  std::uintmax_t max_bytes = std::uintmax_t{256} << 20;
};

class ArtifactStore {
 public:
  // <state>/serve-artifacts-<pid>, created 0700 or refused as io::StateDirectory::open says.
  static Expected<std::unique_ptr<ArtifactStore>, io::DirectoryError> create(
      const io::StateDirectory& state, ArtifactLimits limits = {});
  ~ArtifactStore();
  ArtifactStore(const ArtifactStore&) = delete;
  ArtifactStore& operator=(const ArtifactStore&) = delete;

  // Every take_screenshot action of `execution` writes to a new file of this store.
  void direct_screenshots(contract::Execution& execution) const;
  // A new file of this store, for a PNG some other command writes (webview screenshot).
  std::filesystem::path new_screenshot_path() const;
  // After the run: each step whose data.path is a file of this store gets data.artifactId and
  // data.artifactUrl instead (the host path is not the caller's business), the file is kept,
  // and the oldest files beyond the limits are removed.
  void adopt(Json& document);
  // The same for one object whose `path` names a file of this store: `path` becomes
  // artifactId and artifactUrl (a `path` elsewhere is left as it is).
  void adopt_file(Json& data);
  // The PNG stored under `id`; nullopt for any id this store does not hold.
  std::optional<std::string> read(std::string_view id) const;

  const std::filesystem::path& directory() const { return directory_.path(); }
  std::size_t count() const;

 private:
  struct Entry {
    std::string id;
    std::uintmax_t bytes = 0;
  };
  ArtifactStore(io::StateDirectory directory, std::filesystem::path absolute, ArtifactLimits limits)
      : directory_(std::move(directory)), absolute_(std::move(absolute)), limits_(limits) {}

  io::StateDirectory directory_;
  std::filesystem::path absolute_;  // as the pipeline reports the files it wrote
  ArtifactLimits limits_;
  mutable std::mutex mutex_;
  std::deque<Entry> entries_;  // oldest first
  std::uintmax_t bytes_ = 0;
};

}  // namespace clawperator::serve
