#include "skill_files.hpp"

#include <cerrno>
#include <cstring>

namespace clawperator::skills {

std::optional<std::string> errno_name_of_message(std::string_view message) {
  // glibc numbers its errors below 134; strerrorname_np gives the symbolic name.
  for (int code = 1; code < 134; ++code) {
    if (message != std::strerror(code)) continue;
    if (const char* name = ::strerrorname_np(code)) return std::string(name);
  }
  return std::nullopt;
}

}  // namespace clawperator::skills
