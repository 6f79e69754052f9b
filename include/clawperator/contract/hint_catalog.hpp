// The situational hints: every hint sentence that says more than the error catalog's recovery
// text (the flag to pass, the command to run, what went wrong in this situation). One row per
// situation; the raising site names the situation and supplies the values, and never composes
// a sentence itself (docs/architecture.md §2).
#pragma once

#include <array>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawperator::contract {

enum class HintId {
  ServiceUnavailableRepairOrReinstall,  // the Operator's accessibility service is not running
  ResultLinesPrunedByLogd,              // logd's chatty pruning dropped result lines
  LogcatReaderCutOff,                   // logd cut the logcat reader off ("Unexpected EOF")
  NoCorrelatedLogLines,                 // no line of the command reached the reader
  SupportedActionTypes,                 // an action type nobody supports
  TypeTargetSelectorMissing,            // `type` without a selector (--text is the text)
  EnableAccessibilityInSettings,        // the accessibility grant failed
  EnableNotificationsInSettings,        // the notification listener grant failed
  InstallRefusedAsDowngrade,            // adb install: INSTALL_FAILED_VERSION_DOWNGRADE
  InstallFailedSeeAdbOutput,            // adb install failed for another reason
  InstallRequestedOperatorPackage,      // the --operator-package asked for is not installed
  ChooseOperatorVariant,                // both Operator variants are installed
  InstallOperator,                      // no Operator variant is installed
  UseInstalledOperatorVariant,          // the other variant than the one asked for is installed
  InstallOperatorWithCommand,           // the Operator asked for is not installed
  InstallCompatibleOperator,            // the Operator's version is unreadable, invalid or old
  InstallUnpublishedOperatorFromFile,   // operator install of a package that is not published
  FixPayloadJson,                       // the payload is no JSON (no field to name)
  ExecSkillRegistryMissing,             // exec --skill without a registry (exec has no --registry)
  NoEvidenceBundleThere,                // evidence verify of a directory that is no bundle
  CreateSkillsRegistry,                 // no skills registry where one was looked for
  FixNamedFlag,                         // a flag's value is wrong: the catalog's details.path
                                        // sentence would name a field the error does not have
  WebviewShowsNoPage,                   // the DevTools socket is there but lists no page at all
};

struct HintRow {
  HintId id;
  // The catalog codes the hint is raised with; unused entries are empty.
  std::array<std::string_view, 3> codes;
  // The sentence, with named placeholders such as {serial} that hint_text fills.
  std::string_view text_template;
};

// Every row, in HintId order.
std::span<const HintRow> hint_catalog();

const HintRow& hint_row(HintId id);

// The placeholder names of the row's template, in order of first appearance ("serial" for
// {serial}).
std::vector<std::string_view> hint_placeholders(HintId id);

// A placeholder's name and its value: {"serial", serial}.
using HintValue = std::pair<std::string_view, std::string_view>;

// The hint of `id` with every placeholder filled from `values`. A placeholder without a value,
// or a value for a name the template lacks, is a bug: it throws std::logic_error (an
// INTERNAL_ERROR).
std::string hint_text(HintId id, std::span<const HintValue> values);
inline std::string hint_text(HintId id, std::initializer_list<HintValue> values = {}) {
  return hint_text(id, std::span<const HintValue>(values.begin(), values.size()));
}

// The templates of the rows raised with `code`, in table order.
std::vector<std::string_view> situation_hints(std::string_view code);

}  // namespace clawperator::contract
