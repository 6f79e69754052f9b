// An evidence bundle on the host (docs/evidence.md): a directory created exclusively (mode
// 0700), its artefacts written as new files beside each other, and manifest.json written last
// and atomically, so a reader that finds a manifest finds every file it names. Existing
// destinations are never written into, and every failed filesystem call is reported with the
// absolute path and the errno's name.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/io/state_directory.hpp"

namespace clawperator::evidence {

// A failed filesystem operation: what, where, and the errno (0: none known).
struct StorageError {
  std::filesystem::path path;
  std::string operation;  // "create the bundle directory", "write screenshot.png", …
  int error_number = 0;
};

// "EACCES", "ENOSPC" …; empty for 0 or an errno glibc does not name.
std::string errno_name(int error_number);

// EVIDENCE_STORAGE_UNWRITABLE (or EVIDENCE_OUTPUT_EXISTS for EEXIST on the bundle itself) with
// details.path, details.causeCode (the errno's name or null), details.operation and
// details.recovery.
contract::HostError storage_error(const StorageError& failure, contract::Phase phase);

// Where bundles go by default: $CLAWPERATOR_EVIDENCE_DIR/bundles, else
// <home>/.clawperator/evidence/bundles (HOME, else the passwd entry's). nullopt: no home known.
std::optional<std::filesystem::path> default_bundles_directory(
    const io::StateEnvironment& environment);

class BundleDirectory {
 public:
  // mkdir(path, 0700) after creating missing parents (0700 too): EEXIST on `path` itself is
  // EVIDENCE_OUTPUT_EXISTS and nothing there is touched. `path` is made absolute first.
  static Expected<BundleDirectory, StorageError> create(const std::filesystem::path& path);
  // An existing bundle, for `evidence verify` and a video session's finalisation (no link
  // followed for the directory itself).
  static Expected<BundleDirectory, StorageError> open(const std::filesystem::path& path);

  BundleDirectory(BundleDirectory&& other) noexcept;
  BundleDirectory& operator=(BundleDirectory&& other) noexcept;
  BundleDirectory(const BundleDirectory&) = delete;
  BundleDirectory& operator=(const BundleDirectory&) = delete;
  ~BundleDirectory();

  const std::filesystem::path& path() const { return path_; }
  int fd() const { return fd_; }

  // A new file `name` (one path component) holding `bytes`: O_CREAT|O_EXCL|O_NOFOLLOW, 0600,
  // fsynced.
  std::optional<StorageError> write_new(std::string_view name, std::string_view bytes) const;
  // `name` holding `bytes`, replacing what was there: a temporary name, fsync, renameat, and
  // the directory fsynced (manifest.json: a reader sees the old manifest or the new one).
  std::optional<StorageError> replace(std::string_view name, std::string_view bytes) const;
  // The size and SHA-256 of the regular file `name` (never through a link), streamed: a video
  // of any size in bounded memory. error_number set: it could not be read.
  struct Digest {
    std::uint64_t bytes = 0;
    std::string sha256;
    int error_number = 0;
  };
  Digest digest(std::string_view name) const;
  // The names of the directory's entries (no "." or ".."), sorted; empty when it cannot be
  // listed.
  std::vector<std::string> entry_names() const;
  // Reads the regular file `name` (never through a link), at most `limit` bytes.
  std::optional<StorageError> read(std::string_view name, std::size_t limit,
                                   std::string& bytes) const;

 private:
  BundleDirectory(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::filesystem::path path_;
};

// A name a manifest may give an artefact: one component of letters, digits, '.', '-', '_',
// not starting with '.' (no "..", no hidden file, no '/').
bool is_artifact_file_name(std::string_view name);

}  // namespace clawperator::evidence
