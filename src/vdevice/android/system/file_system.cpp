#include "vdevice/android/system/file_system.hpp"

#include <cerrno>
#include <utility>

namespace clawperator::vdevice::android {
namespace {

using ErrnoFailure = Unexpected<int>;

constexpr std::uint32_t kDirectoryType = 0040000;
constexpr std::uint32_t kRegularType = 0100000;
constexpr std::uint32_t kPermissionBits = 07777;

// Where the shell user (adbd's uid) may write, as on a phone.
constexpr std::string_view kWritableRoots[] = {"/data/local/tmp", "/sdcard"};

std::string parent_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool within(const std::string& path, std::string_view root) {
  return path == root ||
         (path.starts_with(root) && path.size() > root.size() && path[root.size()] == '/');
}

}  // namespace

FileSystem::FileSystem()
    : directories_{"/",        "/data",   "/data/local", "/data/local/tmp", "/sdcard",
                   "/storage", "/system", "/system/bin", "/vendor",         "/proc",
                   "/dev",     "/etc",    "/mnt",        "/product"} {}

std::string FileSystem::normalize(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
    const std::string_view part = path.substr(start, end - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  std::string out;
  for (const std::string_view part : parts) out.append("/").append(part);
  return out.empty() ? "/" : out;
}

Expected<FileInfo, int> FileSystem::stat(std::string_view path) const {
  const std::string name = normalize(path);
  if (directories_.contains(name)) {
    FileInfo info;
    info.directory = true;
    info.mode = kDirectoryType | (writable(name) ? 0771U : 0755U);
    info.size = 4096;
    info.inode = std::hash<std::string>{}(name) % 100000;
    return info;
  }
  const auto file = files_.find(name);
  if (file == files_.end()) {
    // Under a regular file nothing can exist.
    return ErrnoFailure{files_.contains(parent_of(name)) ? ENOTDIR : ENOENT};
  }
  FileInfo info;
  info.mode = kRegularType | file->second.mode;
  info.size = file->second.data.size();
  info.mtime = file->second.mtime;
  info.inode = file->second.inode;
  return info;
}

Expected<std::string, int> FileSystem::read(std::string_view path) const {
  const std::string name = normalize(path);
  if (directories_.contains(name)) return ErrnoFailure{EISDIR};
  const auto file = files_.find(name);
  if (file == files_.end()) return ErrnoFailure{ENOENT};
  return file->second.data;
}

bool FileSystem::writable(const std::string& directory) const {
  for (const std::string_view root : kWritableRoots) {
    if (within(directory, root)) return true;
  }
  return false;
}

// Why the shell user may not write in `directory`: the system partitions are mounted
// read-only, the rest belongs to other users.
int FileSystem::write_error(const std::string& directory) const {
  if (writable(directory)) return 0;
  for (const std::string_view partition : {"/system", "/vendor", "/product"}) {
    if (within(directory, partition)) return EROFS;
  }
  return EACCES;
}

int FileSystem::make_parents(const std::string& path) {
  const std::string parent = parent_of(path);
  if (directories_.contains(parent)) return write_error(parent);
  if (files_.contains(parent)) return ENOTDIR;
  if (const int error = write_error(parent)) return error;
  if (const int error = make_parents(parent)) return error;
  directories_.insert(parent);
  return 0;
}

int FileSystem::write(std::string_view path, std::string data, std::uint32_t mode,
                      std::int64_t mtime) {
  const std::string name = normalize(path);
  if (directories_.contains(name)) return EISDIR;
  if (const int error = make_parents(name)) return error;
  const auto existing = files_.find(name);
  const std::size_t replaced = existing == files_.end() ? 0 : existing->second.data.size();
  if (data.size() > kCapacityBytes - (used_bytes_ - replaced)) return ENOSPC;
  used_bytes_ = used_bytes_ - replaced + data.size();
  File& file = files_[name];
  file.data = std::move(data);
  file.mode = mode & kPermissionBits;
  file.mtime = mtime;
  if (file.inode == 0) file.inode = next_inode_++;
  return 0;
}

int FileSystem::append(std::string_view path, std::string_view data, std::int64_t mtime) {
  const auto file = files_.find(normalize(path));
  if (file == files_.end()) return ENOENT;
  if (data.size() > kCapacityBytes - used_bytes_) return ENOSPC;
  used_bytes_ += data.size();
  file->second.data.append(data);
  file->second.mtime = mtime;
  return 0;
}

int FileSystem::overwrite(std::string_view path, std::uint64_t offset, std::string_view data,
                          std::int64_t mtime) {
  const auto file = files_.find(normalize(path));
  if (file == files_.end()) return ENOENT;
  std::string& bytes = file->second.data;
  if (offset > bytes.size() || data.size() > bytes.size() - offset) return EINVAL;
  bytes.replace(static_cast<std::size_t>(offset), data.size(), data);
  file->second.mtime = mtime;
  return 0;
}

int FileSystem::remove(std::string_view path) {
  const std::string name = normalize(path);
  if (directories_.contains(name)) return EISDIR;
  const auto file = files_.find(name);
  if (file == files_.end()) return ENOENT;
  if (const int error = write_error(parent_of(name))) return error;
  used_bytes_ -= file->second.data.size();
  files_.erase(file);
  return 0;
}

Expected<std::vector<std::string>, int> FileSystem::list(std::string_view path) const {
  const std::string name = normalize(path);
  if (!directories_.contains(name)) return ErrnoFailure{files_.contains(name) ? ENOTDIR : ENOENT};
  std::set<std::string> names;
  const std::string prefix = name == "/" ? "/" : name + "/";
  const auto add_child = [&](const std::string& entry) {
    if (entry.size() <= prefix.size() || !entry.starts_with(prefix)) return;
    const std::string rest = entry.substr(prefix.size());
    if (rest.find('/') == std::string::npos) names.insert(rest);
  };
  for (const std::string& directory : directories_) add_child(directory);
  for (const auto& entry : files_) add_child(entry.first);
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace clawperator::vdevice::android
