// The places of this host that no answer to a caller across a trust boundary names (MCP tool
// results, HTTP bodies and events): contract::HostRedaction's roots (docs/mcp.md "Redaction",
// docs/serve.md §4).
#pragma once

#include <string>
#include <vector>

#include "clawperator/io/state_directory.hpp"

namespace clawperator::io {

// The log directory, the temporary directory, the state directory in use (or refused), the
// default and home state directories, the home, the directory of this binary, and the adb
// executable (as named, or each match on PATH); each also as its real path when that differs,
// so that a resolved link (adb's installedAs) is named by neither spelling.
std::vector<std::string> host_roots(const std::string& log_dir, const StateSelection& state,
                                    const std::string& adb_executable);

}  // namespace clawperator::io
