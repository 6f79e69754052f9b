// ffprobe and ffmpeg, when the machine has them: what a player makes of a video file.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

namespace clawperator::testing {

// The full path of a program on PATH, or nullopt.
inline std::optional<std::string> program_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream directories(path != nullptr ? path : "/usr/bin:/bin");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    const std::string candidate = directory + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

// Runs a shell command line and returns its stdout; `status` gets its exit status.
inline std::string command_output(const std::string& command_line, int& status) {
  std::string out;
  FILE* pipe = ::popen(command_line.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char chunk[4096];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0) out.append(chunk, n);
  const int wait_status = ::pclose(pipe);
  status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  return out;
}

// `ffprobe -v error -show_streams -show_format -count_frames -of json FILE`'s stdout.
inline std::string ffprobe_json(const std::string& ffprobe, const std::string& file, int& status) {
  return command_output("'" + ffprobe +
                            "' -v error -show_streams -show_format -count_frames -of json '" +
                            file + "' 2>&1",
                        status);
}

}  // namespace clawperator::testing
