// What no answer that leaves this host carries (docs/mcp.md "Redaction", docs/serve.md §4): a
// path under one of this host's places, adb's raw output, a command line. One step for every
// front end that answers someone who is not this host's user (MCP tool results, HTTP bodies and
// events). Pure: the places are given.
#pragma once

#include <string>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::contract {

class HostRedaction {
 public:
  HostRedaction() = default;
  // The host's own places (the state and log directories, the temporary directory, the home,
  // the adb executable, the directory of this binary, each also as its real path). Absolute
  // paths only; others, and "/", are ignored.
  explicit HostRedaction(std::vector<std::string> roots);

  // Drops, at any depth, every member whose lower-cased key ends with "path" and whose value
  // is an absolute path ("/…", "~/…") or no string (a relative one, such as a validation
  // error's `details.path` or a node path, stays), and every "command", "stdout", "stderr" and
  // "stack"; in every other string a path under a root ("/home/u/.local/state/clawperator/
  // x.lock") becomes "<host path>". Codes, messages and correlation ids are never among them.
  Json apply(Json document) const;
  // The string step alone, for text that is no JSON document.
  void scrub(std::string& text) const;

  const std::vector<std::string>& roots() const { return roots_; }

 private:
  std::vector<std::string> roots_;  // longest first
};

}  // namespace clawperator::contract
