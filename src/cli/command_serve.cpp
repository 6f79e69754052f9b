// `serve [--host H] [--port P] [--token T | --token-file FILE | --no-token]`: the HTTP + SSE API
// (docs/serve.md).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/serve_command.hpp"
#include "clawperator/cli/serve_token.hpp"
#include "clawperator/cli/session.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/path_values.hpp"
#include "clawperator/text.hpp"

namespace clawperator::cli {
namespace {

ServeEntry g_entry = nullptr;
std::vector<std::string> g_arguments;

struct ServeFlags {
  std::string host = "127.0.0.1";
  std::string port = "3000";
  std::optional<std::string> token;
  std::optional<std::string> token_file;
  bool no_token = false;
  std::optional<std::string> registry;
};

CommandResult usage(const std::string& message, const char* flag) {
  contract::HostError error = contract::usage_error("USAGE", message);
  error.details["flag"] = flag;
  return failure(error);
}

std::optional<int> parse_port(const std::string& text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  int port = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    port = port * 10 + (c - '0');
  }
  if (port < 1 || port > 65535) return std::nullopt;
  return port;
}

// Replaces this process with clawperator-serve from the same directory, with the same
// arguments but the token's: a token travels through a pipe (cli/serve_token.hpp), since any
// local user can read an argv from /proc for as long as the server runs.
CommandResult exec_server(const std::string& token) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path server = self.parent_path() / "clawperator-serve";
  std::vector<std::string> arguments = without_token_arguments(g_arguments);
  if (arguments.empty()) arguments.emplace_back();
  arguments.front() = server.string();
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  int pipe_fd = -1;
  if (!token.empty()) {
    auto pipe = token_pipe(token);
    if (!pipe) {
      return failure(contract::usage_error(
          "INTERNAL_ERROR",
          "clawperator serve cannot hand its token over: " + pipe.error().text()));
    }
    pipe_fd = *pipe;
    ::setenv(kServeTokenFdVariable, std::to_string(pipe_fd).c_str(), 1);
  }
  ::execv(server.c_str(), argv.data());
  const int exec_errno = errno;
  if (pipe_fd >= 0) ::close(pipe_fd);
  ::unsetenv(kServeTokenFdVariable);
  contract::HostError failure_error =
      contract::usage_error("INTERNAL_ERROR", "clawperator serve needs " + server.string() + ": " +
                                                  std::strerror(exec_errno));
  failure_error.details["path"] = server.string();
  return failure(failure_error);
}

// The token this server is to use, from the flags, else the pipe of `clawperator serve`, else
// CLAWPERATOR_SERVE_TOKEN; "" for none (the server makes one, or --no-token). Both variables
// are removed from the environment here: no adb, emulator tool or skill script the server
// starts needs them.
Expected<std::string, CommandResult> resolve_token(const ServeFlags& flags) {
  std::optional<std::string> piped;
  if (const char* fd_text = std::getenv(kServeTokenFdVariable); fd_text != nullptr) {
    const std::string text = fd_text;
    ::unsetenv(kServeTokenFdVariable);
    const bool digits =
        !text.empty() && text.size() < 10 && text.find_first_not_of("0123456789") == text.npos;
    auto read = digits ? read_token_pipe(std::stoi(text))
                       : Expected<std::string, Problem>(Unexpected(Problem{"", "not a number"}));
    if (!read) {
      contract::HostError error = contract::usage_error(
          "USAGE", std::string(kServeTokenFdVariable) + "=" + text + ": " + read.error().text());
      error.details["variable"] = kServeTokenFdVariable;
      return Unexpected(failure(error));
    }
    piped = std::move(*read);
  }
  std::optional<std::string> environment = process_environment("CLAWPERATOR_SERVE_TOKEN");
  ::unsetenv("CLAWPERATOR_SERVE_TOKEN");
  if (flags.token) {
    io::emit_warning(
        "--token is visible to every local user in this process's command line "
        "(/proc/<pid>/cmdline); use --token-file FILE or CLAWPERATOR_SERVE_TOKEN instead");
    if (auto checked = check_serve_token(*flags.token); !checked) {
      return Unexpected(usage("--token: " + checked.error().text(), "--token"));
    }
    return *flags.token;
  }
  if (flags.token_file) {
    auto read = read_token_file(*flags.token_file);
    if (!read) {
      // The file as given, even "" (text() would drop an empty path's colon).
      contract::HostError error = contract::usage_error(
          "USAGE", "--token-file " + *flags.token_file + ": " + read.error().message);
      error.details["flag"] = "--token-file";
      error.details["path"] = *flags.token_file;
      error.details["problem"] = read.error().message;
      return Unexpected(failure(error));
    }
    return std::move(*read);
  }
  if (piped) return std::move(*piped);
  if (!environment) return std::string();
  if (auto checked = check_serve_token(*environment); !checked) {
    contract::HostError error =
        contract::usage_error("USAGE", "CLAWPERATOR_SERVE_TOKEN: " + checked.error().text());
    error.details["variable"] = "CLAWPERATOR_SERVE_TOKEN";
    return Unexpected(failure(error));
  }
  return std::move(*environment);
}

CommandResult run_serve(const ServeFlags& flags, const GlobalOptions& options) {
  const std::optional<int> port = parse_port(std::string(trim(flags.port)));
  if (!port) return usage("Invalid port number. Must be 1-65535.", "--port");
  if (trim(flags.host).empty()) return usage("--host requires a value", "--host");
  if (flags.token && flags.token_file) {
    return usage("--token and --token-file exclude each other", "--token-file");
  }
  if (flags.no_token && (flags.token || flags.token_file)) {
    return usage(std::string("--no-token and ") + (flags.token ? "--token" : "--token-file") +
                     " exclude each other",
                 "--no-token");
  }
  if (flags.token && flags.token->empty()) return usage("--token requires a value", "--token");
  auto token = resolve_token(flags);
  if (!token) return std::move(token.error());
  if (g_entry == nullptr) return exec_server(*token);
  service::HttpServerStart server;
  auto policy = load_action_policy(options);
  if (!policy) server.start.policy_error = policy.error();
  server.start.session = session_of(options, policy ? *policy : nullptr);
  // --registry: the skills registry of the /skills routes (nullopt: the lookup of
  // docs/skills.md in the server's own environment; a caller never names one).
  server.start.session.skills_registry = flags.registry;
  server.start.log_dir = options.log_dir;
  server.start.operator_package_explicit = options.operator_package_explicit;
  server.host = std::string(trim(flags.host));
  server.port = *port;
  server.token = std::move(*token);
  server.no_token = flags.no_token;
  auto exit_code = g_entry(server);
  if (!exit_code) return failure(exit_code.error());
  CommandResult result;
  result.exit_code = *exit_code;
  result.already_written = true;
  return result;
}

}  // namespace

void set_serve_entry(ServeEntry entry) {
  g_entry = entry;
}

void remember_arguments(int argc, const char* const* argv) {
  g_arguments.assign(argv, argv + argc);
}

void register_serve_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<ServeFlags>();
  CommandLine serve = root.add_subcommand("serve", "Serve the HTTP + SSE API and the inspector");
  serve.group("Execution");
  serve.add_option("--host", flags->host, "Address to listen on (default 127.0.0.1)");
  serve.add_option("--port", flags->port, "Port to listen on, 1..65535 (default 3000)");
  serve.add_option("--token", flags->token,
                   "The token every route but /ping needs; visible to other local users in this "
                   "process's command line, so prefer --token-file (default: "
                   "$CLAWPERATOR_SERVE_TOKEN, else a random one, printed in the inspector's URL)");
  serve
      .add_option("--token-file", flags->token_file,
                  "Read the token from FILE: a regular file of this user's that group and others "
                  "cannot read (chmod 600), one line")
      .value_name(kFileValue);
  serve.add_flag("--no-token", flags->no_token,
                 "No token at all (loopback only: any local user may then drive the devices)");
  serve
      .add_option("--registry", flags->registry,
                  "The skills registry of the /skills routes (default: "
                  "$CLAWPERATOR_SKILLS_REGISTRY, else ./skills/skills-registry.json, else the "
                  "installed one)")
      .value_name(kFileValue);
  set_command_footer(
      serve,
      "Examples:\n"
      "  clawperator serve                      # prints http://127.0.0.1:3000/#token=...\n"
      "  clawperator serve --host 0.0.0.0 --port 8080 --token-file ~/.config/clawperator/token");
  commands.push_back(
      Command{serve.app(),
              [flags](const GlobalOptions& options) { return run_serve(*flags, options); },
              {"--host", "--port", "--token", "--token-file", "--no-token", "--registry"}});
}

}  // namespace clawperator::cli
