#include "clawperator/service/recording.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/process/runner.hpp"
#include "clawperator/recording/compile.hpp"
#include "clawperator/recording/pull.hpp"

namespace clawperator::service {

contract::Outcome<Json> compile_device_recording(const Session& session,
                                                 const DeviceRecordingCompile& call,
                                                 const process::CancelToken& cancel) {
  const DeviceChoice chosen = choose_device(session, call.target);
  recording::PullRequest request;
  request.session_id = call.session_id;
  request.operator_package = chosen.operator_package;
  CLAWPERATOR_TRY(recording::check_pull_request(request));
  // The copy lives in a directory only this process can enter, and goes when the call ends.
  std::string pattern =
      (io::temp_directory(io::process_state_environment()) / "clawperator-recording-XXXXXX")
          .string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    const int error = errno;
    return contract::failed(contract::make_error(
        contract::Phase::Readiness, "RECORDING_PULL_FAILED",
        std::string("Cannot create a temporary directory for the recording: ") +
            std::strerror(error),
        Json{{"errno", error}}));
  }
  const std::filesystem::path directory = pattern;
  struct RemoveDirectory {
    std::filesystem::path path;
    ~RemoveDirectory() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } cleanup{directory};
  request.out_dir = directory;

  const auto runner = process::make_system_runner(cancel);
  adb::AdbClient client(*runner, session.adb);
  const contract::Outcome<std::string> serial = adb::resolve_device(client, chosen.device);
  if (!serial) return contract::failed(serial.error());
  CLAWPERATOR_TRY_ASSIGN(auto pulled, recording::pull_recording(client, *serial, request));
  recording::CompileOptions options;
  options.close_app_first = call.close_app_first;
  auto compiled = recording::compile_recording(
      directory / (pulled.at("sessionId").get<std::string>() + ".ndjson"), options);
  if (!compiled) {
    contract::HostError error = compiled.error();
    error.details.erase("path");  // the temporary copy, gone already
    return contract::failed(std::move(error));
  }
  Json document = recording::to_json(*compiled);
  document["deviceId"] = *serial;
  return document;
}

}  // namespace clawperator::service
