// One-time confirmation tokens (docs/guardrails.md, "Confirming"): a payload a `confirm` rule
// stopped gets a token bound to what it would do on which device; the same call given the
// token within five minutes goes through once. Tokens live in the private state directory,
// one file each, and are consumed by unlinking them, so a token works once even when two
// calls race.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "clawperator/contract/execution.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/io/state_directory.hpp"

namespace clawperator::policy {

inline constexpr std::chrono::seconds kConfirmationLifetime{300};

// SHA-256 of the actions as the device would receive them (not the command or task id, which
// every run makes anew), the device and the Operator: a changed step, device or Operator is
// another payload.
std::string payload_digest(const contract::Execution& execution, std::string_view serial,
                           std::string_view operator_package);

struct IssuedToken {
  std::string token;  // 32 lowercase hex digits (128 random bits)
  std::chrono::system_clock::time_point expires;
};

// A new token for `digest`, naming the rule and step that asked for it; or what went wrong (the
// problem's path is the token's file, which holds the token: show the message alone).
Expected<IssuedToken, Problem> issue_confirmation(const io::StateDirectory& state,
                                                  std::string_view digest, std::string_view rule_id,
                                                  std::string_view step_id);

// Consumes `token`: true only when it exists, was issued for `digest`, and has not expired. The
// token is gone afterwards whatever the answer (a wrong payload spends it too, so it cannot be
// tried against one payload after another).
bool redeem_confirmation(const io::StateDirectory& state, std::string_view token,
                         std::string_view digest);

bool is_token_text(std::string_view token);

}  // namespace clawperator::policy
