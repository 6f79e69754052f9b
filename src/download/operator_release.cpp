#include "clawperator/download/operator_release.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <random>

#include "clawperator/contract/operator_version.hpp"
#include "clawperator/download/http.hpp"
#include "clawperator/io/atomic_file.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/transport/sha256.hpp"

namespace clawperator::download {
namespace {

using contract::HostError;

// What a fetch was for, in details.resource and the message.
struct Resource {
  const char* name;  // "metadata", "sha256", "apk"
  const char* what;  // for the message
};
constexpr Resource kMetadata{"metadata", "the Operator release metadata"};
constexpr Resource kChecksum{"sha256", "the Operator APK's checksum"};
constexpr Resource kApk{"apk", "the Operator APK"};

// A partial download left by a run that was killed: removed once it is this old.
constexpr std::chrono::hours kStalePartial{1};
constexpr std::string_view kPartialSuffix = ".partial";

HostError fetch_failure(const FetchError& failure, const Resource& resource, std::string_view url,
                        const ReleaseRequest& request) {
  Json details = Json::object();
  details["resource"] = resource.name;
  details["url"] = std::string(url);
  details["reason"] = std::string(to_string(failure.kind));
  switch (failure.kind) {
    case FetchErrorKind::Interrupted:
      return contract::interrupted_error("Interrupted while fetching " + std::string(resource.what),
                                         failure.signal, details);
    case FetchErrorKind::Unavailable: {
      details.erase("reason");
      details["dependencies"] =
          Json::array({Json{{"name", CLAWPERATOR_CURL_SONAME}, {"reason", failure.message}}});
      return contract::readiness_error(
          "HOST_DEPENDENCY_MISSING",
          "Downloading needs libcurl (" CLAWPERATOR_CURL_SONAME "): " + failure.message, details);
    }
    case FetchErrorKind::Refused:
      details.erase("url");
      details["field"] = &resource == &kApk ? "apk_url" : "sha256_url";
      details["problem"] = failure.message;
      return contract::readiness_error("OPERATOR_METADATA_INVALID",
                                       "The release metadata names an address that may not be "
                                       "fetched: " +
                                           failure.message,
                                       details);
    case FetchErrorKind::HttpStatus:
      details["httpStatus"] = failure.http_status;
      break;
    case FetchErrorKind::TooLarge:
      details["maxBytes"] = &resource == &kApk ? request.max_apk_bytes : kMaxMetadataBytes;
      break;
    case FetchErrorKind::Stalled:
      details["stallTimeoutMs"] = request.stall_timeout.count();
      break;
    case FetchErrorKind::Network:
    case FetchErrorKind::Write:
      break;
  }
  io::log_event(io::LogLevel::Warn, "operator.download.failure", details);
  return contract::readiness_error(
      "OPERATOR_DOWNLOAD_FAILED",
      "Fetching " + std::string(resource.what) + " failed: " + failure.message, details);
}

HostError metadata_invalid(const MetadataError& problem, std::string_view metadata_url,
                           std::string_view source) {
  Json details = Json::object();
  details["metadataUrl"] = std::string(metadata_url);
  if (!problem.field.empty()) details["field"] = problem.field;
  details["problem"] = problem.problem;
  const std::string subject =
      problem.field.empty() ? std::string(source) : std::string(source) + "'s " + problem.field;
  return contract::readiness_error(
      "OPERATOR_METADATA_INVALID",
      "The Operator release metadata is invalid: " + subject + " is " + problem.problem, details);
}

FetchLimits small_body(const ReleaseRequest& request) {
  return FetchLimits{kMaxMetadataBytes, request.stall_timeout};
}

// The checksum the APK must have, and where it came from.
struct Expected256 {
  std::string hex;
  std::string source;
};

contract::Outcome<Expected256> expected_checksum(const Release& release,
                                                 const ReleaseRequest& request) {
  const ReleaseMetadata& metadata = release.metadata;
  if (metadata.sha256) return Expected256{*metadata.sha256, "inline"};
  const std::string& url = *metadata.sha256_url;  // parse_release_metadata: one of the two
  auto body = fetch_text(url, small_body(request));
  if (!body) return contract::failed(fetch_failure(body.error(), kChecksum, url, request));
  auto hex = parse_sha256_text(*body);
  if (!hex) {
    return contract::failed(metadata_invalid(
        {"sha256_url", "not a checksum file (its first word must be 64 hex digits)"},
        release.metadata_url, "the release"));
  }
  return Expected256{std::move(*hex), "external"};
}

// The SHA-256 of the file `name` in `directory` when it is a regular file of ours; nullopt
// when there is none (or it cannot be read: it is downloaded again).
std::optional<std::string> file_sha256(const io::StateDirectory& directory,
                                       const std::string& name) {
  auto opened = directory.open_file(name, O_RDONLY);
  if (!opened) return std::nullopt;
  transport::Sha256 hasher;
  char buffer[1 << 16];
  bool complete = false;
  for (;;) {
    const ssize_t n = ::read(opened->fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      complete = n == 0;
      break;
    }
    hasher.update(std::string_view(buffer, static_cast<std::size_t>(n)));
  }
  ::close(opened->fd);
  if (!complete) return std::nullopt;
  return hasher.finish_hex();
}

HostError storage_failure(const std::filesystem::path& directory, std::string problem) {
  Json details = Json::object();
  details["resource"] = kApk.name;
  details["reason"] = "storage";
  details["directory"] = directory.string();
  details["problem"] = problem;
  return contract::readiness_error(
      "OPERATOR_DOWNLOAD_FAILED",
      "The downloads directory " + directory.string() + " cannot keep the APK: " + problem,
      details);
}

// ".operator-vX.Y.Z.apk.<random>.partial": a name nobody else predicts, removed on failure.
std::string partial_name(const std::string& file_name) {
  std::random_device random;
  char suffix[20];
  std::snprintf(suffix, sizeof suffix, "%08x%08x", static_cast<unsigned>(random()),
                static_cast<unsigned>(random()));
  return "." + file_name + "." + suffix + std::string(kPartialSuffix);
}

// A whole decimal number in [low, high]; nullopt otherwise.
std::optional<std::uint64_t> bounded_number(std::string_view text, std::uint64_t low,
                                            std::uint64_t high) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || at != end || value < low || value > high) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

Expected<ReleaseRequest, RequestError> read_release_request(
    const std::optional<std::string>& metadata_url, const std::optional<std::string>& version,
    const std::function<const char*(const char*)>& variable) {
  using Refused = Unexpected<RequestError>;
  const auto value = [&variable](const char* name) -> const char* {
    const char* text = variable ? variable(name) : nullptr;
    return text != nullptr && *text != '\0' ? text : nullptr;
  };
  ReleaseRequest request;
  std::string source = "--metadata-url";
  if (metadata_url) {
    request.metadata_url = *metadata_url;
  } else {
    for (const char* name : {"CLAWPERATOR_OPERATOR_METADATA_URL", "CLAWPERATOR_APK_METADATA_URL"}) {
      if (const char* text = value(name)) {
        request.metadata_url = text;
        source = name;
        break;
      }
    }
  }
  if (auto checked = check_url(request.metadata_url); !checked) {
    return Refused{{source, "The metadata address " + quote_json(request.metadata_url) +
                                " may not be fetched: " + checked.error().message}};
  }
  if (version) {
    if (!contract::parse_release_version(*version)) {
      return Refused{{"--operator-version",
                      "--operator-version must be a release version X.Y.Z, "
                      "not " +
                          quote_json(*version)}};
    }
    request.version = *version;
  }
  if (const char* text = value("CLAWPERATOR_DOWNLOAD_STALL_MS")) {
    const auto ms = bounded_number(text, 100, 600000);
    if (!ms) {
      return Refused{{"CLAWPERATOR_DOWNLOAD_STALL_MS",
                      "CLAWPERATOR_DOWNLOAD_STALL_MS must be milliseconds from 100 to 600000, "
                      "not " +
                          quote_json(text)}};
    }
    request.stall_timeout = std::chrono::milliseconds(*ms);
  }
  if (const char* text = value("CLAWPERATOR_DOWNLOAD_MAX_BYTES")) {
    const auto bytes = bounded_number(text, 1, std::uint64_t{4} << 30);
    if (!bytes) {
      return Refused{{"CLAWPERATOR_DOWNLOAD_MAX_BYTES",
                      "CLAWPERATOR_DOWNLOAD_MAX_BYTES must be a number of bytes from 1 to "
                      "4294967296, not " +
                          quote_json(text)}};
    }
    request.max_apk_bytes = *bytes;
  }
  return request;
}

contract::Outcome<Release> resolve_release(const ReleaseRequest& request) {
  Release release;
  release.metadata_url = request.metadata_url;
  if (request.version) {
    auto made = versioned_release(request.metadata_url, *request.version);
    if (!made) {
      return contract::failed(metadata_invalid(made.error(), request.metadata_url, "the release"));
    }
    release.metadata = std::move(*made);
    return release;
  }
  auto body = fetch_text(request.metadata_url, small_body(request));
  if (!body) {
    return contract::failed(fetch_failure(body.error(), kMetadata, request.metadata_url, request));
  }
  auto parsed = parse_release_metadata(*body);
  if (!parsed) {
    return contract::failed(
        metadata_invalid(parsed.error(), request.metadata_url, "the metadata document"));
  }
  release.metadata = std::move(*parsed);
  return release;
}

contract::Outcome<FetchedApk> fetch_apk(const Release& release, const ReleaseRequest& request,
                                        const std::filesystem::path& downloads) {
  CLAWPERATOR_TRY_ASSIGN(auto expected, expected_checksum(release, request));
  auto opened =
      io::StateDirectory::open(downloads, ::geteuid(), io::StateDirectory::Symlinks::FollowOwn);
  if (!opened) return contract::failed(storage_failure(downloads, opened.error().problem));
  const io::StateDirectory& directory = *opened;

  FetchedApk apk;
  apk.sha256 = expected.hex;
  apk.checksum_source = expected.source;
  apk.file_name = apk_file_name(release.metadata.version);
  apk.path = directory.path() / apk.file_name;
  if (file_sha256(directory, apk.file_name) == expected.hex) {
    apk.reused = true;
    if (const auto status = directory.status_of(apk.file_name)) {
      apk.bytes = static_cast<std::uint64_t>(status->st_size);
    }
    io::log_event(io::LogLevel::Info, "operator.download.reused",
                  Json{{"apkFile", apk.file_name}, {"sha256", apk.sha256}});
    return apk;
  }

  directory.remove_stale(".", kPartialSuffix, kStalePartial);
  const std::string partial = partial_name(apk.file_name);
  auto file = directory.open_file(partial, O_WRONLY | O_CREAT | O_EXCL);
  if (!file) return contract::failed(storage_failure(downloads, file.error().message));
  // From here on every failure removes the partial file.
  struct Partial {
    const io::StateDirectory& directory;
    const std::string& name;
    int fd;
    bool kept = false;
    ~Partial() {
      if (fd >= 0) ::close(fd);
      if (!kept) directory.remove(name);
    }
  } guard{directory, partial, file->fd};

  transport::Sha256 hasher;
  int write_error = 0;
  const ByteSink sink = [&](std::string_view bytes) {
    hasher.update(bytes);
    write_error = io::write_all(guard.fd, bytes);
    return write_error == 0;
  };
  const std::string& url = release.metadata.apk_url;
  auto fetched = fetch(url, FetchLimits{request.max_apk_bytes, request.stall_timeout}, sink,
                       ProgressDisplay{request.show_progress, apk.file_name});
  if (!fetched) {
    if (fetched.error().kind == FetchErrorKind::Write) {
      return contract::failed(storage_failure(downloads, std::strerror(write_error)));
    }
    return contract::failed(fetch_failure(fetched.error(), kApk, url, request));
  }
  apk.bytes = *fetched;
  const std::string actual = hasher.finish_hex();
  if (actual != expected.hex) {
    Json details = Json::object();
    details["apkUrl"] = url;
    details["expectedSha256"] = expected.hex;
    details["actualSha256"] = actual;
    details["checksumSource"] = expected.source;
    if (release.metadata.sha256_url && expected.source == "external") {
      details["sha256Url"] = *release.metadata.sha256_url;
    }
    details["bytes"] = apk.bytes;
    io::log_event(io::LogLevel::Warn, "operator.download.checksum_mismatch", details);
    return contract::failed(contract::readiness_error(
        "OPERATOR_CHECKSUM_FAILED",
        "The downloaded Operator APK does not match its published SHA-256 (expected " +
            expected.hex + ", got " + actual + "); it was removed",
        details));
  }
  if (::fsync(guard.fd) != 0)
    return contract::failed(storage_failure(downloads, std::strerror(errno)));
  if (auto renamed = directory.rename(partial, apk.file_name); !renamed) {
    return contract::failed(storage_failure(downloads, renamed.error().message));
  }
  guard.kept = true;
  io::log_event(io::LogLevel::Info, "operator.download.complete",
                Json{{"apkFile", apk.file_name}, {"sha256", apk.sha256}, {"bytes", apk.bytes}});
  return apk;
}

std::optional<std::filesystem::path> downloads_directory(const io::StateEnvironment& environment) {
  std::optional<std::string> home;
  if (const char* variable = environment.variable ? environment.variable("HOME") : nullptr;
      variable != nullptr && *variable != '\0') {
    home = variable;
  } else if (environment.passwd_home) {
    home = environment.passwd_home();
  }
  if (!home) return std::nullopt;
  return std::filesystem::path(*home) / ".clawperator" / "downloads";
}

void add_release_fields(Json& document, const Release& release) {
  document["operatorVersion"] = release.metadata.version;
  document["metadataUrl"] = release.metadata_url;
  document["apkUrl"] = release.metadata.apk_url;
  if (release.metadata.sha256_url) document["sha256Url"] = *release.metadata.sha256_url;
}

void add_apk_fields(Json& document, const FetchedApk& apk) {
  document["sha256"] = apk.sha256;
  document["checksumSource"] = apk.checksum_source;
  document["apkFile"] = apk.file_name;
  document["reused"] = apk.reused;
  document["bytes"] = apk.bytes;
}

}  // namespace clawperator::download
