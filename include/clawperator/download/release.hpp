// The Operator's release metadata, read (pure): the JSON document a metadata URL serves
// ({version, apk_url, sha256_url, sha256?}), the `.sha256` file's text, which addresses may be
// fetched at all, and how a version names its files (docs/operator.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "clawperator/expected.hpp"
#include "clawperator/problem.hpp"

namespace clawperator::download {

// The project's own release metadata.
inline constexpr std::string_view kDefaultMetadataUrl =
    "https://downloads.clawperator.com/operator/latest.json";

// What is read of an address: its scheme and host, both lower-cased (an IPv6 host without its
// brackets). nullopt: not "scheme://host…" with a host of letters, digits, '.', '-' (or an
// IPv6 literal), or it holds a space or a control byte.
struct UrlParts {
  std::string scheme;
  std::string host;
};
std::optional<UrlParts> parse_url(std::string_view url);

// localhost, 127.0.0.0/8 and ::1: addresses that never leave this host.
bool is_loopback_host(std::string_view host);

// Whether `url` may be fetched: https anywhere, http only to a loopback host (a local mirror, a
// test), nothing else; the problem's path is the address, its message why ("not https", "not
// a URL").
Expected<void, Problem> check_url(std::string_view url);

struct ReleaseMetadata {
  std::string version;  // X.Y.Z
  std::string apk_url;  // https (or http to loopback)
  std::optional<std::string> sha256_url;
  std::optional<std::string> sha256;  // 64 lowercase hex digits
};

// A field that is missing, blank or wrong ("" for the document itself) and what is wrong with it.
struct MetadataError {
  std::string field;
  std::string problem;
};

// The metadata document: a JSON object with a release `version` (X.Y.Z), an `apk_url`, and the
// checksum inline (`sha256`, 64 hex digits) or as a `sha256_url`, or both; addresses as
// check_url allows. Other members are ignored.
Expected<ReleaseMetadata, MetadataError> parse_release_metadata(std::string_view body);

// The checksum a `.sha256` file gives: its first whitespace-separated token (sha256sum writes
// "HEX  NAME"), lower-cased, when that is 64 hex digits.
std::optional<std::string> parse_sha256_text(std::string_view body);

// The release `version` by the project's layout, beside the metadata: for
// https://HOST/DIR/latest.json, https://HOST/DIR/vX.Y.Z/operator-vX.Y.Z.apk and its .sha256.
Expected<ReleaseMetadata, MetadataError> versioned_release(std::string_view metadata_url,
                                                           std::string_view version);

// "operator-vX.Y.Z.apk": the APK's name in the downloads directory.
std::string apk_file_name(std::string_view version);

}  // namespace clawperator::download
