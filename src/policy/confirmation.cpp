#include "clawperator/policy/confirmation.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "clawperator/io/random_id.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::policy {
namespace {

constexpr std::string_view kPrefix = "confirmation-";

std::string file_name(std::string_view token) {
  return std::string(kPrefix) + std::string(token) + ".json";
}

long long epoch_seconds(std::chrono::system_clock::time_point when) {
  return std::chrono::duration_cast<std::chrono::seconds>(when.time_since_epoch()).count();
}

}  // namespace

std::string payload_digest(const contract::Execution& execution, std::string_view serial,
                           std::string_view operator_package) {
  Json actions = Json::array();
  for (const contract::Action& action : execution.actions) {
    actions.push_back(contract::to_device_json(action));
  }
  const Json bound = {
      {"actions", std::move(actions)}, {"deviceId", serial}, {"operatorPackage", operator_package}};
  return transport::sha256_hex(dump_json(bound));
}

bool is_token_text(std::string_view token) {
  if (token.size() != 32) return false;
  for (const char c : token) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

Expected<IssuedToken, Problem> issue_confirmation(const io::StateDirectory& state,
                                                  std::string_view digest, std::string_view rule_id,
                                                  std::string_view step_id) {
  IssuedToken issued;
  issued.token = io::random_hex(16);
  issued.expires = std::chrono::system_clock::now() + kConfirmationLifetime;
  // Tokens nobody used are swept when new ones are made.
  state.remove_stale(kPrefix, ".json", kConfirmationLifetime);
  const Json record = {{"digest", digest},
                       {"ruleId", rule_id},
                       {"stepId", step_id},
                       {"expiresAt", epoch_seconds(issued.expires)}};
  CLAWPERATOR_TRY(state.create_file(file_name(issued.token), dump_json(record)));
  return issued;
}

bool redeem_confirmation(const io::StateDirectory& state, std::string_view token,
                         std::string_view digest) {
  if (!is_token_text(token)) return false;
  const std::string name = file_name(token);
  auto opened = state.open_file(name, O_RDONLY);
  if (!opened) return false;
  std::string text;
  char buffer[1024];
  for (ssize_t n = 0; (n = ::read(opened->fd, buffer, sizeof buffer)) > 0 && text.size() < 4096;) {
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(opened->fd);
  // Spent now, by whoever unlinks it first.
  if (!state.remove(name)) return false;
  const Json record = parse_json(text);
  if (!record.is_object() || record.value("digest", "") != digest) return false;
  const Json expires = record.value("expiresAt", Json());
  return expires.is_number_integer() &&
         expires.get<long long>() >= epoch_seconds(std::chrono::system_clock::now());
}

}  // namespace clawperator::policy
