// The evidence requests read from JSON: pure, apart from the runs (evidence.cpp), so that the
// MCP argument checks (and their fuzz target) need no device code.
#include "clawperator/contract/limits.hpp"
#include "clawperator/evidence/manifest.hpp"
#include "clawperator/evidence/video_dependencies.hpp"
#include "clawperator/service/evidence.hpp"

namespace clawperator::service {
namespace {

Unexpected<contract::HostError> invalid(std::string message, std::string_view field) {
  return contract::failed(contract::field_error("INVALID_BODY", std::move(message), field));
}

std::optional<long long> whole_number(const Json& value) {
  if (!value.is_number_integer()) return std::nullopt;
  return value.get<long long>();
}

// label and context, as every front end bounds them.
contract::Status read_label_and_context(const Json& arguments, std::optional<std::string>& label,
                                        Json& context) {
  if (const auto found = arguments.find("label"); found != arguments.end()) {
    if (!found->is_string()) return invalid("label must be a string", "label");
    if (auto checked = evidence::check_label(found->get_ref<const std::string&>(), "label");
        !checked) {
      return invalid(checked.error().text(), "label");
    }
    label = found->get<std::string>();
  }
  if (const auto found = arguments.find("context"); found != arguments.end()) {
    if (auto checked = evidence::check_context(*found, "context"); !checked) {
      return invalid(checked.error().text(), "context");
    }
    context = *found;
  }
  return {};
}

}  // namespace

contract::Outcome<evidence::CaptureRequest> read_capture_arguments(const Json& arguments) {
  evidence::CaptureRequest read;
  if (auto status = read_label_and_context(arguments, read.label, read.context); !status) {
    return contract::failed(status.error());
  }
  if (const auto timeout = arguments.find("timeoutMs"); timeout != arguments.end()) {
    const auto value = whole_number(*timeout);
    if (!value || *value < contract::limits::kMinExecutionTimeoutMs ||
        *value > contract::limits::kMaxExecutionTimeoutMs) {
      return invalid("timeoutMs must be a whole number from 1000 to 120000", "timeoutMs");
    }
    read.timeout = std::chrono::milliseconds(*value);
  }
  return read;
}

contract::Outcome<evidence::VideoStartRequest> read_video_start_arguments(const Json& arguments) {
  evidence::VideoStartRequest read;
  const auto duration = whole_number(arguments.value("durationSeconds", Json()));
  if (!duration || *duration < evidence::kMinVideoSeconds ||
      *duration > evidence::kMaxVideoSeconds) {
    return invalid("durationSeconds must be a whole number from 1 to 180", "durationSeconds");
  }
  read.duration_seconds = static_cast<int>(*duration);
  if (const auto size = arguments.find("size"); size != arguments.end()) {
    if (!size->is_string()) return invalid("size must be a string", "size");
    if (auto checked = evidence::check_video_size(size->get_ref<const std::string&>()); !checked) {
      return invalid(checked.error().text(), "size");
    }
    read.size = size->get<std::string>();
  }
  if (const auto recorder = arguments.find("recorder"); recorder != arguments.end()) {
    const auto chosen = recorder->is_string()
                            ? evidence::parse_recorder(recorder->get_ref<const std::string&>())
                            : std::nullopt;
    if (!chosen) return invalid("recorder must be screenrecord or scrcpy", "recorder");
    read.recorder = *chosen;
  }
  if (auto status = read_label_and_context(arguments, read.label, read.context); !status) {
    return contract::failed(status.error());
  }
  return read;
}

}  // namespace clawperator::service
