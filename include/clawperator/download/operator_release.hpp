// An Operator release found and its APK fetched into ~/.clawperator/downloads (docs/operator.md):
// the metadata read (or the version's addresses made), the checksum taken inline or from
// sha256_url, the APK reused when a copy there matches it, else downloaded under a temporary
// name, checked and renamed into place. Nothing that failed its checksum is ever left there.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/download/release.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"

namespace clawperator::download {

// The largest APK taken (CLAWPERATOR_DOWNLOAD_MAX_BYTES): the Operator is a few MB.
inline constexpr std::uint64_t kDefaultMaxApkBytes = std::uint64_t{256} << 20;
// How long a fetch may receive nothing (CLAWPERATOR_DOWNLOAD_STALL_MS).
inline constexpr std::chrono::milliseconds kDefaultStallTimeout{30000};
// The metadata document and a .sha256 file are small.
inline constexpr std::uint64_t kMaxMetadataBytes = std::uint64_t{64} << 10;

struct ReleaseRequest {
  std::string metadata_url = std::string(kDefaultMetadataUrl);
  // A release by its version (the project's layout beside the metadata; no metadata fetched).
  std::optional<std::string> version;
  std::uint64_t max_apk_bytes = kDefaultMaxApkBytes;
  std::chrono::milliseconds stall_timeout = kDefaultStallTimeout;
  bool show_progress = false;  // a progress bar on stderr (a terminal)
};

// A value of the request that is wrong: the flag or the environment variable that gave it.
struct RequestError {
  std::string source;  // "--metadata-url", "CLAWPERATOR_DOWNLOAD_STALL_MS", …
  std::string message;
};

// What the flags and the environment ask for: the address --metadata-url gives, else
// CLAWPERATOR_OPERATOR_METADATA_URL, else the original's CLAWPERATOR_APK_METADATA_URL, else
// kDefaultMetadataUrl (check_url must allow it); --operator-version (X.Y.Z);
// CLAWPERATOR_DOWNLOAD_STALL_MS (100..600000) and CLAWPERATOR_DOWNLOAD_MAX_BYTES (1..4 GiB).
// `variable` reads the environment (getenv semantics; empty counts as unset).
Expected<ReleaseRequest, RequestError> read_release_request(
    const std::optional<std::string>& metadata_url, const std::optional<std::string>& version,
    const std::function<const char*(const char*)>& variable);

struct Release {
  ReleaseMetadata metadata;
  std::string metadata_url;
};

// The release the request names: OPERATOR_METADATA_INVALID for a document that is not release
// metadata, OPERATOR_DOWNLOAD_FAILED when it could not be fetched, HOST_DEPENDENCY_MISSING
// without libcurl, RESULT_TRANSPORT_CANCELLED on Ctrl-C.
contract::Outcome<Release> resolve_release(const ReleaseRequest& request);

struct FetchedApk {
  std::string sha256;
  std::string checksum_source;  // "inline" (the metadata's sha256) or "external" (sha256_url)
  std::string file_name;        // operator-vX.Y.Z.apk
  std::filesystem::path path;   // in the downloads directory
  bool reused = false;          // a copy already there matched: nothing downloaded
  std::uint64_t bytes = 0;
};

// The release's APK in `downloads` (made private if it is missing; refused, as the state
// directory would be, if it is not): OPERATOR_CHECKSUM_FAILED when the download does not match
// (the file is removed), OPERATOR_DOWNLOAD_FAILED for the network, an HTTP status, the size
// bound, the deadline or the directory, and the codes of resolve_release.
contract::Outcome<FetchedApk> fetch_apk(const Release& release, const ReleaseRequest& request,
                                        const std::filesystem::path& downloads);

// <home>/.clawperator/downloads, the home being $HOME or the passwd entry's; nullopt without one.
std::optional<std::filesystem::path> downloads_directory(const io::StateEnvironment& environment);

// operatorVersion, metadataUrl, apkUrl, sha256Url (when there is one).
void add_release_fields(Json& document, const Release& release);
// sha256, checksumSource, apkFile, reused, bytes.
void add_apk_fields(Json& document, const FetchedApk& apk);

}  // namespace clawperator::download
