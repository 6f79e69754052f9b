#include "clawperator/operator_app/presence.hpp"

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/package_list.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/operator_app/components.hpp"

namespace clawperator::operator_app {

using contract::failed;
using contract::HostError;

contract::Outcome<InstalledVariants> installed_variants(adb::AdbClient& client,
                                                        const std::string& serial,
                                                        const std::string& package) {
  const std::string other = adb::alternate_operator_variant(package);
  // The filter is a substring match: the shorter name lists both variants.
  const std::string& filter = package.size() <= other.size() ? package : other;
  auto packages = adb::list_package_uids(client, serial, filter);
  if (!packages) {
    HostError error = std::move(packages).error();
    if (error.code == "DEVICE_SHELL_UNAVAILABLE") {
      error.details["checkId"] = "readiness.apk.presence";
      error.details["queriedPackage"] = filter;
    }
    return failed(std::move(error));
  }
  InstalledVariants variants;
  for (const std::string* name : {&package, &other}) {
    if (const auto found = packages->find(*name); found != packages->end()) {
      variants.emplace(*name, std::move(found->second));
    }
  }
  return variants;
}

contract::Outcome<std::vector<std::string>> locate_operator(adb::AdbClient& client,
                                                            const std::string& serial,
                                                            const std::string& package) {
  CLAWPERATOR_TRY_ASSIGN(auto variants, installed_variants(client, serial, package));
  if (const auto found = variants.find(package); found != variants.end()) {
    return std::move(found->second);
  }

  const std::string other = adb::alternate_operator_variant(package);
  Json details = Json::object();
  details["checkId"] = "readiness.apk.presence";
  if (variants.count(other) != 0) {
    details["expectedPackage"] = package;
    details["installedPackage"] = other;
    std::string fix =
        contract::hint_text(contract::HintId::UseInstalledOperatorVariant,
                            {{"installed_package", other}, {"expected_package", package}});
    details["fix"] = fix;
    HostError error = contract::readiness_error(
        "OPERATOR_VARIANT_MISMATCH",
        "Wrong Operator variant installed: expected " + package + " but found " + other, details);
    // The exact flag to pass says more than the catalog's general words.
    error.hint = std::move(fix);
    return failed(std::move(error));
  }
  // The release Operator is published (operator install fetches it); another package, such as
  // the debug variant, is installed from its APK.
  const std::string install = package == kReleasePackage
                                  ? "clawperator operator install --device " + serial
                                  : "clawperator operator setup --apk <operator.apk> --device " +
                                        serial + " --operator-package " + package;
  details["installCommand"] = install;
  HostError error = contract::readiness_error(
      "OPERATOR_NOT_INSTALLED", "Operator APK (" + package + ") is not installed on " + serial,
      details);
  error.hint =
      contract::hint_text(contract::HintId::InstallOperatorWithCommand, {{"command", install}});
  return failed(std::move(error));
}

contract::Status require_operator(adb::AdbClient& client, const std::string& serial,
                                  const std::string& package) {
  CLAWPERATOR_TRY(locate_operator(client, serial, package));
  return {};
}

}  // namespace clawperator::operator_app
