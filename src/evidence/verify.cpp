#include "clawperator/evidence/verify.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/evidence/bundle.hpp"
#include "clawperator/evidence/manifest.hpp"

namespace clawperator::evidence {
namespace {

contract::HostError verification_error(std::string reason, std::string message,
                                       const std::filesystem::path& directory) {
  return contract::make_error(contract::Phase::Verification, "EVIDENCE_VERIFICATION_FAILED",
                              std::move(message),
                              {{"reason", std::move(reason)}, {"bundleDir", directory.string()}});
}

// Nothing there is no altered bundle: the catalog's "treat the bundle as altered" would send a
// person after a tampering that did not happen.
std::string missing_bundle_hint() {
  return contract::hint_text(contract::HintId::NoEvidenceBundleThere, {});
}

}  // namespace

// The bundle a path names: the directory, or the directory of a manifest.json given itself.
std::filesystem::path bundle_path_of(const std::filesystem::path& requested) {
  std::error_code error;
  if (requested.filename() == kManifestFileName &&
      !std::filesystem::is_directory(requested, error)) {
    const std::filesystem::path parent = requested.parent_path();
    return parent.empty() ? std::filesystem::path(".") : parent;
  }
  return requested;
}

EvidenceReport verify_bundle(const std::filesystem::path& requested) {
  auto opened = BundleDirectory::open(bundle_path_of(requested));
  if (!opened) {
    contract::HostError error =
        verification_error("manifest_unreadable",
                           "Cannot open the bundle " + opened.error().path.string() + ": " +
                               std::strerror(opened.error().error_number),
                           opened.error().path);
    const std::string cause = errno_name(opened.error().error_number);
    error.details["causeCode"] = cause.empty() ? Json(nullptr) : Json(cause);
    if (opened.error().error_number == ENOENT || opened.error().error_number == ENOTDIR) {
      error.hint = missing_bundle_hint();
    }
    return report_of(error);
  }
  const BundleDirectory& bundle = *opened;
  std::string text;
  if (auto failure = bundle.read(kManifestFileName, kMaxManifestBytes, text)) {
    contract::HostError error = verification_error(
        "manifest_unreadable",
        "Cannot read " + failure->path.string() + ": " +
            (failure->error_number == EFBIG ? "larger than 1 MiB"
                                            : std::strerror(failure->error_number)),
        bundle.path());
    const std::string cause = errno_name(failure->error_number);
    error.details["causeCode"] = cause.empty() ? Json(nullptr) : Json(cause);
    if (failure->error_number == ENOENT) error.hint = missing_bundle_hint();
    return report_of(error);
  }
  const Json manifest = parse_json(text);
  const auto invalid = [&](const std::string& what) {
    return report_of(verification_error(
        "manifest_invalid", "manifest.json is not an evidence manifest: " + what, bundle.path()));
  };
  if (!manifest.is_object()) return invalid("not a JSON object");
  if (manifest.value("schemaVersion", Json()) != Json(kManifestSchemaVersion)) {
    return invalid("schemaVersion is not 1");
  }
  const auto artifacts = manifest.find("artifacts");
  if (artifacts == manifest.end() || !artifacts->is_array()) return invalid("no artifacts array");

  Json results = Json::array();
  std::size_t checked = 0;
  std::size_t mismatches = 0;
  std::vector<std::string> listed = {std::string(kManifestFileName)};
  std::string differing;  // "screenshot.png (hash_mismatch), …" for the message
  for (const Json& artifact : *artifacts) {
    if (!artifact.is_object() || !artifact.value("path", Json()).is_string()) {
      return invalid("an artefact without a path");
    }
    const std::string path = artifact["path"].get<std::string>();
    listed.push_back(path);
    Json result = {{"kind", artifact.value("kind", Json())}, {"path", path}};
    // Every file the manifest gives a size and digest is checked, a failed artefact's too (a
    // video ffprobe could not read is still kept, and hashed).
    const Json expected_bytes = artifact.value("bytes", Json());
    const Json expected_hash = artifact.value("sha256", Json());
    const bool hashed = expected_bytes.is_number_unsigned() && expected_hash.is_string();
    if (!hashed) {
      if (artifact.value("status", "") == "complete") {
        return invalid("the complete artefact " + path + " has no bytes or sha256");
      }
      result["result"] = "not_captured";
      results.push_back(std::move(result));
      continue;
    }
    ++checked;
    // Side by side: what the manifest recorded and what the file is now.
    result["expected"] = {{"bytes", expected_bytes}, {"sha256", expected_hash}};
    if (!is_artifact_file_name(path) || path == kManifestFileName) {
      result["result"] = "unsafe_path";
    } else {
      const BundleDirectory::Digest facts = bundle.digest(path);
      if (facts.error_number != 0) {
        result["result"] = "missing";
        const std::string cause = errno_name(facts.error_number);
        result["causeCode"] = cause.empty() ? Json(nullptr) : Json(cause);
      } else {
        result["bytes"] = facts.bytes;
        result["sha256"] = facts.sha256;
        result["actual"] = {{"bytes", facts.bytes}, {"sha256", facts.sha256}};
        result["result"] = facts.bytes != expected_bytes.get<std::uint64_t>() ? "size_mismatch"
                           : facts.sha256 != expected_hash.get<std::string>() ? "hash_mismatch"
                                                                              : "match";
      }
    }
    if (result["result"] != "match") {
      ++mismatches;
      differing +=
          (differing.empty() ? "" : ", ") + path + " (" + result["result"].get<std::string>() + ")";
    }
    results.push_back(std::move(result));
  }
  // Files the manifest does not name: not evidence (nothing vouches for them), reported so a
  // reader knows the directory holds more than the capture wrote; they fail nothing.
  Json extra_files = Json::array();
  for (const std::string& name : bundle.entry_names()) {
    if (std::find(listed.begin(), listed.end(), name) == listed.end()) extra_files.push_back(name);
  }
  const Json evidence_id = manifest.value("evidenceId", Json());
  const Json status = manifest.value("status", Json());
  if (mismatches == 0) {
    return {{{"ok", true},
             {"evidenceId", evidence_id},
             {"status", status},
             {"bundleDir", bundle.path().string()},
             {"checked", checked},
             {"artifacts", std::move(results)},
             {"extraFiles", std::move(extra_files)}},
            0};
  }
  contract::HostError error =
      verification_error("mismatch",
                         std::to_string(mismatches) + " of " + std::to_string(checked) +
                             " artefacts do not match the manifest: " + differing,
                         bundle.path());
  error.details["mismatches"] = mismatches;
  error.top_level = {{"evidenceId", evidence_id},
                     {"status", status},
                     {"checked", checked},
                     {"artifacts", std::move(results)},
                     {"extraFiles", std::move(extra_files)}};
  return report_of(error);
}

}  // namespace clawperator::evidence
