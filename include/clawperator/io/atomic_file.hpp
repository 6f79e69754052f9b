// Writing a user's file so that it is either the old content or the whole new
// content, never a torn half: temp file in the same directory, fsync, rename.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::io {

// nullopt on success, else what went wrong (strerror text).
std::optional<std::string> write_file_atomically(const std::filesystem::path& path,
                                                 std::string_view bytes);

}  // namespace clawperator::io
