// Evidence from every front end (docs/evidence.md): the capture and video-start requests read
// once from what JSON callers send (MCP's arguments, an HTTP body), and run over the session, so
// that the CLI (which reads its flags into the same requests), MCP and HTTP bound them alike and
// reach the device the same way (docs/architecture.md §1).
#pragma once

#include "clawperator/contract/outcome.hpp"
#include "clawperator/evidence/capture.hpp"
#include "clawperator/evidence/video.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/cancel.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::service {

// The requests without their device (capture_evidence and start_video fill it in from the
// session): label (a string, evidence::check_label), context (evidence::check_context) and
// timeoutMs (a whole number from 1000 to 120000) of `arguments`; INVALID_BODY naming the field
// (details.field) otherwise. Other members are the caller's to refuse or use.
contract::Outcome<evidence::CaptureRequest> read_capture_arguments(const Json& arguments);
// durationSeconds (required, 1..180), size (evidence::check_video_size), recorder
// (screenrecord or scrcpy), label and context as above.
contract::Outcome<evidence::VideoStartRequest> read_video_start_arguments(const Json& arguments);

// The capture on the target's device (else the session's), queued behind the device's other
// calls for as long as its own timeout, as an execution is. `request`'s device part is ignored.
evidence::EvidenceReport capture_evidence(const Session& session, const Target& target,
                                          evidence::CaptureRequest request,
                                          const process::CancelToken& cancel = {});
evidence::EvidenceReport start_video(const Session& session, const Target& target,
                                     evidence::VideoStartRequest request);

}  // namespace clawperator::service
