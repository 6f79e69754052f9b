// The original CLI's command words that this one answers with their replacement instead of
// running anything (docs/compatibility.md): `setup` and `install`, which in the original only
// ever pointed to `operator setup`, and the nested forms the original had already removed
// (`action click`, `observe snapshot`, `inspect ui`), replaced by flat commands; and the words
// of the original's families not built here (`skills`, `recording`, `emulator`, …). Pure.
#pragma once

#include <optional>
#include <string_view>

#include "clawperator/contract/outcome.hpp"

namespace clawperator::cli {

// The refusal of the command word `first`, followed on the command line by `second` (empty when
// nothing follows), when `first` is one of those words: `setup`/`install` are USAGE naming
// `operator setup` (top-level `suggestion` and the original's `canonical`); a removed form is
// UNKNOWN_COMMAND with its flat command as `suggestion`; a family not built is UNKNOWN_COMMAND
// saying so, without a suggestion. Success for any other word.
contract::Status retired_command(std::string_view first, std::string_view second);

// `setup` and `install`: their help is operator setup's, as in the original.
bool names_operator_setup(std::string_view word);

}  // namespace clawperator::cli
