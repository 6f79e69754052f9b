// The whole command line: parse argv, run one command, print one document.
#pragma once

#include <iosfwd>

namespace clawperator::cli {

// Returns the process exit code. Writes exactly one JSON document (or help or
// version text) to `out`; diagnostics go to `err`.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace clawperator::cli
