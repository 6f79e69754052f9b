#include "payload_route.hpp"

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/io/atomic_file.hpp"
#include "clawperator/io/random_id.hpp"

namespace clawperator::exec {
namespace {

constexpr std::chrono::milliseconds kPushTimeout{30000};
constexpr std::string_view kLocalPayloadPrefix = "clawperator-payload-";
constexpr std::chrono::milliseconds kRemovePayloadTimeout{5000};

// The local copy exists only while adb push reads it.
class LocalFile {
 public:
  explicit LocalFile(std::filesystem::path path) : path_(std::move(path)) {}
  ~LocalFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  LocalFile(const LocalFile&) = delete;
  LocalFile& operator=(const LocalFile&) = delete;

 private:
  std::filesystem::path path_;
};

}  // namespace

contract::Outcome<BroadcastRoute> route_payload(adb::AdbClient& client, const std::string& serial,
                                                const std::string& payload_json,
                                                const std::string& result_session,
                                                const io::StateDirectory* state,
                                                const std::filesystem::path& local_directory,
                                                const ExecutionTrace& trace) {
  BroadcastRoute route;
  route.payload_bytes = payload_json.size();
  route.command = adb::broadcast_command(trace.operator_package, payload_json, result_session);
  route.log_form = adb::redacted_broadcast_command(trace.operator_package, result_session);
  if (route.command.size() <= kInlineCommandLimit) return route;

  const std::string name = "clawperator-payload-" + io::random_uuid() + ".json";
  const std::string device_path = "/data/local/tmp/" + name;
  std::filesystem::path local = (state != nullptr ? state->path() : local_directory) / name;
  Expected<void, Problem> written;
  if (state != nullptr) {
    state->remove_stale(kLocalPayloadPrefix, ".json", kStalePayloadAge);
    written = state->create_file(name, payload_json);
  } else {
    written = io::write_new_file(local, payload_json);
  }
  if (!written) {
    const std::string& problem = written.error().message;  // the file is payloadFile
    Json details = Json::object();
    details["payloadFile"] = local.string();
    details["problem"] = problem;
    return contract::failed(trace.fail(
        "BROADCAST_FAILED", "Could not write the payload to a local file for adb push: " + problem,
        details));
  }
  process::Completion pushed;
  {
    const LocalFile remove_when_done(local);
    pushed = client.push(serial, local.string(), device_path, kPushTimeout);
  }
  if (auto status =
          adb::adb_call_failure(pushed, client.settings(), "adb push", "BROADCAST_FAILED", serial);
      !status) {
    status.error().details["payloadRoute"] = "push";
    status.error().details["devicePath"] = device_path;
    status.error().details["payloadBytes"] = payload_json.size();
    if (status.error().code == "BROADCAST_FAILED") {
      // The device was reached (adb's own failures have their codes): whatever part of the
      // file arrived is never broadcast, and nothing is left behind.
      // Best effort through the one checked device-shell call: the push's failure is the status.
      (void)adb::run_device_shell(
          client, serial,
          {"rm -f " + adb::quote_for_device_shell(device_path), "rm -f the pushed payload",
           kRemovePayloadTimeout, "BROADCAST_FAILED"});
      status.error().message =
          "adb push of the payload failed, so nothing was broadcast: " + status.error().message;
    }
    return contract::failed(trace.attach(std::move(status.error())));
  }
  route.command = adb::file_broadcast_command(trace.operator_package, device_path, result_session);
  route.log_form = route.command;  // the path only: no payload
  route.pushed = true;
  return route;
}

}  // namespace clawperator::exec
