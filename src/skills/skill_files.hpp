// What the skill commands say of a file the system refused. Private to src/skills; the files
// themselves are read capped by io::read_regular_file (clawperator/io/bounded_file.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::skills {

// The errno name ("EACCES") whose strerror text is `message`, else nullopt: the io helpers
// report strerror text, and SKILLS_SCAFFOLD_FAILED's details.cause is the stable name.
std::optional<std::string> errno_name_of_message(std::string_view message);

}  // namespace clawperator::skills
