// From the CLI's `serve` command to run_server: the server's settings from the global options,
// its token, and its private files in the state directory.
#include "clawperator/serve/serve_entry.hpp"

#include <fcntl.h>
#include <openssl/rand.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "clawperator/io/host_roots.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/process/terminal.hpp"
#include "clawperator/process/unique_fd.hpp"
#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/artifact_store.hpp"
#include "clawperator/serve/server.hpp"

namespace clawperator::serve {
namespace {

Unexpected<contract::HostError> usage(const std::string& message, const char* flag) {
  contract::HostError error = contract::usage_error("USAGE", message);
  error.details["flag"] = flag;
  return contract::failed(std::move(error));
}

Unexpected<contract::HostError> no_private_directory(const std::string& why, const Json& details) {
  contract::HostError error = contract::usage_error(
      "STATE_DIRECTORY_UNSAFE",
      "Failed to start server: it keeps its token and screenshots in a private state directory, "
      "and " +
          why);
  error.details = details;
  return contract::failed(std::move(error));
}

// 256 random bits, as 64 hex digits.
std::optional<std::string> random_token() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) return std::nullopt;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (const unsigned char byte : bytes) {
    token += kHex[byte >> 4];
    token += kHex[byte & 0x0f];
  }
  return token;
}

// Whether the file `name` in `directory` (a regular file of ours, not a link) holds exactly
// `contents`.
bool file_holds(const io::StateDirectory& directory, const std::string& name,
                const std::string& contents) {
  auto file = directory.open_file(name, O_RDONLY);
  if (!file) return false;
  const process::UniqueFd fd(file->fd);
  if (file->status.st_size != static_cast<off_t>(contents.size())) return false;
  std::string held(contents.size() + 1, '\0');
  std::size_t got = 0;
  while (got < held.size()) {
    const ssize_t n = ::read(fd.get(), held.data() + got, held.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  return got == contents.size() && tokens_equal(std::string_view(held).substr(0, got), contents);
}

}  // namespace

std::string token_file_name(int port) {
  return "serve-" + std::to_string(port) + ".token";
}

contract::Outcome<int> serve(const service::HttpServerStart& command) {
  const bool loopback = is_loopback_host(command.host);
  if (command.no_token && !loopback) {
    return usage("--no-token is only for a loopback bind: --host " + command.host +
                     " is reachable from other hosts",
                 "--no-token");
  }
  if (command.no_token && !command.token.empty()) {
    return usage(
        "--no-token and a token (--token, --token-file, CLAWPERATOR_SERVE_TOKEN) exclude each "
        "other",
        "--no-token");
  }
  ServerSettings settings;
  settings.host = command.host;
  settings.port = command.port;
  settings.token = command.token;
  if (settings.token.empty() && !command.no_token) {
    auto token = random_token();
    if (!token) {
      return contract::failed(contract::usage_error(
          "INTERNAL_ERROR", "Failed to start server: no random bytes for its token"));
    }
    settings.token = std::move(*token);
    settings.print_token = true;
  }
  // The action policy, once: a server whose policy does not load does not start.
  if (command.start.policy_error) return contract::failed(*command.start.policy_error);
  settings.backend.session = command.start.session;
  const service::Session& session = settings.backend.session;
  settings.backend.warm_followers = std::make_shared<exec::WarmFollowers>();
  settings.redaction = contract::HostRedaction(
      io::host_roots(command.start.log_dir, session.state, session.adb.executable));

  // Kept beyond run_server, which takes the settings: the token file is removed after it.
  const io::StateSelection state = session.state;
  if (state.refused) {
    return no_private_directory(
        "CLAWPERATOR_STATE_DIR is not one (" + state.refused->problem + ")",
        Json{{"stateDir", state.refused->path.string()}, {"problem", state.refused->problem}});
  }
  if (!state.directory) return no_private_directory("none is usable", Json::object());
  // The port first: a second server on a port in use stops here, before it writes anything (it
  // once replaced the running server's token file, then removed it on its way out).
  const process::UniqueFd listener(listen_socket(settings.host, settings.port));
  if (!listener.valid()) {
    std::fprintf(stderr, "Failed to start server: cannot listen on %s:%d: %s\n",
                 settings.host.c_str(), settings.port, std::strerror(errno));
    return 1;
  }
  settings.listen_fd = listener.get();
  auto artifacts = ArtifactStore::create(*state.directory);
  if (!artifacts) {
    return no_private_directory(
        "its screenshot directory is refused (" + artifacts.error().problem + ")",
        Json{{"stateDir", artifacts.error().path.string()},
             {"problem", artifacts.error().problem}});
  }
  settings.backend.artifacts = std::move(*artifacts);
  // For scripts: the token of the server on this port, readable by this user only; written
  // now that the port is ours, so no other server of this port is running.
  const std::string token_file = token_file_name(command.port);
  const std::string token_line = settings.token + "\n";
  if (!settings.token.empty()) {
    if (!state.directory->replace_file(token_file, token_line)) {
      return no_private_directory("its token file cannot be written there",
                                  Json{{"stateDir", state.directory->path().string()}});
    }
    settings.token_file = state.directory->path() / token_file;
  }
  // A person at the server's own terminal gets the approver link (docs/serve.md §7):
  // its credential exists only when there is such a terminal to show it on.
  if (process::UniqueFd tty = process::open_foreground_terminal(); tty.valid()) {
    if (auto approver = random_token()) {
      settings.backend.approver = std::move(*approver);
      settings.approver_terminal = std::move(tty);
    }
  }
  if (command.no_token) {
    io::emit_warning(
        "--no-token: any process of any local user can drive the devices through this server");
  }
  const bool wrote_token_file = !settings.token.empty();
  const int exit_code = run_server(std::move(settings));
  // Still listening, so no other server of this port can have started and written its own
  // token file; whatever holds another token now is someone else's all the same, and stays.
  if (wrote_token_file && file_holds(*state.directory, token_file, token_line)) {
    state.directory->remove(token_file);
  }
  return exit_code;
}

}  // namespace clawperator::serve
