// host.video.dependencies: the host programs video evidence needs (docs/evidence.md, "Video
// prerequisites"). Advisory: a host without them still drives devices, so it warns, never
// fails, and never stops the checks after it.
#include <cstdlib>

#include "checks.hpp"
#include "clawperator/evidence/video_dependencies.hpp"

namespace clawperator::doctor {
namespace {

constexpr const char* kEvidenceDocs = "docs/evidence.md";

Json to_json(const evidence::Dependency& dependency) {
  return {{"name", dependency.name},
          {"executable", dependency.executable},
          {"source", dependency.source},
          {"usable", dependency.problem.empty()},
          {"problem", dependency.problem.empty() ? Json(nullptr) : Json(dependency.problem)},
          {"version", dependency.version ? Json(*dependency.version) : Json(nullptr)}};
}

}  // namespace

Check check_video_dependencies(DoctorContext& context) {
  Check check;
  check.id = "host.video.dependencies";
  // ffprobe for every recorder; scrcpy only for --recorder scrcpy, so its absence is noted,
  // not warned about.
  const auto dependencies =
      evidence::check_video_dependencies(evidence::Recorder::Scrcpy, context.runner,
                                         [](const char* name) { return std::getenv(name); });
  Json listed = Json::array();
  for (const evidence::Dependency& dependency : dependencies) listed.push_back(to_json(dependency));
  check.evidence = Json{{"dependencies", std::move(listed)}};
  const evidence::Dependency& ffprobe = dependencies.front();
  if (ffprobe.problem.empty()) {
    const bool scrcpy = dependencies.size() > 1 && dependencies[1].problem.empty();
    check.summary = "Video evidence can be recorded (ffprobe " + ffprobe.version.value_or("?") +
                    (scrcpy ? ", scrcpy " + dependencies[1].version.value_or("?") : "") + ")";
    return check;
  }
  check.status = Status::Warn;
  check.code = "HOST_DEPENDENCY_MISSING";
  check.summary = "ffprobe is " + ffprobe.problem + ": evidence video cannot be recorded";
  check.detail = ffprobe.executable + ": " + ffprobe.detail +
                 ". Everything else works; only `evidence video start` needs it.";
  check.fix = Fix{"Install ffprobe",
                  {manual_step("apt-get install ffmpeg (or brew install ffmpeg), or set "
                               "FFPROBE_PATH to an ffprobe executable")},
                  kEvidenceDocs};
  return check;
}

}  // namespace clawperator::doctor
