// The simulated Clawperator Operator: receives ACTION_AGENT_COMMAND broadcasts, runs one
// command at a time on the device's timers, and logs the result envelope (single line or
// chunk records, 1 ms apart) — or, for a command dispatched with a result_session, writes it
// to that session's socket (DirectResults) — with the scenario's faults applied.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "clawperator/json.hpp"
#include "vdevice/android/operator/direct_results.hpp"
#include "vdevice/android/operator/operator_actions.hpp"

namespace clawperator::vdevice::android {

class AndroidSystem;

class OperatorRuntime {
 public:
  explicit OperatorRuntime(AndroidSystem& system);
  ~OperatorRuntime();
  OperatorRuntime(const OperatorRuntime&) = delete;
  OperatorRuntime& operator=(const OperatorRuntime&) = delete;

  // Whether the scenario's faults hit this broadcast's command; uses up one of `faults.count`.
  // The readiness probe (a doctor_ping-only payload) is spared unless `includeProbes`.
  bool faults_apply(const std::optional<std::string>& payload);

  // A broadcast reached `package` (an installed Operator). Delivery takes a few ms. With a
  // `result_session` (and directTransport) the result goes to that session only.
  void receive(const std::string& package, std::optional<std::string> payload, bool faults,
               std::optional<std::string> result_session = std::nullopt);
  // ACTION_PREPARE_RESULT_CONNECTION reached `package`; an Operator without directTransport
  // ignores it, as an older one does.
  void prepare_result_connection(const std::string& package,
                                 const std::optional<std::string>& payload);

  std::size_t commands_finished() const noexcept { return finished_; }
  bool busy() const noexcept { return running_ != nullptr; }

 private:
  struct Command;

  void deliver(const std::string& package, const std::optional<std::string>& payload, bool faults,
               const std::optional<std::string>& result_session);
  void start_next();
  void run_step();
  void handle(StepOutcome outcome);
  void record_step(const StepOutcome& outcome);
  void finish(std::optional<std::string> error, std::optional<std::string> error_code);
  void emit(std::unique_ptr<Command> command, Json envelope);
  void log(char level, const std::string& message);

  AndroidSystem& system_;
  DirectResults direct_;
  std::deque<std::unique_ptr<Command>> queue_;
  std::unique_ptr<Command> running_;
  std::optional<int> faults_left_;
  std::size_t finished_ = 0;
  // Bumped per command, so that a timer of a command that already finished does nothing.
  std::uint64_t generation_ = 0;
};

}  // namespace clawperator::vdevice::android
