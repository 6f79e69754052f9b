#include "clawperator/io/host_roots.hpp"

#include <unistd.h>

#include <filesystem>
#include <string_view>

namespace clawperator::io {

std::vector<std::string> host_roots(const std::string& log_dir, const StateSelection& state,
                                    const std::string& adb_executable) {
  const StateEnvironment environment = process_state_environment();
  std::vector<std::string> roots = {log_dir, temp_directory(environment).string()};
  if (state.directory) roots.push_back(state.directory->path().string());
  if (state.refused) roots.push_back(state.refused->path.string());
  roots.push_back(default_state_dir(environment).string());
  if (auto home = home_state_dir(environment)) roots.push_back(home->string());
  if (const char* home = environment.variable("HOME")) roots.emplace_back(home);
  std::error_code ignored;
  roots.push_back(std::filesystem::read_symlink("/proc/self/exe", ignored).parent_path());
  if (adb_executable.find('/') != std::string::npos) {
    roots.push_back(std::filesystem::absolute(adb_executable, ignored).string());
  } else if (const char* search = environment.variable("PATH")) {
    for (std::string_view rest = search; !rest.empty();) {
      const auto colon = rest.find(':');
      const std::filesystem::path candidate =
          std::filesystem::path(std::string(rest.substr(0, colon))) / adb_executable;
      if (::access(candidate.c_str(), X_OK) == 0) roots.push_back(candidate.string());
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  }
  // The real path of each: /usr/bin/adb is a link into /usr/lib/android-sdk on Debian, and
  // doctor reports where it leads.
  const std::size_t named = roots.size();
  for (std::size_t i = 0; i < named; ++i) {
    if (roots[i].empty()) continue;
    std::error_code missing;
    const std::filesystem::path real = std::filesystem::canonical(roots[i], missing);
    if (!missing && real.string() != roots[i]) roots.push_back(real.string());
  }
  return roots;
}

}  // namespace clawperator::io
