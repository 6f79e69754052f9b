// The whole command line: parse argv, run one command, print one document.
#pragma once

#include <iosfwd>
#include <memory>
#include <vector>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/global_options.hpp"

namespace clawperator::cli {

// Returns the process exit code. Writes exactly one JSON document (or help or
// version text) to `out`; diagnostics go to `err`.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// The whole command-line definition: global options bound to `raw`, every
// command appended to `commands` (src/cli/read_command_line.cpp). The one source
// for help, completions and the man page.
std::unique_ptr<CLI::App> build_cli(RawGlobalFlags& raw, std::vector<Command>& commands);

}  // namespace clawperator::cli
