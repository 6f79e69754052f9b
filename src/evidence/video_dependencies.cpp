#include "clawperator/evidence/video_dependencies.hpp"

#include <charconv>
#include <cstring>

#include "clawperator/text.hpp"

namespace clawperator::evidence {
namespace {

constexpr std::chrono::milliseconds kVersionTimeout{5000};

std::string first_line(std::string_view text) {
  text = trim(text);
  return std::string(text.substr(0, std::min<std::size_t>(text.find('\n'), 300)));
}

Dependency probe(std::string name, const char* override_variable, std::string version_flag,
                 std::string requirement, process::Runner& runner, const VariableLookup& variable) {
  Dependency dependency;
  dependency.name = std::move(name);
  dependency.requirement = std::move(requirement);
  const char* named = variable(override_variable);
  dependency.executable = named != nullptr && *named != '\0' ? named : dependency.name;
  dependency.source = named != nullptr && *named != '\0' ? override_variable : "PATH";
  process::CommandSpec spec;
  spec.argv = {dependency.executable, std::move(version_flag)};
  spec.timeout = kVersionTimeout;
  spec.max_output_bytes = 64 * 1024;
  const process::Completion run = runner.run(spec);
  if (run.status == process::Completion::Status::SpawnFailed) {
    dependency.problem =
        process::spawn_error_is_not_found(run.spawn_errno) ? "missing" : "fails to run";
    dependency.detail = std::strerror(run.spawn_errno);
    return dependency;
  }
  if (run.status != process::Completion::Status::Exited || run.exit_code != 0) {
    dependency.problem = "fails to run";
    dependency.detail = first_line(run.err.empty() ? run.out : run.err);
    if (dependency.detail.empty()) {
      dependency.detail =
          std::string(process::to_string(run.status)) + ", exit " + std::to_string(run.exit_code);
    }
    return dependency;
  }
  dependency.detail = first_line(run.out);
  return dependency;
}

}  // namespace

std::string_view to_string(Recorder recorder) {
  return recorder == Recorder::Scrcpy ? "scrcpy" : "screenrecord";
}

std::optional<Recorder> parse_recorder(std::string_view text) {
  if (text == "screenrecord") return Recorder::Screenrecord;
  if (text == "scrcpy") return Recorder::Scrcpy;
  return std::nullopt;
}

std::optional<std::pair<int, int>> parse_scrcpy_version(std::string_view output) {
  output = trim(output);
  if (output.rfind("scrcpy ", 0) != 0) return std::nullopt;
  std::string_view rest = output.substr(7);
  int major = 0, minor = 0;
  const char* end = rest.data() + rest.size();
  auto [at, error] = std::from_chars(rest.data(), end, major);
  if (error != std::errc()) return std::nullopt;
  if (at != end && *at == '.') {
    auto [minor_at, minor_error] = std::from_chars(at + 1, end, minor);
    if (minor_error != std::errc()) return std::nullopt;
    at = minor_at;
  }
  if (at != end && !is_blank_char(*at) && *at != '.') return std::nullopt;
  return std::pair{major, minor};
}

std::optional<std::string> parse_ffprobe_version(std::string_view output) {
  output = trim(output);
  constexpr std::string_view kPrefix = "ffprobe version ";
  if (output.rfind(kPrefix, 0) != 0) return std::nullopt;
  std::string_view rest = output.substr(kPrefix.size());
  std::size_t end = 0;
  while (end < rest.size() && !is_blank_char(rest[end])) ++end;
  if (end == 0) return std::nullopt;
  return std::string(rest.substr(0, end));
}

std::vector<Dependency> check_video_dependencies(Recorder recorder, process::Runner& runner,
                                                 const VariableLookup& variable) {
  std::vector<Dependency> dependencies;
  Dependency ffprobe = probe("ffprobe", "FFPROBE_PATH", "-version",
                             "ffprobe (Debian/Ubuntu: apt-get install ffmpeg) reads the finished "
                             "video's codec, duration and frame count",
                             runner, variable);
  if (ffprobe.problem.empty()) {
    ffprobe.version = parse_ffprobe_version(ffprobe.detail);
    if (!ffprobe.version) {
      ffprobe.problem = "fails to run";
      ffprobe.detail = "'" + ffprobe.executable +
                       " -version' did not print an ffprobe version: " + ffprobe.detail;
    }
  }
  dependencies.push_back(std::move(ffprobe));
  if (recorder == Recorder::Scrcpy) {
    Dependency scrcpy =
        probe("scrcpy", "SCRCPY_PATH", "--version",
              "scrcpy 3.0 or newer records the device's screen on the host", runner, variable);
    if (scrcpy.problem.empty()) {
      const auto version = parse_scrcpy_version(scrcpy.detail);
      if (!version) {
        scrcpy.problem = "fails to run";
        scrcpy.detail = "'" + scrcpy.executable +
                        " --version' did not print a scrcpy version: " + scrcpy.detail;
      } else {
        scrcpy.version = std::to_string(version->first) + "." + std::to_string(version->second);
        if (version->first < 3)
          scrcpy.problem = "version " + *scrcpy.version + " is older than 3.0";
      }
    }
    dependencies.push_back(std::move(scrcpy));
  }
  return dependencies;
}

contract::Status dependency_error(const std::vector<Dependency>& dependencies) {
  Json listed = Json::array();
  std::string names;
  for (const Dependency& dependency : dependencies) {
    if (dependency.problem.empty()) continue;
    listed.push_back({{"name", dependency.name},
                      {"executable", dependency.executable},
                      {"source", dependency.source},
                      {"problem", dependency.problem},
                      {"requirement", dependency.requirement},
                      {"version", dependency.version ? Json(*dependency.version) : Json(nullptr)},
                      {"detail", dependency.detail}});
    names += (names.empty() ? "" : ", ") + dependency.name + " (" + dependency.problem + ")";
  }
  if (listed.empty()) return {};
  contract::HostError error =
      contract::readiness_error("HOST_DEPENDENCY_MISSING",
                                "Video recording needs host programs that are not usable: " + names,
                                {{"dependencies", std::move(listed)}});
  return contract::failed(std::move(error));
}

}  // namespace clawperator::evidence
