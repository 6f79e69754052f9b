#include "clawperator/evidence/bundle.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "clawperator/io/atomic_file.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::evidence {
namespace {

// mkdir -p for the parents of a bundle: each missing one 0700 (a bundle may hold what the
// screen showed; nobody else needs to list them).
std::optional<StorageError> create_parents(const std::filesystem::path& directory) {
  std::filesystem::path partial;
  for (const auto& component : directory) {
    partial /= component;
    if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) {
      return StorageError{partial, "create the parent directory", errno};
    }
  }
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0) {
    return StorageError{directory, "inspect the parent directory", errno};
  }
  if (!S_ISDIR(status.st_mode)) return StorageError{directory, "use the parent directory", ENOTDIR};
  return std::nullopt;
}

}  // namespace

std::string errno_name(int error_number) {
  if (error_number == 0) return {};
  const char* name = ::strerrorname_np(error_number);
  return name == nullptr ? std::string() : std::string(name);
}

contract::HostError storage_error(const StorageError& failure, contract::Phase phase) {
  const bool exists =
      failure.error_number == EEXIST && failure.operation == "create the bundle directory";
  const std::string cause = errno_name(failure.error_number);
  Json details = {{"path", failure.path.string()},
                  {"operation", failure.operation},
                  {"causeCode", cause.empty() ? Json(nullptr) : Json(cause)}};
  std::string message =
      "Could not " + failure.operation + " " + failure.path.string() +
      (failure.error_number != 0 ? std::string(": ") + std::strerror(failure.error_number) : "");
  if (exists) {
    details["recovery"] = "Choose an output directory that does not exist yet.";
    return contract::make_error(phase, "EVIDENCE_OUTPUT_EXISTS",
                                failure.path.string() +
                                    " exists already; evidence never "
                                    "overwrites a destination",
                                std::move(details));
  }
  details["recovery"] =
      "Choose a place this user can write: a new --output-dir there, or CLAWPERATOR_EVIDENCE_DIR "
      "for the default bundles directory.";
  return contract::make_error(phase, "EVIDENCE_STORAGE_UNWRITABLE", std::move(message),
                              std::move(details));
}

std::optional<std::filesystem::path> default_bundles_directory(
    const io::StateEnvironment& environment) {
  if (const char* root = environment.variable("CLAWPERATOR_EVIDENCE_DIR");
      root != nullptr && *root != '\0') {
    return std::filesystem::absolute(root) / "bundles";
  }
  std::optional<std::string> home;
  if (const char* variable = environment.variable("HOME");
      variable != nullptr && *variable != '\0') {
    home = variable;
  } else if (environment.passwd_home) {
    home = environment.passwd_home();
  }
  if (!home) return std::nullopt;
  return std::filesystem::path(*home) / ".clawperator" / "evidence" / "bundles";
}

Expected<BundleDirectory, StorageError> BundleDirectory::create(
    const std::filesystem::path& requested) {
  std::error_code ignored;
  std::filesystem::path path = std::filesystem::absolute(requested, ignored).lexically_normal();
  if (path.has_filename() == false) path = path.parent_path();
  if (auto failure = create_parents(path.parent_path())) return Unexpected<StorageError>{*failure};
  if (::mkdir(path.c_str(), 0700) != 0) {
    return Unexpected<StorageError>{StorageError{path, "create the bundle directory", errno}};
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return Unexpected<StorageError>{StorageError{path, "open the bundle directory", errno}};
  return BundleDirectory(fd, std::move(path));
}

Expected<BundleDirectory, StorageError> BundleDirectory::open(
    const std::filesystem::path& requested) {
  std::error_code ignored;
  std::filesystem::path path = std::filesystem::absolute(requested, ignored).lexically_normal();
  if (path.has_filename() == false) path = path.parent_path();
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return Unexpected<StorageError>{StorageError{path, "open the bundle directory", errno}};
  return BundleDirectory(fd, std::move(path));
}

BundleDirectory::BundleDirectory(BundleDirectory&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

BundleDirectory& BundleDirectory::operator=(BundleDirectory&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

BundleDirectory::~BundleDirectory() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<StorageError> BundleDirectory::write_new(std::string_view name,
                                                       std::string_view bytes) const {
  const std::filesystem::path where = path_ / std::string(name);
  if (!is_artifact_file_name(name)) return StorageError{where, "write", EINVAL};
  const int fd = ::openat(fd_, std::string(name).c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return StorageError{where, "create", errno};
  int error_number = io::write_all(fd, bytes);
  if (error_number == 0 && ::fsync(fd) != 0) error_number = errno;
  if (::close(fd) != 0 && error_number == 0) error_number = errno;
  if (error_number != 0) {
    ::unlinkat(fd_, std::string(name).c_str(), 0);  // ours: O_EXCL made it
    return StorageError{where, "write", error_number};
  }
  return std::nullopt;
}

std::optional<StorageError> BundleDirectory::replace(std::string_view name,
                                                     std::string_view bytes) const {
  const std::filesystem::path where = path_ / std::string(name);
  if (!is_artifact_file_name(name)) return StorageError{where, "write", EINVAL};
  const std::string temporary = "." + std::string(name) + "." + io::random_uuid() + ".tmp";
  const int fd =
      ::openat(fd_, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return StorageError{path_ / temporary, "create", errno};
  int error_number = io::write_all(fd, bytes);
  if (error_number == 0 && ::fsync(fd) != 0) error_number = errno;
  if (::close(fd) != 0 && error_number == 0) error_number = errno;
  if (error_number == 0 &&
      ::renameat(fd_, temporary.c_str(), fd_, std::string(name).c_str()) != 0) {
    error_number = errno;
  }
  if (error_number != 0) {
    ::unlinkat(fd_, temporary.c_str(), 0);
    return StorageError{where, "write", error_number};
  }
  // The rename itself survives a crash only once the directory is on disk too.
  ::fsync(fd_);
  return std::nullopt;
}

std::optional<StorageError> BundleDirectory::read(std::string_view name, std::size_t limit,
                                                  std::string& bytes) const {
  const std::filesystem::path where = path_ / std::string(name);
  const int fd =
      ::openat(fd_, std::string(name).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return StorageError{where, "open", errno};
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error_number = errno;
    ::close(fd);
    return StorageError{where, "read", error_number};
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd);
    return StorageError{where, "read (not a regular file)", EINVAL};
  }
  if (static_cast<unsigned long long>(status.st_size) > limit) {
    ::close(fd);
    return StorageError{where, "read (larger than " + std::to_string(limit) + " bytes)", EFBIG};
  }
  bytes.clear();
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error_number = errno;
      ::close(fd);
      return StorageError{where, "read", error_number};
    }
    if (n == 0) break;
    if (bytes.size() + static_cast<std::size_t>(n) > limit) {
      ::close(fd);
      return StorageError{where, "read (larger than " + std::to_string(limit) + " bytes)", EFBIG};
    }
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return std::nullopt;
}

std::vector<std::string> BundleDirectory::entry_names() const {
  std::vector<std::string> names;
  // fdopendir takes the descriptor over: a duplicate, so that the bundle keeps its own.
  const int listing_fd = ::openat(fd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing_fd < 0) return names;
  DIR* directory = ::fdopendir(listing_fd);
  if (directory == nullptr) {
    ::close(listing_fd);
    return names;
  }
  while (const dirent* entry = ::readdir(directory)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(directory);
  std::sort(names.begin(), names.end());
  return names;
}

BundleDirectory::Digest BundleDirectory::digest(std::string_view name) const {
  Digest digest;
  const int fd =
      ::openat(fd_, std::string(name).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    digest.error_number = errno;
    return digest;
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    digest.error_number = errno;
  } else if (!S_ISREG(status.st_mode)) {
    digest.error_number = EINVAL;
  }
  transport::Sha256 hasher;
  char buffer[1 << 16];
  while (digest.error_number == 0) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) digest.error_number = errno;
    if (n <= 0) break;
    digest.bytes += static_cast<std::uint64_t>(n);
    hasher.update(std::string_view(buffer, static_cast<std::size_t>(n)));
  }
  ::close(fd);
  if (digest.error_number == 0) digest.sha256 = hasher.finish_hex();
  return digest;
}

bool is_artifact_file_name(std::string_view name) {
  if (name.empty() || name.size() > 128 || name.front() == '.') return false;
  for (const char c : name) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
    if (!allowed) return false;
  }
  return true;
}

}  // namespace clawperator::evidence
