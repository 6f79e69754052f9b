// Reading the files a skill names (skill.json, artifacts): capped, so that a registry shared by
// others cannot make us read a huge file whole. Private to src/skills.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::skills {

// Reads at most `limit` bytes of the regular file `path` into `bytes`. nullopt on success, else
// what went wrong, in words ("No such file or directory", "larger than 1048576 bytes").
std::optional<std::string> read_skill_file(const std::filesystem::path& path, std::size_t limit,
                                           std::string& bytes);

// The errno name ("EACCES") whose strerror text is `message`, else nullopt: the io helpers
// report strerror text, and SKILLS_SCAFFOLD_FAILED's details.cause is the stable name.
std::optional<std::string> errno_name_of_message(std::string_view message);

}  // namespace clawperator::skills
