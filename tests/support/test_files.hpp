// Files the tests write and inspect.
#pragma once

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

}  // namespace clawperator::testing
