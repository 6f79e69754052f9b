// The Operator's side of the direct result transport (the exact frame sequence
// is in docs/vdevice.md, "Direct results"): ACTION_PREPARE_RESULT_CONNECTION opens a session
// that listens on the abstract socket `<package>.result.<sessionId>` for its lifetime; the
// host reaches it through `adb forward`, and a command dispatched with `--es result_session ID`
// sends its result there instead of to logcat. Scenario faults (`faults.direct`) break the
// exchange in the ways the host must survive.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace clawperator::vdevice::android {

class AndroidSystem;

inline constexpr const char* kPrepareResultConnectionAction =
    "app.clawperator.operator.ACTION_PREPARE_RESULT_CONNECTION";

class DirectResults {
 public:
  explicit DirectResults(AndroidSystem& system);
  ~DirectResults();
  DirectResults(const DirectResults&) = delete;
  DirectResults& operator=(const DirectResults&) = delete;

  // The prepare broadcast reached `package`: listens at once (before `am broadcast` answers,
  // as a receiver that opens its socket in onReceive() does). A payload that is not a valid
  // request is logged and ignored.
  void prepare(const std::string& package, const std::optional<std::string>& payload);

  // Hands a finished command's canonical result line to its session. False when no such
  // session is open (never prepared, expired, or its connection is gone): the result is lost,
  // as the Operator writes it to the socket only.
  bool deliver(const std::string& session_id, const std::string& command_id,
               const std::string& task_id, std::string line);

  struct Session;
  class Connection;

 private:
  void expire(const std::string& session_id);
  void log(char level, const std::string& message);

  AndroidSystem& system_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::map<std::string, std::shared_ptr<Session>> sessions_;
  std::optional<int> faults_left_;
};

}  // namespace clawperator::vdevice::android
