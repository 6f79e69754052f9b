// The value names that say an option or a word takes a path ("--out <file>", "evidence verify
// <dir>"): the help prints them, and tools/generate_cli_docs.cpp makes the shell completions of
// both programs offer file or directory names for them.
#pragma once

#include <string_view>

namespace clawperator {

inline constexpr std::string_view kFileValue = "<file>";
inline constexpr std::string_view kDirectoryValue = "<dir>";

}  // namespace clawperator
