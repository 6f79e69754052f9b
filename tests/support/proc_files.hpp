// Reading /proc while processes come and go: a process may exit between listing
// and reading, and libstdc++'s ifstream then throws from underflow (ESRCH). These
// helpers use plain read(2) and treat a vanished process as empty.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace clawperator::testing {

inline std::string read_proc_file(const std::string& path) {
  std::string content;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return content;
  char buffer[4096];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) break;
    content.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return content;
}

// Every pid listed in /proc at the moment of asking.
inline std::vector<pid_t> all_pids() {
  std::vector<pid_t> pids;
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return pids;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    pids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  ::closedir(dir);
  return pids;
}

}  // namespace clawperator::testing
