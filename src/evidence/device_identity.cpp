#include "clawperator/evidence/device_identity.hpp"

#include <charconv>

#include "clawperator/adb/device_settings.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/package_dump.hpp"
#include "clawperator/adb/shell_quote.hpp"
#include "clawperator/text.hpp"

namespace clawperator::evidence {
namespace {

// Separates the script's parts: getprop prints one line per property (empty when unset), and
// wm and dumpsys print several.
constexpr std::string_view kDisplayMarker = "@@clawperator-display";
constexpr std::string_view kPackageMarker = "@@clawperator-package";
constexpr std::string_view kProperties[] = {"ro.build.version.sdk",    "ro.build.version.release",
                                            "ro.product.manufacturer", "ro.product.model",
                                            "ro.kernel.qemu",          "ro.boot.qemu"};

std::optional<std::string> non_empty(std::string_view line) {
  line = trim(line);
  if (line.empty()) return std::nullopt;
  return std::string(line);
}

std::optional<int> whole_number(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::string identity_script(std::string_view operator_package) {
  std::string script;
  for (const std::string_view property : kProperties) {
    script += "getprop " + std::string(property) + "; ";
  }
  script += "echo " + std::string(kDisplayMarker) + "; wm size; wm density; echo " +
            std::string(kPackageMarker) + "; dumpsys package " +
            adb::quote_for_device_shell(operator_package);
  return script;
}

void parse_device_identity(std::string_view output, std::string_view operator_package,
                           DeviceIdentity& identity) {
  const std::size_t display_at = output.find(kDisplayMarker);
  const std::size_t package_at = output.find(kPackageMarker);
  std::string_view properties = output.substr(0, display_at);
  std::optional<std::string> values[std::size(kProperties)];
  for (std::size_t index = 0; index < std::size(kProperties) && !properties.empty(); ++index) {
    const std::size_t end = properties.find('\n');
    values[index] = non_empty(properties.substr(0, end));
    properties = end == std::string_view::npos ? std::string_view() : properties.substr(end + 1);
  }
  identity.api_level = values[0] ? adb::parse_sdk_level(*values[0]) : std::nullopt;
  identity.android_version = values[1];
  identity.manufacturer = values[2];
  identity.model = values[3];
  // Both properties were asked for: an empty answer is a real "not set", which for the
  // emulator check means "0" (physical); no answer at all leaves them unknown.
  if (display_at != std::string_view::npos) {
    identity.kernel_qemu = values[4].value_or("");
    identity.boot_qemu = values[5].value_or("");
  }
  if (display_at != std::string_view::npos) {
    const std::string_view display =
        output.substr(display_at, package_at == std::string_view::npos ? std::string_view::npos
                                                                       : package_at - display_at);
    const adb::DisplayMetrics metrics = adb::parse_display_metrics(display);
    if (metrics.size) {
      const std::string& size = *metrics.size;
      const std::size_t x = size.find('x');
      if (x != std::string::npos) {
        identity.display.width = whole_number(std::string_view(size).substr(0, x));
        identity.display.height = whole_number(std::string_view(size).substr(x + 1));
      }
    }
    identity.display.density = metrics.density;
  }
  if (package_at != std::string_view::npos) {
    const adb::PackageVersion version =
        adb::parse_package_version(output.substr(package_at), operator_package);
    identity.operator_version = version.version_name;
  }
}

std::optional<int> hierarchy_rotation(std::string_view hierarchy_xml) {
  const std::size_t root = hierarchy_xml.find("<hierarchy");
  if (root == std::string_view::npos) return std::nullopt;
  const std::size_t end = hierarchy_xml.find('>', root);
  const std::string_view tag = hierarchy_xml.substr(
      root, end == std::string_view::npos ? std::string_view::npos : end - root);
  const std::size_t attribute = tag.find(" rotation=\"");
  if (attribute == std::string_view::npos) return std::nullopt;
  const std::string_view value = tag.substr(attribute + 11);
  const std::optional<int> rotation = whole_number(value.substr(0, value.find('"')));
  if (!rotation || *rotation < 0 || *rotation > 3) return std::nullopt;
  return rotation;
}

contract::Status read_device_identity(adb::AdbClient& client, const std::string& serial,
                                      DeviceIdentity& identity) {
  const contract::Outcome<adb::ShellOutput> output = adb::run_device_shell(
      client, serial,
      {identity_script(identity.operator_package), "getprop, wm and dumpsys package"});
  if (!output) return contract::failed(output.error());
  parse_device_identity(output->out, identity.operator_package, identity);
  return {};
}

}  // namespace clawperator::evidence
