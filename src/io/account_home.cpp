#include "clawperator/io/account_home.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

namespace clawperator::io {

namespace {

// The passwd entry of `uid` through getpwuid_r, its buffer grown as needed; nullptr when none.
passwd* passwd_entry(uid_t uid, passwd& entry, std::vector<char>& buffer) {
  const long suggested = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  buffer.resize(suggested > 0 ? static_cast<std::size_t>(suggested) : 4096);
  passwd* found = nullptr;
  int error = 0;
  // A large directory service entry does not fit the suggested size: grow, within reason.
  while ((error = ::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found)) == ERANGE &&
         buffer.size() < (std::size_t{1} << 20)) {
    buffer.resize(buffer.size() * 2);
  }
  return error == 0 ? found : nullptr;
}

}  // namespace

std::optional<std::string> passwd_home_directory(uid_t uid) {
  passwd entry{};
  std::vector<char> buffer;
  const passwd* found = passwd_entry(uid, entry, buffer);
  if (found == nullptr || found->pw_dir == nullptr || *found->pw_dir == '\0') {
    return std::nullopt;
  }
  return std::string(found->pw_dir);
}

std::string account_name(uid_t uid) {
  passwd entry{};
  std::vector<char> buffer;
  const passwd* found = passwd_entry(uid, entry, buffer);
  if (found == nullptr || found->pw_name == nullptr || *found->pw_name == '\0') {
    return "uid " + std::to_string(uid);
  }
  return std::string(found->pw_name);
}

}  // namespace clawperator::io
