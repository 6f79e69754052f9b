// manifest.json of an evidence bundle, schema version 1 (docs/evidence.md, "The manifest"):
// the newest original's contracts/evidence.ts shape, so a bundle reads the same in both tools.
// Pure: no files, no device.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"
#include "clawperator/json.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::evidence {

inline constexpr int kManifestSchemaVersion = 1;
inline constexpr std::string_view kManifestFileName = "manifest.json";
// The bounds every front end applies to what a caller attaches to a bundle.
inline constexpr std::size_t kMaxLabelUtf16Units = 2048;
inline constexpr std::size_t kMaxContextBytes = 16 * 1024;
// A manifest is a few kilobytes; verify refuses to read a larger one whole.
inline constexpr std::size_t kMaxManifestBytes = 1 << 20;

struct Artifact {
  std::string kind;  // screenshot, hierarchy, capture_envelopes, video, encoder_stderr
  std::string path;  // relative to the bundle: one file name
  std::string mime_type;
  std::string status = "complete";  // complete | failed
  std::optional<std::uint64_t> bytes;
  std::optional<std::string> sha256;
  std::string started_at, finished_at;
  long long duration_ms = 0;
  std::optional<std::string> command_id, task_id;
  std::optional<std::string> error;
};

struct ManifestError {
  std::string code;
  std::string stage;  // output, execution, screenshot, identity, recorder, pull, probe, …
  std::string message;
  std::string component;  // the artefact kind or part the error concerns
};

struct Display {
  std::optional<int> width, height, density, rotation;
};

struct DeviceIdentity {
  std::string serial;
  std::string operator_package;
  std::string cli_version;
  std::optional<std::string> operator_version;
  std::optional<int> api_level;
  std::optional<std::string> android_version, manufacturer, model;
  std::optional<std::string> kernel_qemu, boot_qemu;  // ro.kernel.qemu, ro.boot.qemu
  Display display;
};

// emulator when either qemu property is "1", physical when both were read and neither is,
// unknown when they could not be read.
std::string device_type(const DeviceIdentity& identity);

struct Manifest {
  std::string evidence_id;
  std::optional<std::string> label;
  Json context;  // an object, or null
  DeviceIdentity device;
  std::string started_at, finished_at;  // finished_at empty: null (still running)
  std::optional<Json> video;
  // Who wrote the captured result: the snapshot execution's resultAuthenticity
  // (docs/guardrails.md §7); none when no result came back.
  std::optional<Json> result_authenticity;
  // starting | recording | finalizing | complete | partial | failed
  std::string status = "starting";
  std::vector<Artifact> artifacts;
  std::vector<ManifestError> errors;
};

Json to_json(const Manifest& manifest);
Json to_json(const Artifact& artifact);
Json to_json(const ManifestError& error);
// The bytes written to manifest.json: indented, with a final newline.
std::string manifest_text(const Manifest& manifest);

// A complete artefact for `bytes`: size and SHA-256 computed here.
Artifact complete_artifact(std::string kind, std::string path, std::string mime_type,
                           std::string_view bytes, std::string started_at, std::string finished_at,
                           long long duration_ms);
// An artefact that could not be captured or stored.
Artifact failed_artifact(std::string kind, std::string path, std::string mime_type,
                         std::string error, std::string started_at, std::string finished_at,
                         long long duration_ms);

// complete when no error was recorded and every artefact is complete; failed when none is;
// partial otherwise.
std::string final_status(const Manifest& manifest);

// A label (≤ 2048 UTF-16 code units) and a context object (≤ 16 KiB as compact UTF-8 JSON): what
// is wrong, if anything, as a sentence whose subject is `label_name` / `context_name` as the
// caller spelled them ("--label is not valid UTF-8"; no path).
Expected<void, Problem> check_label(std::string_view label, std::string_view label_name);
Expected<void, Problem> check_context(const Json& context, std::string_view context_name);

}  // namespace clawperator::evidence
