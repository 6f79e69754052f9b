// `clawperator evidence verify DIR`: every artefact a bundle's manifest gives a size and digest,
// re-read and re-hashed, what a reviewer runs on a bundle later (docs/evidence.md, "Verifying a
// bundle").
#pragma once

#include <filesystem>

#include "clawperator/evidence/report.hpp"

namespace clawperator::evidence {

// {ok, evidenceId, status, bundleDir, checked, artifacts:[{kind, path, result, bytes, sha256}]}
// when every hashed artefact matches (result "match"; one without a file is "not_captured"),
// else
// EVIDENCE_VERIFICATION_FAILED (exit 1) with details.reason: "mismatch" (the artefacts with
// result "size_mismatch", "hash_mismatch", "missing" or "unsafe_path"), "manifest_unreadable"
// or "manifest_invalid", and the same artefact list at the top level.
EvidenceReport verify_bundle(const std::filesystem::path& directory);

}  // namespace clawperator::evidence
