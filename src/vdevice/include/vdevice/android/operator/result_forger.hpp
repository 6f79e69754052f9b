// The scenario's forger app (ForgerSpec): any app can log under any tag, so it logs a success
// envelope for every agent command the Operator is sent — 1 ms after the Operator receives it,
// so before the Operator's own result — under the Operator's result tag, framed as the
// Operator frames results. Only its pid and uid give it away: the host's result authenticity
// check must (docs/guardrails.md).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace clawperator::vdevice::android {

class AndroidSystem;

class ResultForger {
 public:
  explicit ResultForger(AndroidSystem& system) : system_(system) {}

  // An ACTION_AGENT_COMMAND broadcast reached an Operator, with this `payload` extra. Nothing
  // happens without a forger, or once its package is uninstalled, or for a payload that names
  // no command.
  void overhear(const std::optional<std::string>& payload);

  // Envelopes forged so far, each counted once however many records it took.
  std::size_t forged() const noexcept { return forged_; }

 private:
  void forge(const std::string& payload);

  AndroidSystem& system_;
  std::size_t forged_ = 0;
};

}  // namespace clawperator::vdevice::android
