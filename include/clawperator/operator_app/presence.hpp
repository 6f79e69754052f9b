// Is the Operator on the device, and which of its two variants (NAME and NAME.dev): one
// `pm list packages -U` answers both, with the Operator's uid (docs/wire-protocol.md §4.1). Used by
// the exec preflight, doctor, `version --check-compat` and `operator setup`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"

namespace clawperator::operator_app {

// Which of `package` and its other variant are installed, each with its uids (none when the
// package manager did not print them).
using InstalledVariants = std::map<std::string, std::vector<std::string>>;
contract::Outcome<InstalledVariants> installed_variants(adb::AdbClient& client,
                                                        const std::string& serial,
                                                        const std::string& package);

// As require_operator, and the Operator's uids from the same `pm list packages -U` (the writer
// its results must show, docs/guardrails.md); empty when the package manager printed none.
contract::Outcome<std::vector<std::string>> locate_operator(adb::AdbClient& client,
                                                            const std::string& serial,
                                                            const std::string& package);

// `package` is installed; else OPERATOR_VARIANT_MISMATCH (the other variant is, with the
// flag to pass in details.fix) or OPERATOR_NOT_INSTALLED (details.installCommand), or the
// failure of the query itself (never "not installed").
contract::Status require_operator(adb::AdbClient& client, const std::string& serial,
                                  const std::string& package);

}  // namespace clawperator::operator_app
