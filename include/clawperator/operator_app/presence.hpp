// Is the Operator on the device, and which of its two variants (NAME and NAME.dev): one
// `pm list packages` answers both (docs/wire-protocol.md §4.1). Used by the exec
// preflight, doctor, `version --check-compat` and `operator setup`.
#pragma once

#include <set>
#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"

namespace clawperator::operator_app {

// Which of `package` and its other variant are installed.
contract::Outcome<std::set<std::string>> installed_variants(adb::AdbClient& client,
                                                            const std::string& serial,
                                                            const std::string& package);

// `package` is installed; else OPERATOR_VARIANT_MISMATCH (the other variant is, with the
// flag to pass in details.fix) or OPERATOR_NOT_INSTALLED (details.installCommand), or the
// failure of the query itself (never "not installed").
contract::Status require_operator(adb::AdbClient& client, const std::string& serial,
                                  const std::string& package);

}  // namespace clawperator::operator_app
