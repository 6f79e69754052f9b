// Runs a built binary as a user would, for tests that check the whole process:
// argv, stdin, environment in; stdout, stderr, exit code out. The binary runs in a session of its
// own without a controlling terminal (whatever terminal the tests run from); tty_session gives
// one to the tests that need it.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clawperator::testing {

struct RunOptions {
  std::optional<std::string> stdin_path;         // default: /dev/null
  std::map<std::string, std::string> extra_env;  // added to the inherited environment
  std::vector<std::string> unset_env;            // removed from it
  std::optional<std::string> working_directory;  // default: ours
  bool drop_privileges = false;                  // run as nobody when we are root
  unsigned drop_to_uid = 65534;                  // or as this uid (and gid)
  int signal = 0;                                // sent this long after the start:
  int signal_after_ms = 0;
  // With `signal`: sent as soon as this file exists instead (signal_after_ms is then the
  // latest it is sent), so that a test signals once the program reached a point it can see
  // rather than after a guess at how long that takes.
  std::optional<std::string> signal_when_exists;
  // With `signal`: sent as soon as this holds of the standard output so far instead (asked
  // every 20 ms and whenever output arrives; signal_after_ms is then the latest), for an event
  // the test can see some other way (a line in a log, a lock file's holder) or in the output.
  std::function<bool(const std::string& out)> signal_when;
  // Called with the standard output so far whenever more of it arrives, for a test that acts
  // on what the program printed (appends to a file the program follows once it showed the rest).
  std::function<void(const std::string& out)> on_out;
  // A binary that prints nothing for this long is killed (SIGKILL): a hung binary fails its
  // test, not the suite. Raised by a test whose run is silent longer by design (a 16 MiB
  // result under the sanitizers).
  int silence_limit_ms = 30000;
};

struct RunResult {
  int exit_code = -1;
  int signal = 0;
  std::string out;
  std::string err;
};

RunResult run_binary(const std::string& path, const std::vector<std::string>& args,
                     const RunOptions& options = {});

}  // namespace clawperator::testing
