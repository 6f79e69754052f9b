// Files the tests write and inspect.
#pragma once

#include <stdlib.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace clawperator::testing {

// `text` as the whole content of `path`, created or replaced.
inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The whole content of `path` (empty when it cannot be read).
inline std::string read_whole_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The permission bits of `path` itself (lstat: of a link, the link's own).
inline mode_t mode_of(const std::filesystem::path& path) {
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  return status.st_mode & 07777;
}

// A new directory under the system's temporary directory, removed with all it holds. It is
// private (0700) unless a test asks for other permission bits, for a directory others must enter.
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(const std::string& tag = "test", mode_t mode = 0700) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("clawperator-" + tag + "-XXXXXX")).string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
    if (mode != 0700) REQUIRE(::chmod(path_.c_str(), mode) == 0);
  }
  // A test may have taken permissions away inside (a folder it may not enter or write): the
  // owner gets them back on every folder first, so that nothing is left behind. Links are not
  // followed.
  ~TemporaryDirectory() {
    namespace fs = std::filesystem;
    std::error_code error;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, error);
    for (fs::recursive_directory_iterator at(path_, error), end; !error && at != end;
         at.increment(error)) {
      if (at->symlink_status(error).type() == fs::file_type::directory) {
        fs::permissions(at->path(), fs::perms::owner_all, fs::perm_options::add, error);
      }
    }
    fs::remove_all(path_, error);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // The path of `name` in the directory, as text.
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  // `text` as the whole content of the file `name` in the directory; its path.
  std::string file(const std::string& name, const std::string& text) const {
    write_file(path_ / name, text);
    return *this / name;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace clawperator::testing
