// `operator install` (and `operator setup` without --apk): the published Operator release
// fetched into ~/.clawperator/downloads (download/operator_release.hpp), then installed and
// granted as `operator setup --apk` does; a device that has the release or a newer one is left
// alone unless forced (docs/operator.md).
#pragma once

#include <filesystem>
#include <optional>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/download/operator_release.hpp"
#include "clawperator/json.hpp"
#include "clawperator/operator_app/setup.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::operator_app {

struct InstallRequest {
  SetupRequest setup;  // the device, the Operator package (only the release one is published)
  download::ReleaseRequest release;
  // download::downloads_directory(); none without a home directory.
  std::optional<std::filesystem::path> downloads;
  bool force = false;          // install even when the device has this release or newer
  bool download_only = false;  // stop once the APK is in the downloads directory
};

// {ok, deviceId, operatorPackage, operatorVersion, previousVersion, metadataUrl, apkUrl,
//  sha256Url?, sha256, checksumSource, apkFile, reused, bytes, installed, skipped?, install,
//  permissions, verification, localPath (--download-only), message, disposition}, or the
// failure: OPERATOR_DOWNLOAD_UNSUPPORTED for another package, the codes of the download
// (resolve_release, fetch_apk) and those of operator setup, with the release's fields at the top
// level once they are known.
contract::Outcome<Json> run_operator_install(const InstallRequest& request,
                                             process::Runner& runner);

}  // namespace clawperator::operator_app
