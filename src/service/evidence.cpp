#include "clawperator/service/evidence.hpp"

#include "clawperator/process/runner.hpp"
#include "clawperator/service/execution.hpp"

namespace clawperator::service {

evidence::EvidenceReport capture_evidence(const Session& session, const Target& target,
                                          const CaptureArguments& arguments,
                                          const process::CancelToken& cancel) {
  evidence::CaptureRequest request;
  request.label = arguments.label;
  request.context = arguments.context;
  request.timeout = arguments.timeout;
  request.output_dir = arguments.output_dir;
  request.device = execution_base(session, target, request.timeout);
  const auto runner = process::make_system_runner(cancel);
  return evidence::capture_evidence(request, *runner);
}

evidence::EvidenceReport start_video(const Session& session, const Target& target,
                                     const VideoStartArguments& arguments) {
  evidence::VideoStartRequest request;
  const DeviceChoice chosen = choose_device(session, target);
  request.device = chosen.device;
  request.operator_package = chosen.operator_package;
  request.adb = session.adb;
  request.state = session.state;
  request.duration_seconds = arguments.duration_seconds;
  request.size = arguments.size;
  request.label = arguments.label;
  request.context = arguments.context;
  request.recorder = arguments.recorder;
  const auto runner = process::make_system_runner();
  return evidence::start_video(request, *runner);
}

}  // namespace clawperator::service
