// The Operator app: installed, the right variant, a version we speak to, and
// the device settings it relies on.
#include "checks.hpp"
#include "clawperator/adb/device_settings.hpp"
#include "clawperator/adb/device_shell.hpp"
#include "clawperator/adb/package_list.hpp"
#include "clawperator/contract/operator_version.hpp"
#include "clawperator/operator_app/compatibility.hpp"
#include "clawperator/operator_app/components.hpp"
#include "clawperator/operator_app/presence.hpp"
#include "clawperator/text.hpp"

namespace clawperator::doctor {
namespace {

FixStep command_hint(std::string command) {
  FixStep step;
  step.kind = FixStep::Kind::Shell;
  step.value = std::move(command);
  return step;
}

// How `package` gets onto the device: the release Operator is published (operator install
// fetches and checks it, docs/operator.md); another package, such as the debug variant, comes
// from its APK file.
FixStep install_step(const DoctorContext& context, const std::string& package) {
  if (package == operator_app::kReleasePackage) {
    return command_hint("clawperator operator install" + target_flags(context));
  }
  return command_hint("clawperator operator setup --apk <operator.apk>" + target_flags(context));
}

}  // namespace

Check check_operator_presence(DoctorContext& context) {
  Check check;
  check.id = "readiness.apk.presence";
  const std::string& package = context.options.operator_package;
  check.evidence["operatorPackage"] = package;
  const auto installed = operator_app::locate_operator(context.client, *context.serial, package);
  const contract::HostError* error = installed ? nullptr : &installed.error();
  if (error == nullptr) {
    context.operator_uids = *installed;
    check.summary = "The Operator (" + package + ") is installed";
    return check;
  }
  check.status = Status::Fail;
  check.code = error->code;
  check.detail = error->message;
  if (error->code == "OPERATOR_VARIANT_MISMATCH") {
    const std::string other = adb::alternate_operator_variant(package);
    check.summary = "The other Operator variant (" + other + ") is installed";
    check.evidence["installedPackage"] = other;
    check.fix = Fix{"Use the installed variant, or install " + package,
                    {command_hint("clawperator doctor --device " + *context.serial +
                                  " --operator-package " + other),
                     manual_step("Or install " + package + " with '" +
                                 install_step(context, package).value + "'")},
                    kOperatorDocs};
  } else if (error->code == "OPERATOR_NOT_INSTALLED") {
    check.summary = "The Operator app is not installed";
    check.fix = Fix{"Install the Operator", {install_step(context, package)}, kOperatorDocs};
  } else {
    check.summary = "The device could not list its packages";
    check.fix = Fix{"Check the device shell",
                    {manual_step("Reconnect the device and rerun clawperator doctor")},
                    kDevicesDocs};
  }
  return check;
}

Check check_operator_version(DoctorContext& context) {
  Check check;
  check.id = "readiness.version.compatibility";
  const operator_app::CompatibilityReport report = operator_app::probe_compatibility(
      context.client, *context.serial, context.options.operator_package);
  check.evidence = operator_app::to_json(report);
  check.evidence.erase("code");
  check.evidence.erase("message");
  check.evidence.erase("remediation");
  if (report.compatible) {
    check.summary = "Operator " + report.apk_version.value_or("?") + " is supported (" +
                    contract::supported_operator_range() + ")";
    return check;
  }
  check.status = Status::Fail;
  check.code = report.error->code;
  check.detail = report.error->message;
  check.summary = report.error->code == "VERSION_INCOMPATIBLE"
                      ? "The Operator is too old for this CLI"
                      : "The Operator's version could not be established";
  Fix fix{"Install a supported Operator release", {}, kCompatibilityDocs};
  for (const std::string& step : report.remediation) fix.steps.push_back(manual_step(step));
  check.fix = std::move(fix);
  return check;
}

std::vector<Check> check_device_settings(DoctorContext& context) {
  struct Setting {
    const char* id;
    const char* key;
    const char* code;
    const char* label;
    const char* enabled;
    const char* not_enabled;
  };
  static constexpr Setting kSettings[] = {
      {"readiness.settings.dev_options", "development_settings_enabled",
       "DEVICE_DEV_OPTIONS_DISABLED", "Developer options", "Developer options are enabled",
       "Developer options are not reported as enabled"},
      {"readiness.settings.usb_debugging", "adb_enabled", "DEVICE_USB_DEBUGGING_DISABLED",
       "USB debugging", "USB debugging is enabled", "USB debugging is not reported as enabled"},
  };
  const contract::Outcome<adb::ShellOutput> output = adb::run_device_shell(
      context.client, *context.serial,
      {"settings get global development_settings_enabled; settings get global adb_enabled",
       "settings get"});
  const contract::HostError* error = output ? nullptr : &output.error();
  std::string_view text = output ? std::string_view(output->out) : std::string_view();
  std::vector<Check> checks;
  for (const Setting& setting : kSettings) {
    const std::string_view line = text.substr(0, text.find('\n'));
    text = text.find('\n') == std::string_view::npos ? std::string_view()
                                                     : text.substr(text.find('\n') + 1);
    const std::optional<std::string> value = error ? std::nullopt : adb::parse_setting_value(line);
    Check check;
    check.id = setting.id;
    check.evidence = Json{{"setting", std::string("global ") + setting.key},
                          {"value", value ? Json(*value) : Json(nullptr)}};
    if (value == "1") {
      check.summary = setting.enabled;
      checks.push_back(std::move(check));
      continue;
    }
    check.status = Status::Warn;
    check.code = setting.code;
    check.summary = setting.not_enabled;
    if (error) check.detail = error->message;
    check.fix =
        Fix{"Enable " + std::string(setting.label),
            {device_shell_step(context, std::string("settings put global ") + setting.key + " 1"),
             manual_step("Or on the device: Settings > System > Developer options")},
            kSetupDocs};
    checks.push_back(std::move(check));
  }
  return checks;
}

}  // namespace clawperator::doctor
