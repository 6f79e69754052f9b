// Files the tests write and inspect.
#pragma once

#include <stdlib.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace clawperator::testing {

// `text` as the whole content of `path`, created or replaced.
inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The permission bits of `path` itself (lstat: of a link, the link's own).
inline mode_t mode_of(const std::filesystem::path& path) {
  struct stat status {};
  REQUIRE(::lstat(path.c_str(), &status) == 0);
  return status.st_mode & 07777;
}

// A new private directory under the system's temporary directory, removed with all it holds.
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(const std::string& tag = "test") {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("clawperator-" + tag + "-XXXXXX")).string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace clawperator::testing
