// Reading a file a user or a shared repository names, capped: a registry, a skill file or a
// saved result cannot make us read a huge file whole.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace clawperator::io {

// Reads at most `limit` bytes of the regular file `path` into `bytes`. nullopt on success, else
// what went wrong, in words ("No such file or directory", "larger than 1048576 bytes").
std::optional<std::string> read_regular_file(const std::filesystem::path& path, std::size_t limit,
                                             std::string& bytes);

}  // namespace clawperator::io
