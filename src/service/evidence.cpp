#include "clawperator/service/evidence.hpp"

#include "clawperator/process/runner.hpp"
#include "clawperator/service/execution.hpp"

namespace clawperator::service {

evidence::EvidenceReport capture_evidence(const Session& session, const Target& target,
                                          evidence::CaptureRequest request,
                                          const process::CancelToken& cancel) {
  request.device = execution_base(session, target, request.timeout);
  const auto runner = process::make_system_runner(cancel);
  return evidence::capture_evidence(request, *runner);
}

evidence::EvidenceReport start_video(const Session& session, const Target& target,
                                     evidence::VideoStartRequest request) {
  const DeviceChoice chosen = choose_device(session, target);
  request.device = chosen.device;
  request.operator_package = chosen.operator_package;
  request.adb = session.adb;
  request.state = session.state;
  const auto runner = process::make_system_runner();
  return evidence::start_video(request, *runner);
}

}  // namespace clawperator::service
