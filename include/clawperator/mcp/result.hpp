// A CLI document as an MCP tool result: the same JSON (what `clawperator <command>` prints for
// the same execution) redacted of local paths and adb's raw output, as a text content item for
// every client plus structuredContent where the negotiated version has it; an ok:false
// document is isError with its code, message, hint, details.phase, details.dispatchState,
// disposition and recovery. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::mcp {

// The host's own places, named in no result: the state and log directories, the temporary
// directory, the home, the adb executable, the directory of this binary. Set once, before
// serving; absolute paths only (others are ignored).
void set_host_roots(std::vector<std::string> roots);

// The one redaction step of every tool result: drops every member whose lower-cased key is or
// ends with "path", or is "command", "stdout", "stderr" or "stack", at any depth, and in every
// other string replaces a path under a host root ("/home/u/.local/state/clawperator/x.lock")
// with "<host path>". Codes and correlation ids are never among them.
Json redact(Json document);

// A failed execution's outcome document (ok false, an envelope) with `details` {phase,
// dispatchState} added after its failure members, as a host error has them: the execution ran
// to its end, so the failure was on the device. Any other document comes back unchanged.
Json with_failure_summary(Json document);

// The tools/call result for `document` (a CLI document: ok true or false), redacted, with a
// `disposition` {not_delivered, safe} when it has none (devices, configure, doctor,
// explain_error answer on the host: nothing reached an Operator). The members of
// `kept` are set after the redaction: what the server itself parsed or wrote for the caller
// (query_ui's `query`, the compact snapshot's `compact` with its node paths and raw file),
// whose keys ending in "path" name no local file a caller chose nor adb's output.
Json tool_result(Json document, std::string_view protocol_version,
                 const Json& kept = Json::object());

// snapshot's maxChars: cut each snapshot step's data.text and mark the document truncated.
void truncate_snapshot(Json& document, long long max_chars);

// A screenshot as image content (base64 PNG) plus the redacted document as text.
Json image_result(const std::string& png_base64, Json document, std::string_view protocol_version);

// The screenshot tool's result for the device's PNG: its bytes as they are, or with
// max_dimension scaled down to fit (image/png_scale.hpp) and the document's `image` giving
// {width, height, originalWidth, originalHeight, scaled}. A PNG that cannot be read then is an
// ACTION_FAILED error result (post_processing, dispatched: the capture itself succeeded).
Json screenshot_result(const std::string& png, Json document,
                       std::optional<long long> max_dimension, std::string_view protocol_version);

}  // namespace clawperator::mcp
