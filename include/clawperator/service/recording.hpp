// A recording on the device, pulled into a private temporary directory, compiled into the
// payload that replays it and the copy removed (MCP's recording_compile; docs/recording.md):
// compile's document with the device's id, no host path in it.
#pragma once

#include <optional>
#include <string>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/cancel.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::service {

struct DeviceRecordingCompile {
  std::optional<std::string> session_id;  // nullopt: the device's latest
  bool close_app_first = false;
  Target target;
};
contract::Outcome<Json> compile_device_recording(const Session& session,
                                                 const DeviceRecordingCompile& call,
                                                 const process::CancelToken& cancel);

}  // namespace clawperator::service
