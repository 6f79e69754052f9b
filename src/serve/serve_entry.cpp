// From the CLI's `serve` command to run_server: the server's settings from the global options.
#include "clawperator/serve/serve_entry.hpp"

#include <stdlib.h>

#include <cstdio>
#include <filesystem>

#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/server.hpp"

namespace clawperator::serve {

cli::CommandResult serve_command(const cli::ServeCommand& command,
                                 const cli::GlobalOptions& options) {
  if (!is_loopback_host(command.host) && command.token.empty()) {
    contract::HostError error = contract::usage_error(
        "USAGE", "--host " + command.host +
                     " is beyond loopback: pass --token or set CLAWPERATOR_SERVE_TOKEN");
    error.details["flag"] = "--token";
    return cli::failure(error);
  }
  ServerSettings settings;
  settings.host = command.host;
  settings.port = command.port;
  settings.token = command.token;
  settings.backend.adb = cli::adb_settings(options);
  settings.backend.operator_package = options.operator_package;
  settings.backend.device = options.device;
  settings.backend.state = cli::state_directory_for_run();

  // Screenshots go to a private directory of this server, removed at exit.
  std::string pattern =
      (std::filesystem::temp_directory_path() / "clawperator-serve-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return cli::failure(contract::usage_error(
        "INTERNAL_ERROR", "Failed to start server: cannot create a directory in " +
                              std::filesystem::temp_directory_path().string()));
  }
  settings.backend.artifact_dir = pattern;
  cli::CommandResult result;
  result.exit_code = run_server(std::move(settings));
  result.already_written = true;
  std::error_code ignored;
  std::filesystem::remove_all(pattern, ignored);
  return result;
}

}  // namespace clawperator::serve
