#include "clawperator/policy/confirmation.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "clawperator/io/log.hpp"
#include "clawperator/io/random_id.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::policy {
namespace {

using Clock = std::chrono::system_clock;

constexpr std::string_view kPrefix = "approval-";
constexpr std::string_view kRequestSuffix = ".json";
constexpr std::string_view kAnswerSuffix = ".answer.json";
// A request holds the step's labels and the question: well below this.
constexpr std::size_t kMaxRecordBytes = 256 * 1024;
constexpr std::size_t kMaxListed = 256;

std::string request_name(std::string_view id) {
  return std::string(kPrefix) + std::string(id) + std::string(kRequestSuffix);
}

std::string answer_name(std::string_view id) {
  return std::string(kPrefix) + std::string(id) + std::string(kAnswerSuffix);
}

long long epoch_ms(Clock::time_point when) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
}

Clock::time_point from_epoch_ms(long long ms) {
  return Clock::time_point(
      std::chrono::duration_cast<Clock::duration>(std::chrono::milliseconds(ms)));
}

// The file `name` of the state directory (a regular file of ours, never a link), at most
// kMaxRecordBytes; nullopt when it is not there or not readable.
std::optional<std::string> read_record(const io::StateDirectory& state, const std::string& name) {
  auto opened = state.open_file(name, O_RDONLY);
  if (!opened) return std::nullopt;
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(opened->fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxRecordBytes) break;
  }
  ::close(opened->fd);
  if (text.size() > kMaxRecordBytes) return std::nullopt;
  return text;
}

std::string text_of(const Json& record, const char* key) {
  const auto found = record.find(key);
  return found != record.end() && found->is_string() ? found->get<std::string>() : std::string();
}

// The approval `id` as its files say; nullopt when its request is missing or unreadable.
std::optional<Approval> load(const io::StateDirectory& state, std::string_view id) {
  const auto text = read_record(state, request_name(id));
  if (!text) return std::nullopt;
  const Json record = parse_json(*text);
  if (!record.is_object()) return std::nullopt;
  const Json created = record.value("createdAtMs", Json());
  const Json expires = record.value("expiresAtMs", Json());
  if (!created.is_number_integer() || !expires.is_number_integer()) return std::nullopt;
  Approval approval;
  approval.id = std::string(id);
  approval.request.digest = text_of(record, "digest");
  approval.request.rule_id = text_of(record, "ruleId");
  approval.request.reason = text_of(record, "reason");
  approval.request.policy_file = text_of(record, "policy");
  approval.request.step = record.value("step", Json::object());
  approval.request.device = text_of(record, "deviceId");
  approval.request.question = text_of(record, "question");
  approval.created = from_epoch_ms(created.get<long long>());
  approval.expires = from_epoch_ms(expires.get<long long>());
  if (approval.request.digest.empty()) return std::nullopt;
  if (const auto answer_text = read_record(state, answer_name(id))) {
    const Json answer = parse_json(*answer_text);
    if (answer.is_object()) {
      const std::string said = text_of(answer, "answer");
      // An answer file that says neither is no answer: nobody can run it.
      approval.state = said == "approved" ? ApprovalState::Approved : ApprovalState::Declined;
      approval.answered_by = Approver{text_of(answer, "through"), text_of(answer, "user")};
    } else {
      approval.state = ApprovalState::Declined;
    }
  }
  return approval;
}

bool expired(const Approval& approval) {
  return Clock::now() >= approval.expires;
}

void remove_files(const io::StateDirectory& state, std::string_view id) {
  state.remove(request_name(id));
  state.remove(answer_name(id));
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

std::string_view to_string(ApprovalState state) {
  switch (state) {
    case ApprovalState::Approved:
      return "approved";
    case ApprovalState::Declined:
      return "declined";
    case ApprovalState::Pending:
      break;
  }
  return "pending";
}

bool is_approval_id(std::string_view id) {
  if (id.size() != 32) return false;
  return std::all_of(id.begin(), id.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

Expected<Approval, Problem> record_approval(const io::StateDirectory& state,
                                            ApprovalRequest request) {
  Approval approval;
  approval.id = io::random_hex(16);
  approval.created = Clock::now();
  approval.expires = approval.created + kConfirmationLifetime;
  approval.request = std::move(request);
  // Approvals nobody used are swept when new ones are made (their answers too).
  state.remove_stale(kPrefix, kRequestSuffix, kConfirmationLifetime);
  const ApprovalRequest& asked = approval.request;
  const Json record = {{"approvalId", approval.id},
                       {"digest", asked.digest},
                       {"ruleId", asked.rule_id},
                       {"reason", asked.reason},
                       {"policy", asked.policy_file},
                       {"step", asked.step},
                       {"deviceId", asked.device},
                       {"question", asked.question},
                       {"createdAtMs", epoch_ms(approval.created)},
                       {"expiresAtMs", epoch_ms(approval.expires)}};
  CLAWPERATOR_TRY(state.create_file(request_name(approval.id), dump_json(record)));
  return approval;
}

Redeemed redeem_approval(const io::StateDirectory& state, std::string_view id,
                         std::string_view digest) {
  if (!is_approval_id(id)) return {};
  std::optional<Approval> approval = load(state, id);
  if (!approval) return {};
  if (expired(*approval) || approval->request.digest != digest) {
    // Spent: an id is never tried against one payload after another.
    remove_files(state, id);
    return {};
  }
  switch (approval->state) {
    case ApprovalState::Pending:
      return {Redemption::Pending, std::move(approval)};
    case ApprovalState::Declined:
      if (!state.remove(request_name(id))) return {};
      state.remove(answer_name(id));
      return {Redemption::Declined, std::move(approval)};
    case ApprovalState::Approved:
      break;
  }
  // Consumed now, by whoever unlinks it first: of two racing calls exactly one runs it.
  if (!state.remove(request_name(id))) return {};
  state.remove(answer_name(id));
  return {Redemption::Granted, std::move(approval)};
}

std::optional<Approval> find_approval(const io::StateDirectory& state, std::string_view id) {
  if (!is_approval_id(id)) return std::nullopt;
  std::optional<Approval> approval = load(state, id);
  if (!approval || expired(*approval)) return std::nullopt;
  return approval;
}

std::vector<Approval> pending_approvals(const io::StateDirectory& state) {
  std::vector<Approval> pending;
  for (const std::string& name : state.names_with(kPrefix, kRequestSuffix)) {
    const std::string_view id = std::string_view(name).substr(
        kPrefix.size(), name.size() - kPrefix.size() - kRequestSuffix.size());
    if (!is_approval_id(id)) continue;  // an answer, or not ours
    std::optional<Approval> approval = find_approval(state, id);
    if (approval && approval->state == ApprovalState::Pending) {
      pending.push_back(std::move(*approval));
    }
  }
  std::sort(pending.begin(), pending.end(),
            [](const Approval& a, const Approval& b) { return a.created < b.created; });
  if (pending.size() > kMaxListed) pending.resize(kMaxListed);
  return pending;
}

AnswerOutcome answer_approval(const io::StateDirectory& state, const Approval& approval,
                              bool approve, const Approver& approver) {
  // Still there, still this request, and nobody answered yet (a person may take minutes).
  const std::optional<Approval> current = find_approval(state, approval.id);
  if (!current || current->request.digest != approval.request.digest) return AnswerOutcome::Gone;
  if (current->state != ApprovalState::Pending) return AnswerOutcome::AlreadyAnswered;
  const Json answer = {{"answer", approve ? "approved" : "declined"},
                       {"through", approver.through},
                       {"user", approver.user},
                       {"atMs", epoch_ms(Clock::now())}};
  // O_EXCL: of two answers, the first one counts.
  if (!state.create_file(answer_name(approval.id), dump_json(answer))) {
    return state.status_of(answer_name(approval.id)) ? AnswerOutcome::AlreadyAnswered
                                                     : AnswerOutcome::Failed;
  }
  io::log_event(io::LogLevel::Info, "policy.decision",
                Json{{"approvalId", approval.id},
                     {"ruleId", approval.request.rule_id},
                     {"stepId", approval.request.step.value("id", Json(nullptr))},
                     {"actionType", approval.request.step.value("actionType", Json(nullptr))},
                     {"decision", "confirm"},
                     {"outcome", approve ? "approved by a person" : "declined by a person"},
                     {"answeredBy", {{"through", approver.through}, {"user", approver.user}}}});
  return AnswerOutcome::Recorded;
}

Json describe_approval(const Approval& approval) {
  Json described = {{"approvalId", approval.id},
                    {"state", to_string(approval.state)},
                    {"ruleId", approval.request.rule_id},
                    {"reason", approval.request.reason},
                    {"step", approval.request.step},
                    {"deviceId", approval.request.device},
                    {"question", approval.request.question},
                    {"createdAt", io::utc_timestamp(approval.created)},
                    {"expiresAt", io::utc_timestamp(approval.expires)}};
  if (approval.answered_by) {
    described["answeredBy"] = {{"through", approval.answered_by->through},
                               {"user", approval.answered_by->user}};
  }
  return described;
}

}  // namespace clawperator::policy
