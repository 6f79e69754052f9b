// The situational hints: one row per situation, in HintId order. A placeholder is a lower-case
// name in braces ({serial}); angle brackets (<operator.apk>) are words the person replaces.
#include "clawperator/contract/hint_catalog.hpp"

#include <algorithm>
#include <stdexcept>

namespace clawperator::contract {

namespace {

// The same placeholders mean the same values in every row: {serial} the device, {package} the
// Operator package, {command} a whole command line to run.
// clang-format off
constexpr HintRow kHints[] = {
    {HintId::ServiceUnavailableRepairOrReinstall, {"SERVICE_UNAVAILABLE"},
     "Accessibility service not running. Run 'clawperator doctor --fix --device {serial}' to "
     "diagnose and repair, or 'clawperator operator install --force --device {serial}' to "
     "reinstall."},
    {HintId::ResultLinesPrunedByLogd,
     {"RESULT_ENVELOPE_TIMEOUT", "RESULT_TRANSPORT_EXITED", "RESULT_ENVELOPE_MALFORMED"},
     "logd dropped {lines} of the Operator's log lines while the result was being logged (its "
     "chatty pruning), so the chunked result is incomplete. --result-transport direct (or auto) "
     "brings results over a socket instead of logcat and avoids this. Inspect device state with "
     "`clawperator snapshot` before repeating a mutating request."},
    {HintId::LogcatReaderCutOff,
     {"RESULT_ENVELOPE_TIMEOUT", "RESULT_TRANSPORT_EXITED", "RESULT_ENVELOPE_MALFORMED"},
     "logd cut the logcat reader off for falling behind (\"Unexpected EOF\"), so the chunked "
     "result is incomplete. --result-transport direct (or auto) brings results over a socket "
     "instead of logcat and avoids this. Inspect device state with `clawperator snapshot` before "
     "repeating a mutating request."},
    {HintId::NoCorrelatedLogLines, {"RESULT_ENVELOPE_TIMEOUT"},
     "No correlated Android log lines were captured. This often indicates an APK/CLI version "
     "mismatch or an accessibility service issue. Run 'clawperator doctor --device {serial} "
     "--operator-package {package}' to diagnose."},
    {HintId::SupportedActionTypes, {"EXECUTION_ACTION_UNSUPPORTED"},
     "Supported action types: {supported}."},
    {HintId::TypeTargetSelectorMissing, {"MISSING_SELECTOR"},
     "Add a selector such as `--id`, `--role` or `--selector` and rerun (--text is the text to "
     "type here)."},
    {HintId::EnableAccessibilityInSettings, {"OPERATOR_GRANT_FAILED"},
     "Enable it on the device (Settings > Accessibility), or rerun "
     "'clawperator grant-device-permissions'."},
    {HintId::EnableNotificationsInSettings, {"OPERATOR_GRANT_FAILED"},
     "Enable it on the device (Settings > Notifications), or rerun "
     "'clawperator grant-device-permissions'."},
    {HintId::InstallRefusedAsDowngrade, {"OPERATOR_INSTALL_FAILED"},
     "The device has a newer Operator; uninstall it first or install a newer APK."},
    {HintId::InstallFailedSeeAdbOutput, {"OPERATOR_INSTALL_FAILED"},
     "Read the adb output in details, fix the cause, and rerun the command."},
    {HintId::InstallRequestedOperatorPackage, {"OPERATOR_VERIFY_FAILED", "OPERATOR_NOT_INSTALLED"},
     "Install it with 'clawperator operator setup --apk <operator.apk> --device {serial} "
     "--operator-package {package}'."},
    {HintId::ChooseOperatorVariant, {"OPERATOR_VERIFY_FAILED", "OPERATOR_NOT_INSTALLED"},
     "Pass --operator-package {release_package} or {debug_package}."},
    {HintId::InstallOperator, {"OPERATOR_VERIFY_FAILED", "OPERATOR_NOT_INSTALLED"},
     "Install it with 'clawperator operator install --device {serial}', or from a file with "
     "'clawperator operator setup --apk <operator.apk> --device {serial}'."},
    {HintId::UseInstalledOperatorVariant, {"OPERATOR_VARIANT_MISMATCH"},
     "Pass --operator-package {installed_package} to use the installed variant, or install the "
     "{expected_package} APK."},
    {HintId::InstallOperatorWithCommand, {"OPERATOR_NOT_INSTALLED"},
     "Install it with: {command}"},
    {HintId::InstallCompatibleOperator,
     {"APK_VERSION_UNREADABLE", "APK_VERSION_INVALID", "VERSION_INCOMPATIBLE"},
     "Install an Operator release in the range {range} with: {command}"},
    {HintId::InstallUnpublishedOperatorFromFile, {"OPERATOR_DOWNLOAD_UNSUPPORTED"},
     "Install {package} from its APK with 'clawperator operator setup --apk <operator.apk> "
     "--operator-package {package}'; 'clawperator operator install' fetches only the release "
     "Operator."},
    {HintId::FixPayloadJson, {"EXECUTION_VALIDATION_FAILED"},
     "Fix the JSON where the message says (line and column; a payload cut short ends early) and "
     "rerun; `clawperator exec FILE --validate-only` checks it without a device."},
    {HintId::ExecSkillRegistryMissing, {"REGISTRY_READ_FAILED"},
     "Install the skills with `clawperator skills install`, or name the registry with "
     "`CLAWPERATOR_SKILLS_REGISTRY=FILE clawperator exec --skill ...` (exec takes no --registry); "
     "`details.registryPath` says which file was tried."},
    {HintId::NoEvidenceBundleThere, {"EVIDENCE_VERIFICATION_FAILED"},
     "No bundle is there: give `clawperator evidence verify` the directory `clawperator evidence "
     "capture` printed as bundleDir (it holds manifest.json)."},
    {HintId::CreateSkillsRegistry, {"REGISTRY_READ_FAILED"},
     "Create an empty registry with '{command}' (or add --init to 'clawperator skills "
     "new'), or install the shared skills with 'clawperator skills install'."},
    {HintId::FixNamedFlag, {"EXECUTION_VALIDATION_FAILED"},
     "Fix {flag} (the message says what it takes; the command's --help lists it) and rerun; do "
     "not retry the request unchanged."},
    {HintId::WebviewShowsNoPage, {"WEBVIEW_PAGE_NOT_FOUND"},
     "The app's WebView shows no page now (it closed, or has not loaded yet): bring the screen "
     "with the web content up, then check with 'clawperator webview list' before retrying."},
};
// clang-format on

// Calls `literal` for each stretch of plain text and `placeholder` for each {name}, in order.
template <typename Literal, typename Placeholder>
void walk_template(std::string_view text, Literal literal, Placeholder placeholder) {
  while (!text.empty()) {
    const std::size_t open = text.find('{');
    const std::size_t close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) {
      literal(text);
      return;
    }
    literal(text.substr(0, open));
    placeholder(text.substr(open + 1, close - open - 1));
    text.remove_prefix(close + 1);
  }
}

[[noreturn]] void misused(HintId id, std::string_view what, std::string_view name) {
  throw std::logic_error("hint " + std::to_string(static_cast<int>(id)) + ": " + std::string(what) +
                         " {" + std::string(name) + "}");
}

}  // namespace

std::span<const HintRow> hint_catalog() {
  return kHints;
}

const HintRow& hint_row(HintId id) {
  const auto index = static_cast<std::size_t>(id);
  if (index >= std::size(kHints) || kHints[index].id != id) {
    throw std::logic_error("a HintId without its row in the hint catalog");
  }
  return kHints[index];
}

std::vector<std::string_view> hint_placeholders(HintId id) {
  std::vector<std::string_view> names;
  walk_template(
      hint_row(id).text_template, [](std::string_view) {},
      [&](std::string_view name) {
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      });
  return names;
}

std::string hint_text(HintId id, std::span<const HintValue> values) {
  std::string out;
  std::vector<bool> used(values.size(), false);
  walk_template(
      hint_row(id).text_template, [&](std::string_view text) { out += text; },
      [&](std::string_view name) {
        const auto value =
            std::find_if(values.begin(), values.end(),
                         [name](const HintValue& pair) { return pair.first == name; });
        if (value == values.end()) misused(id, "no value for", name);
        used[static_cast<std::size_t>(value - values.begin())] = true;
        out += value->second;
      });
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!used[i]) misused(id, "a value for the missing placeholder", values[i].first);
  }
  return out;
}

std::vector<std::string_view> situation_hints(std::string_view code) {
  std::vector<std::string_view> templates;
  if (code.empty()) return templates;
  for (const HintRow& row : kHints) {
    if (std::find(row.codes.begin(), row.codes.end(), code) != row.codes.end()) {
      templates.push_back(row.text_template);
    }
  }
  return templates;
}

}  // namespace clawperator::contract
