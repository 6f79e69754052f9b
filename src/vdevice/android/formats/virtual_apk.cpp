#include "vdevice/android/formats/virtual_apk.hpp"

#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "vdevice/android/formats/zip_archive.hpp"

namespace clawperator::vdevice::android {
namespace {

using Json = nlohmann::ordered_json;
using ApkFailure = Unexpected<ApkReadError>;

constexpr std::string_view kFillerEntry = "assets/filler.bin";
// Far more than any manifest needs; a larger entry is refused before it is read whole.
constexpr std::size_t kMaxManifestBytes = std::size_t{64} << 10;

ApkReadError malformed(std::string detail) {
  return ApkReadError{ApkReadErrorKind::ManifestMalformed, std::move(detail)};
}

// xorshift64: bytes that look random to a compressor, the same for every run.
std::string filler(std::size_t size) {
  std::string out(size, '\0');
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  for (char& byte : out) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    byte = static_cast<char>(state & 0xFFU);
  }
  return out;
}

}  // namespace

Expected<void, Problem> check_package_name(std::string_view name) {
  const auto refuse = [](std::string message) {
    return Unexpected(Problem{"", std::move(message)});
  };
  if (name.empty()) return refuse("is empty");
  std::size_t segments = 0;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = name.find('.', start);
    const std::string_view segment = name.substr(start, dot - start);
    if (segment.empty()) return refuse("has an empty segment");
    if (std::isalpha(static_cast<unsigned char>(segment.front())) == 0) {
      return refuse("has a segment that does not start with a letter");
    }
    for (const char c : segment) {
      if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') {
        return refuse("contains the character '" + std::string(1, c) + "'");
      }
    }
    ++segments;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (segments < 2) return refuse("must have at least one '.' separator");
  return {};
}

std::string make_virtual_apk(const VirtualApkManifest& manifest, std::size_t filler_bytes) {
  Json document = Json::object();
  document["package"] = manifest.package;
  document["versionName"] = manifest.version_name;
  document["versionCode"] = manifest.version_code;
  std::vector<ZipEntry> entries;
  entries.push_back({std::string(kVirtualApkManifestEntry), document.dump(2) + "\n", true});
  // Stored: the filler is there to make the file as large as asked, and does not compress.
  if (filler_bytes > 0) entries.push_back({std::string(kFillerEntry), filler(filler_bytes), false});
  return write_zip(entries);
}

Expected<VirtualApkManifest, ApkReadError> read_virtual_apk(std::string_view bytes) {
  auto entry = read_zip_entry(bytes, kVirtualApkManifestEntry, kMaxManifestBytes);
  if (!entry) {
    const ZipReadError& failure = entry.error();
    if (failure.error == ZipReadErrorKind::NotAZip) {
      return ApkFailure{ApkReadError{ApkReadErrorKind::NotAnApk, failure.detail}};
    }
    return ApkFailure{malformed(failure.detail)};
  }
  const Json document = Json::parse(*entry, nullptr, false);
  if (document.is_discarded() || !document.is_object()) {
    return ApkFailure{malformed(std::string(kVirtualApkManifestEntry) + " is not a JSON object")};
  }
  VirtualApkManifest manifest;
  const auto package = document.find("package");
  if (package == document.end() || !package->is_string()) {
    return ApkFailure{malformed("no \"package\" string")};
  }
  manifest.package = package->get<std::string>();
  if (auto checked = check_package_name(manifest.package); !checked) {
    return ApkFailure{
        malformed("bad package name \"" + manifest.package + "\": " + checked.error().message)};
  }
  const auto version_name = document.find("versionName");
  if (version_name == document.end() || !version_name->is_string()) {
    return ApkFailure{malformed("no \"versionName\" string")};
  }
  manifest.version_name = version_name->get<std::string>();
  const auto version_code = document.find("versionCode");
  if (version_code == document.end() || !version_code->is_number_integer() ||
      (version_code->is_number_unsigned() &&
       version_code->get<std::uint64_t>() >
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) ||
      version_code->get<std::int64_t>() < 0) {
    return ApkFailure{malformed("\"versionCode\" must be a non-negative integer")};
  }
  manifest.version_code = version_code->get<std::int64_t>();
  return manifest;
}

}  // namespace clawperator::vdevice::android
