// The device's files, in memory, as far as `adb push` / `adb pull` and the shell's `cat`, `rm`
// and `ls` need them: the writable /data/local/tmp and /sdcard, and the read-only directories
// above and beside them. Errors are Linux errno values, which the sync protocol carries and the
// shell prints with strerror().
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"

namespace clawperator::vdevice::android {

struct FileInfo {
  bool directory = false;
  std::uint32_t mode = 0;  // type and permission bits, as stat() gives them
  std::uint64_t size = 0;
  std::int64_t mtime = 0;  // seconds since the epoch
  std::uint64_t inode = 0;
};

class FileSystem {
 public:
  // Far beyond what the CLI pushes (a payload file); more is ENOSPC, as a full disk says.
  static constexpr std::size_t kCapacityBytes = std::size_t{256} << 20;

  FileSystem();

  // "/a//b/./c/" -> "/a/b/c"; ".." climbs. A relative path starts at "/" (adbd's directory).
  static std::string normalize(std::string_view path);

  Expected<FileInfo, int> stat(std::string_view path) const;
  Expected<std::string, int> read(std::string_view path) const;
  // Creates or replaces a file; parent directories under a writable root are created
  // (adb's fixed_push_mkdir). `mode` keeps its permission bits only. 0 or an errno.
  int write(std::string_view path, std::string data, std::uint32_t mode, std::int64_t mtime);
  // Adds `data` at the end of an existing file (a recorder's lines, without copying what is
  // there). 0 or an errno (ENOENT when there is no such file).
  int append(std::string_view path, std::string_view data, std::int64_t mtime);
  // Replaces bytes inside an existing file (a muxer filling in a box size it learnt at the
  // end). 0 or an errno: ENOENT when there is no such file, EINVAL when the bytes would not
  // lie within it.
  int overwrite(std::string_view path, std::uint64_t offset, std::string_view data,
                std::int64_t mtime);
  // Removes a file (not a directory). 0 or an errno.
  int remove(std::string_view path);
  // Names in a directory, sorted ("." and ".." left out).
  Expected<std::vector<std::string>, int> list(std::string_view path) const;

 private:
  struct File {
    std::string data;
    std::uint32_t mode = 0;
    std::int64_t mtime = 0;
    std::uint64_t inode = 0;
  };

  bool writable(const std::string& directory) const;
  int write_error(const std::string& directory) const;
  int make_parents(const std::string& path);

  std::set<std::string> directories_;
  std::map<std::string, File> files_;
  std::size_t used_bytes_ = 0;
  std::uint64_t next_inode_ = 1000;
};

}  // namespace clawperator::vdevice::android
