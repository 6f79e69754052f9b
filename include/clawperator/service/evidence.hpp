// Evidence from every front end (docs/evidence.md): the capture and video-start requests read
// once from what JSON callers send (MCP's arguments, an HTTP body), and run over the session, so
// that the CLI (which reads its flags into the same requests), MCP and HTTP bound them alike and
// reach the device the same way (docs/architecture.md §1).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/evidence/capture.hpp"
#include "clawperator/evidence/video.hpp"
#include "clawperator/json.hpp"
#include "clawperator/process/cancel.hpp"
#include "clawperator/service/session.hpp"

namespace clawperator::service {

// What a capture asks for beside its device: a label, a context, the snapshot's timeout, and
// (the CLI's --output-dir only) where the bundle goes.
struct CaptureArguments {
  std::optional<std::string> label;
  Json context = nullptr;
  std::chrono::milliseconds timeout{30000};
  std::optional<std::filesystem::path> output_dir;
};

// A video session's settings beside its device.
struct VideoStartArguments {
  int duration_seconds = 0;
  std::optional<std::string> size;
  std::optional<std::string> label;
  Json context = nullptr;
  evidence::Recorder recorder = evidence::Recorder::Screenrecord;
};

// label (a string, evidence::label_problem), context (evidence::context_problem) and timeoutMs
// (a whole number from 1000 to 120000) of `arguments`; INVALID_BODY naming the field
// (details.field) otherwise. Other members are the caller's to refuse or use.
contract::Outcome<CaptureArguments> read_capture_arguments(const Json& arguments);
// durationSeconds (required, 1..180), size (evidence::video_size_problem), recorder
// (screenrecord or scrcpy), label and context as above.
contract::Outcome<VideoStartArguments> read_video_start_arguments(const Json& arguments);

// The capture on the target's device (else the session's), queued behind the device's other
// calls for as long as its own timeout, as an execution is.
evidence::EvidenceReport capture_evidence(const Session& session, const Target& target,
                                          const CaptureArguments& arguments,
                                          const process::CancelToken& cancel = {});
evidence::EvidenceReport start_video(const Session& session, const Target& target,
                                     const VideoStartArguments& arguments);

}  // namespace clawperator::service
