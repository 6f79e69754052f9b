// The home directory of an account from the passwd database, for when HOME is unset (cron,
// systemd units, `env -i`): the log (src/cli/global_options.cpp) and the state directory
// (src/io/state_directory.cpp) fall back to it, never to a path relative to the working
// directory.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace clawperator::io {

// nullopt when the account has no entry or an empty home.
std::optional<std::string> passwd_home_directory(uid_t uid);

// The account's name ("uid N" when it has no entry): who answered an approval
// (docs/guardrails.md §5).
std::string account_name(uid_t uid);

}  // namespace clawperator::io
