// `dumpsys package PKG` output: the installed version of one package.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace clawperator::adb {

struct PackageVersion {
  std::optional<std::string> version_name;
  std::optional<long long> version_code;
};

// The versionName/versionCode of `package`'s own "Package [NAME]" block (a dump
// can mention other packages first); the first lines anywhere when no block
// names it (older Android prints a flat list).
PackageVersion parse_package_version(std::string_view dump, std::string_view package);

}  // namespace clawperator::adb
