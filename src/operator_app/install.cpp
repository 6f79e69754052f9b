#include "clawperator/operator_app/install.hpp"

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/contract/operator_version.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/operator_app/compatibility.hpp"
#include "clawperator/operator_app/components.hpp"
#include "clawperator/operator_app/presence.hpp"

namespace clawperator::operator_app {
namespace {

using contract::HostError;

// Only the release variant is published (the original's OPERATOR_DOWNLOAD_UNSUPPORTED).
contract::Status require_published_package(const SetupRequest& setup) {
  if (!setup.operator_package_explicit || setup.operator_package == kReleasePackage) return {};
  Json details = Json::object();
  details["operatorPackage"] = setup.operator_package;
  details["publishedPackage"] = kReleasePackage;
  HostError error = contract::readiness_error(
      "OPERATOR_DOWNLOAD_UNSUPPORTED",
      "Only the release Operator (" + std::string(kReleasePackage) + ") is published; " +
          setup.operator_package + " cannot be downloaded",
      details);
  error.hint = contract::hint_text(contract::HintId::InstallUnpublishedOperatorFromFile,
                                   {{"package", setup.operator_package}});
  return contract::failed(std::move(error));
}

// The release Operator's versionName on the device, when it is installed; nullopt when not.
contract::Outcome<std::optional<std::string>> version_on_device(adb::AdbClient& client,
                                                                const std::string& serial) {
  const std::string package(kReleasePackage);
  CLAWPERATOR_TRY_ASSIGN(auto variants, installed_variants(client, serial, package));
  if (variants.count(package) == 0) return std::optional<std::string>();
  CLAWPERATOR_TRY_ASSIGN(auto version, installed_version(client, serial, package));
  // Installed, its version unreadable: "" (never up to date).
  return std::optional<std::string>(version.version_name.value_or(""));
}

// The device's Operator is this release or newer.
bool up_to_date(const std::string& on_device, const std::string& release) {
  const auto installed = contract::parse_release_version(contract::normalize_version(on_device));
  const auto published = contract::parse_release_version(release);
  return installed && published && *installed >= *published;
}

// The fields known so far, at the top level of a failure too.
HostError with_fields(HostError error, const Json& fields) {
  for (const auto& [key, value] : fields.items()) {
    if (key != "ok" && !error.top_level.contains(key)) error.top_level[key] = value;
  }
  return error;
}

}  // namespace

contract::Outcome<Json> run_operator_install(const InstallRequest& request,
                                             process::Runner& runner) {
  CLAWPERATOR_TRY(require_published_package(request.setup));
  adb::AdbClient client(runner, request.setup.adb);
  std::string serial;
  if (!request.download_only) {
    // No device: said before anything is downloaded.
    CLAWPERATOR_TRY_ASSIGN(serial, adb::resolve_device(client, request.setup.device));
  }
  CLAWPERATOR_TRY_ASSIGN(auto release, download::resolve_release(request.release));

  Json document = Json::object();
  document["ok"] = true;
  if (!serial.empty()) document["deviceId"] = serial;
  document["operatorPackage"] = kReleasePackage;
  download::add_release_fields(document, release);
  const auto fail = [&document](HostError error) {
    return contract::failed(with_fields(std::move(error), document));
  };

  if (!request.download_only) {
    auto previous = version_on_device(client, serial);
    if (!previous) return fail(std::move(previous).error());
    document["previousVersion"] = *previous ? Json(**previous) : Json(nullptr);
    if (*previous && !request.force && up_to_date(**previous, release.metadata.version)) {
      document["installed"] = false;
      document["skipped"] = "up_to_date";
      document["message"] = "Operator " + **previous + " is installed on " + serial +
                            " (the release is " + release.metadata.version +
                            "); nothing was changed. --force installs the release again.";
      document["disposition"] = Json{{"delivery", "delivered_verified"}, {"retry", "safe"}};
      io::log_event(io::LogLevel::Info, "operator.install.up_to_date",
                    Json{{"deviceId", serial}, {"operatorVersion", release.metadata.version}});
      return document;
    }
  }

  if (!request.downloads) {
    return fail(contract::readiness_error(
        "OPERATOR_DOWNLOAD_FAILED",
        "There is no home directory to keep the download in (HOME is unset and the passwd "
        "database has none)",
        Json{{"resource", "apk"}, {"reason", "storage"}}));
  }
  auto apk = download::fetch_apk(release, request.release, *request.downloads);
  if (!apk) return fail(std::move(apk).error());
  download::add_apk_fields(document, *apk);
  if (request.download_only) {
    document["installed"] = false;
    document["skipped"] = "download_only";
    // The file is what was asked for: its place is the result (docs/operator.md).
    document["localPath"] = apk->path.string();
    document["message"] = "Operator " + release.metadata.version +
                          (apk->reused ? " was already downloaded" : " downloaded") +
                          " and its SHA-256 checked.";
    document["disposition"] = Json{{"delivery", "delivered_verified"}, {"retry", "safe"}};
    return document;
  }

  SetupRequest setup = request.setup;
  setup.operator_package = std::string(kReleasePackage);
  setup.operator_package_explicit = true;
  auto installed = install_and_grant(client, serial, setup, apk->path.string());
  if (!installed) return fail(std::move(installed).error());
  document["installed"] = true;
  for (const char* key : {"install", "permissions", "verification"}) {
    document[key] = (*installed)[key];
  }
  document["message"] =
      "Operator " + release.metadata.version + " installed and its permissions enabled.";
  document["disposition"] = (*installed)["disposition"];
  io::log_event(io::LogLevel::Info, "operator.install.success",
                Json{{"deviceId", serial},
                     {"operatorVersion", release.metadata.version},
                     {"reused", apk->reused}});
  return document;
}

}  // namespace clawperator::operator_app
