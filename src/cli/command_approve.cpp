// `approve [ID]`: a person grants (or declines) a step the action policy stopped
// (docs/guardrails.md §5), on this host's controlling terminal and nowhere else: the question is
// written to /dev/tty and the answer read from it, whatever stdin and stdout are, and no flag or
// variable skips it. Without a terminal this process may ask on, nothing is approved.
#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/io/account_home.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/io/utc_time.hpp"
#include "clawperator/policy/confirmation.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/terminal.hpp"

namespace clawperator::cli {
namespace {

using contract::HostError;

// A person gets this long to answer each question; no answer leaves the approval pending.
constexpr std::chrono::milliseconds kAnswerTimeout{120000};

HostError with_id(HostError error, const std::optional<std::string>& id) {
  if (id) error.details["approvalId"] = *id;
  return error;
}

HostError no_terminal(const std::optional<std::string>& id) {
  return with_id(
      contract::readiness_error(
          "CONFIRMATION_APPROVER_REQUIRED",
          "clawperator approve asks a person on this host's terminal, and this process has none "
          "it may ask on (no controlling terminal, or not in its foreground); nothing was "
          "approved"),
      id);
}

HostError unknown(const std::string& id, const std::string& why) {
  return with_id(contract::readiness_error("CONFIRMATION_UNKNOWN", "Approval " + id + " is " + why +
                                                                       "; nothing was approved"),
                 id);
}

HostError state_directory_missing(const io::StateSelection& state) {
  HostError error = contract::readiness_error(
      "STATE_DIRECTORY_UNSAFE",
      state.refused ? "CLAWPERATOR_STATE_DIR is not a private directory of this user (" +
                          state.refused->path.string() + ": " + state.refused->problem + ")"
                    : std::string("No private state directory holds approvals on this host"));
  if (state.refused) {
    error.details["stateDir"] = state.refused->path.string();
    error.details["problem"] = state.refused->problem;
  }
  return error;
}

// What the person sees: the step, the app, the device, the rule and its reason (the question
// recorded with it), and until when it may run.
std::string shown(const policy::Approval& approval) {
  const auto left = std::chrono::duration_cast<std::chrono::seconds>(
                        approval.expires - std::chrono::system_clock::now())
                        .count();
  return "\nclawperator: a step the action policy stopped waits for your approval\n"
         "Approval " +
         approval.id + ", recorded " + io::utc_timestamp(approval.created) + "\n" +
         approval.request.question + "\nIf you approve it, the identical call with --confirm " +
         approval.id + " runs it once, within " + std::to_string(left > 0 ? left : 0) +
         " s.\nApprove it? [y/N] ";
}

// One question and its answer: the approval's document ({approvalId, approved, state}), an
// error when it could not be answered, and whether the person gave no answer (Ctrl-C, the end
// of input, the time limit), which leaves it pending and ends a walk through several.
struct Asked {
  contract::Outcome<Json> document;
  bool no_answer = false;
};

Asked ask(int tty, const io::StateDirectory& state, const policy::Approval& approval) {
  process::write_to_terminal(tty, shown(approval));
  const std::optional<std::string> line = process::read_terminal_line(tty, kAnswerTimeout);
  Json document = {{"approvalId", approval.id}};
  if (!line) {
    process::write_to_terminal(tty, "\nNo answer: approval " + approval.id + " still waits.\n");
    document["approved"] = false;
    document["state"] = "pending";
    return {std::move(document), true};
  }
  const bool approve = process::is_yes(*line);
  switch (policy::answer_approval(state, approval, approve,
                                  {"terminal", io::account_name(::getuid())})) {
    case policy::AnswerOutcome::Recorded:
      break;
    case policy::AnswerOutcome::Gone:
      process::write_to_terminal(tty, "It was used, expired or spent meanwhile.\n");
      return {contract::failed(unknown(approval.id, "used, expired or spent meanwhile")), false};
    case policy::AnswerOutcome::AlreadyAnswered:
      process::write_to_terminal(tty, "Someone else answered it meanwhile.\n");
      return {contract::failed(unknown(approval.id, "already answered")), false};
    case policy::AnswerOutcome::Failed:
      return {contract::failed(with_id(
                  contract::usage_error("INTERNAL_ERROR",
                                        "The answer could not be written to the state directory"),
                  approval.id)),
              false};
  }
  process::write_to_terminal(tty, approve ? "Approved.\n" : "Declined.\n");
  document["approved"] = approve;
  document["state"] = approve ? "approved" : "declined";
  return {std::move(document), false};
}

CommandResult run_approve(const std::string& typed) {
  std::optional<std::string> id;
  if (!typed.empty()) {
    if (!policy::is_approval_id(typed)) {
      return usage_failure(
          "approve takes the 32-character approval id a CONFIRMATION_REQUIRED gave (got '" + typed +
              "')",
          Json{{"argument", "id"}});
    }
    id = typed;
  }
  // Ctrl-C while a question waits is no answer, not sudden death: the JSON is still printed.
  process::install_interrupt_handlers();
  // Before anything else: without a person at this host's terminal, nothing is even looked up.
  const process::UniqueFd tty = process::open_foreground_terminal();
  if (!tty.valid()) return failure(no_terminal(id));
  const io::StateSelection state = state_directory_for_run();
  if (!state.directory) return failure(with_id(state_directory_missing(state), id));

  if (id) {
    const std::optional<policy::Approval> approval = policy::find_approval(*state.directory, *id);
    if (!approval) return failure(unknown(*id, "unknown, used or expired"));
    if (approval->state != policy::ApprovalState::Pending) {
      return failure(unknown(*id, "already " + std::string(policy::to_string(approval->state))));
    }
    Asked asked = ask(tty.get(), *state.directory, *approval);
    if (!asked.document) return failure(asked.document.error());
    Json document = {{"ok", true}};
    for (auto& [key, value] : asked.document->items()) document[key] = std::move(value);
    return success(std::move(document));
  }

  // Without an id: each pending approval in turn, oldest first.
  const std::vector<policy::Approval> pending = policy::pending_approvals(*state.directory);
  if (pending.empty()) process::write_to_terminal(tty.get(), "No approval waits.\n");
  Json answered = Json::array();
  for (const policy::Approval& approval : pending) {
    Asked asked = ask(tty.get(), *state.directory, approval);
    if (asked.document) {
      answered.push_back(std::move(*asked.document));
    } else {
      // Gone or answered meanwhile: said on the terminal, and the walk goes on.
      answered.push_back(Json{{"approvalId", approval.id},
                              {"approved", false},
                              {"state", "gone"},
                              {"code", asked.document.error().code}});
    }
    if (asked.no_answer) break;
  }
  return success(Json{{"ok", true}, {"approvals", std::move(answered)}});
}

}  // namespace

void register_approve_commands(CommandLine root, std::vector<Command>& commands) {
  auto id = std::make_shared<std::string>();
  CommandLine approve =
      root.add_subcommand("approve", "Approve a step the action policy stopped, at this terminal");
  approve.group("Execution");
  approve.add_option("id", *id,
                     "The approvalId of a CONFIRMATION_REQUIRED; without it, each pending one "
                     "in turn");
  set_command_footer(
      approve,
      "Notes:\n"
      "  A person approves here, never a script: the step, the app, the device, the rule and its\n"
      "  reason are shown on this host's controlling terminal (/dev/tty) and the answer is read\n"
      "  from it (y or yes approves; anything else declines; no answer leaves it pending).\n"
      "  Without a terminal it is refused (CONFIRMATION_APPROVER_REQUIRED). Then the identical\n"
      "  call with --confirm ID runs once (docs/guardrails.md).\n\n"
      "Examples:\n"
      "  clawperator approve 3f2a9c0d4b5e6f708192a3b4c5d6e7f8\n"
      "  clawperator approve");
  commands.push_back(
      Command{approve.app(), [id](const GlobalOptions&) { return run_approve(*id); }, {}});
}

}  // namespace clawperator::cli
