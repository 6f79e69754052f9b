#include "clawperator/operator_app/presence.hpp"

#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/package_list.hpp"

namespace clawperator::operator_app {

using contract::failed;
using contract::HostError;

contract::Outcome<std::set<std::string>> installed_variants(adb::AdbClient& client,
                                                            const std::string& serial,
                                                            const std::string& package) {
  const std::string other = adb::alternate_operator_variant(package);
  // The filter is a substring match: the shorter name lists both variants.
  const std::string& filter = package.size() <= other.size() ? package : other;
  auto packages = adb::list_packages(client, serial, {}, filter);
  if (!packages) {
    HostError error = std::move(packages).error();
    if (error.code == "DEVICE_SHELL_UNAVAILABLE") {
      error.details["checkId"] = "readiness.apk.presence";
      error.details["queriedPackage"] = filter;
    }
    return failed(std::move(error));
  }
  std::set<std::string> variants;
  for (const std::string* name : {&package, &other}) {
    if (packages->count(*name) != 0) variants.insert(*name);
  }
  return variants;
}

contract::Status require_operator(adb::AdbClient& client, const std::string& serial,
                                  const std::string& package) {
  auto variants = installed_variants(client, serial, package);
  if (!variants) return failed(std::move(variants).error());
  if (variants->count(package) != 0) return {};

  const std::string other = adb::alternate_operator_variant(package);
  Json details = Json::object();
  details["checkId"] = "readiness.apk.presence";
  if (variants->count(other) != 0) {
    details["expectedPackage"] = package;
    details["installedPackage"] = other;
    details["fix"] = "Pass --operator-package " + other +
                     " to use the installed variant, or install the " + package + " APK.";
    HostError error = contract::readiness_error(
        "OPERATOR_VARIANT_MISMATCH",
        "Wrong Operator variant installed: expected " + package + " but found " + other, details);
    // The exact flag to pass says more than the catalog's general words.
    error.hint = details["fix"].get<std::string>();
    return failed(std::move(error));
  }
  const bool debug = package.size() > other.size();
  std::string install = "clawperator operator setup --apk ~/.clawperator/downloads/operator" +
                        std::string(debug ? "-debug" : "") + ".apk --device " + serial;
  if (package != "com.clawperator.operator") install += " --operator-package " + package;
  details["installCommand"] = install;
  HostError error =
      contract::readiness_error("OPERATOR_NOT_INSTALLED",
                                "Operator APK (" + package + ") is not installed on " + serial +
                                    ". Install it with: " + install,
                                details);
  error.hint = "Install it with: " + install;
  return failed(std::move(error));
}

}  // namespace clawperator::operator_app
