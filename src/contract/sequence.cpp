#include "clawperator/contract/sequence.hpp"

#include <map>
#include <string>

#include "clawperator/contract/payload_validation.hpp"

namespace clawperator::contract {
namespace {

HostError sequence_fault(std::string path, std::string message) {
  Json details = Json::object();
  details["path"] = path;
  details["reason"] = (path.empty() ? std::string("(sequence)") : path) + ": " + message;
  return validation_error("EXECUTION_VALIDATION_FAILED", std::move(message), std::move(details));
}

// A payload's own fault, named from the sequence: its paths prefixed, its index given.
HostError in_sequence(HostError error, std::size_t index) {
  const std::string prefix = "executions." + std::to_string(index);
  if (auto path = error.details.find("path"); path != error.details.end() && path->is_string()) {
    const std::string own = path->get<std::string>();
    *path = own.empty() ? prefix : prefix + "." + own;
  }
  error.details["executionIndex"] = index;
  return error;
}

}  // namespace

bool is_sequence(const Json& input) {
  return input.is_object() && input.contains("executions");
}

Outcome<Sequence> admit_sequence(const Json& input,
                                 std::optional<std::string_view> timeout_override,
                                 RandomText random) {
  if (!input.is_object()) return failed(sequence_fault("", "A sequence must be a JSON object"));
  std::vector<std::string> unknown;
  for (const auto& [key, value] : input.items()) {
    if (key != "executions") unknown.push_back(key);
  }
  if (!unknown.empty()) {
    HostError error = sequence_fault("", "Unrecognized key(s) in object: '" + unknown.front() +
                                             "' (a sequence holds only `executions`)");
    error.details["invalidKeys"] = unknown;
    return failed(std::move(error));
  }
  const Json& executions = input["executions"];
  if (!executions.is_array() || executions.empty()) {
    return failed(sequence_fault("executions", "executions must be a non-empty array of payloads"));
  }
  if (executions.size() > kMaxSequenceExecutions) {
    HostError error = sequence_fault(
        "executions", "A sequence holds at most " + std::to_string(kMaxSequenceExecutions) +
                          " payloads, not " + std::to_string(executions.size()));
    error.details["maxExecutions"] = kMaxSequenceExecutions;
    return failed(std::move(error));
  }
  Sequence sequence;
  std::map<std::string, std::size_t> command_ids;
  for (std::size_t index = 0; index < executions.size(); ++index) {
    if (executions[index].contains("executions")) {
      return failed(sequence_fault("executions." + std::to_string(index),
                                   "A sequence's payload may not be a sequence"));
    }
    ValidationOutcome outcome = validate_execution(executions[index], random);
    if (!outcome.valid) {
      for (ValidationIssue& issue : outcome.issues) {
        issue.path = "executions." + std::to_string(index) +
                     (issue.path.empty() ? std::string() : "." + issue.path);
      }
      HostError error = validation_failure(outcome.issues);
      error.details["executionIndex"] = index;
      return failed(std::move(error));
    }
    Execution& execution = *outcome.valid;
    if (timeout_override) {
      if (Status status = apply_timeout_override(execution, *timeout_override); !status) {
        return failed(in_sequence(status.error(), index));
      }
    }
    if (Status status = check_payload_size(execution); !status) {
      return failed(in_sequence(status.error(), index));
    }
    // The Operator's results are told apart by command id, and so are a report's suites.
    const auto [earlier, fresh] = command_ids.emplace(execution.command_id, index);
    if (!fresh) {
      HostError error = sequence_fault(
          "executions." + std::to_string(index) + ".commandId",
          "commandId '" + execution.command_id + "' is also executions." +
              std::to_string(earlier->second) + "'s: each payload of a sequence needs its own");
      error.details["executionIndex"] = index;
      return failed(std::move(error));
    }
    sequence.executions.push_back(std::move(execution));
  }
  return sequence;
}

Json to_device_json(const Sequence& sequence) {
  Json executions = Json::array();
  for (const Execution& execution : sequence.executions) {
    executions.push_back(to_device_json(execution));
  }
  return Json{{"executions", std::move(executions)}};
}

}  // namespace clawperator::contract
