#include "clawperator/serve/http_status.hpp"

#include <array>
#include <utility>

namespace clawperator::serve {

int http_status_of_code(std::string_view code) {
  static constexpr std::array<std::pair<std::string_view, int>, 51> kStatus = {{
      // The original's mapping.
      {"EXECUTION_CONFLICT_IN_FLIGHT", 423},
      {"DEVICE_NOT_FOUND", 404},
      {"NO_DEVICES", 404},
      {"EMULATOR_NOT_FOUND", 404},
      {"EMULATOR_NOT_RUNNING", 404},
      {"MULTIPLE_DEVICES_DEVICE_ID_REQUIRED", 400},
      {"EXECUTION_VALIDATION_FAILED", 400},
      {"PAYLOAD_TOO_LARGE", 413},
      {"RESULT_ENVELOPE_TIMEOUT", 504},
      {"EMULATOR_UNSUPPORTED", 409},
      {"EMULATOR_ALREADY_RUNNING", 409},
      // Its newest additions.
      {"DEVICE_NOT_INTERACTIVE", 409},
      {"DEVICE_ACCESSIBILITY_NOT_RUNNING", 409},
      {"DEVICE_SHELL_UNAVAILABLE", 503},
      // Emulators (docs/serve.md, "Emulators"): an AVD name that is none is a bad request; a
      // host that cannot run emulators, and a boot past its deadline, are the server's.
      {"USAGE", 400},
      {"ANDROID_SDK_TOOL_MISSING", 503},
      {"EMULATOR_BOOT_TIMEOUT", 504},
      {"EMULATOR_START_FAILED", 502},
      {"EMULATOR_STOP_FAILED", 502},
      {"ANDROID_SYSTEM_IMAGE_INSTALL_FAILED", 502},
      // The route-local request errors.
      {"INVALID_JSON", 400},
      {"JSON_TOO_DEEP", 400},
      {"INVALID_BODY", 400},
      {"MISSING_EXECUTION", 400},
      {"INVALID_DEVICE_ID", 400},
      {"UNAUTHORIZED", 401},
      {"FORBIDDEN_ORIGIN", 403},
      // Skills (docs/skills.md "Over HTTP and MCP"): a missing skill or artifact is a missing
      // resource, a broken one or a bad id a bad request; a script past its deadline is 504.
      {"SKILL_NOT_FOUND", 404},
      {"ARTIFACT_NOT_FOUND", 404},
      {"SKILL_ID_INVALID", 400},
      {"SKILL_VALIDATION_FAILED", 400},
      {"SKILL_SCRIPT_NOT_FOUND", 400},
      {"COMPILE_VAR_MISSING", 400},
      {"COMPILE_VARS_PARSE_FAILED", 400},
      {"COMPILE_VALIDATION_FAILED", 400},
      {"SKILL_EXECUTION_TIMEOUT", 504},
      // A script that ran and reported a failure is a result, as a failed envelope is: 200 with
      // ok:false and the code.
      {"SKILL_EXECUTION_FAILED", 200},
      {"SKILL_OUTPUT_ASSERTION_FAILED", 200},
      {"SKILL_RESULT_PARSE_FAILED", 200},
      // Evidence (docs/serve.md, "Evidence"): a partial bundle is a result, as a failed
      // envelope is; a destination or a session that is taken is a conflict.
      {"EVIDENCE_CAPTURE_FAILED", 200},
      {"EVIDENCE_OUTPUT_EXISTS", 409},
      {"EVIDENCE_RECORDING_ACTIVE", 409},
      {"EVIDENCE_RECOVERY_REQUIRED", 409},
      {"EVIDENCE_SESSION_NOT_FOUND", 404},
      {"EVIDENCE_STORAGE_UNWRITABLE", 507},
      {"HOST_DEPENDENCY_MISSING", 503},
      // The action policy (docs/guardrails.md): a refusal is forbidden, a confirmation a
      // precondition the caller can meet (RFC 6585's 428), a bad token a conflict.
      {"POLICY_DENIED", 403},
      {"CONFIRMATION_REQUIRED", 428},
      {"CONFIRMATION_UNKNOWN", 409},
      {"CONFIRMATION_DECLINED", 409},
      // --require-authentic-result on a device that cannot prove the writer: like a device that
      // is not ready, a state of the device the request conflicts with (docs/guardrails.md §7).
      {"RESULT_AUTHENTICITY_UNAVAILABLE", 409},
  }};
  for (const auto& [name, status] : kStatus) {
    if (name == code) return status;
  }
  if (code == "ROUTE_NOT_FOUND") return 404;
  if (code == "SSE_CLIENT_LIMIT" || code == "TOO_MANY_CONNECTIONS") return 503;
  if (code == "MALFORMED_REQUEST") return 400;
  if (code == "REQUEST_TIMEOUT") return 408;
  if (code == "REQUEST_HEADERS_TOO_LARGE") return 431;
  return 500;
}

int http_status_of(const Json& document) {
  if (!document.is_object()) return 500;
  const auto ok = document.find("ok");
  if (ok != document.end() && *ok == true) return 200;
  const auto envelope = document.find("envelope");
  if (envelope != document.end() && envelope->is_object()) return 200;
  const auto code = document.find("code");
  if (code == document.end() || !code->is_string()) return 500;
  return http_status_of_code(code->get_ref<const std::string&>());
}

}  // namespace clawperator::serve
