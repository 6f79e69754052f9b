// `serve [--host H] [--port P] [--token T | --no-token]`: the HTTP + SSE API (docs/serve.md).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/serve_command.hpp"
#include "clawperator/text.hpp"

namespace clawperator::cli {
namespace {

ServeEntry g_entry = nullptr;
std::vector<std::string> g_arguments;

struct ServeFlags {
  std::string host = "127.0.0.1";
  std::string port = "3000";
  std::string token;
  bool no_token = false;
  std::optional<std::string> registry;
};

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

// Replaces this process with clawperator-serve from the same directory, same arguments.
CommandResult exec_server() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path server = self.parent_path() / "clawperator-serve";
  std::vector<std::string> arguments = g_arguments;
  if (arguments.empty()) arguments.emplace_back();
  arguments.front() = server.string();
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  ::execv(server.c_str(), argv.data());
  contract::HostError failure_error = contract::usage_error(
      "INTERNAL_ERROR", "clawperator serve needs " + server.string() + ": " + std::strerror(errno));
  failure_error.details["path"] = server.string();
  return failure(failure_error);
}

CommandResult run_serve(const ServeFlags& flags, const GlobalOptions& options) {
  const std::optional<int> port = parse_port(std::string(trim(flags.port)));
  if (!port) {
    contract::HostError error =
        contract::usage_error("USAGE", "Invalid port number. Must be 1-65535.");
    error.details["flag"] = "--port";
    return failure(error);
  }
  if (trim(flags.host).empty()) {
    contract::HostError error = contract::usage_error("USAGE", "--host requires a value");
    error.details["flag"] = "--host";
    return failure(error);
  }
  if (g_entry == nullptr) return exec_server();
  ServeCommand command;
  command.host = std::string(trim(flags.host));
  command.port = *port;
  command.token = flags.token;
  command.no_token = flags.no_token;
  command.skills_registry = flags.registry;
  if (command.token.empty())
    command.token = process_environment("CLAWPERATOR_SERVE_TOKEN").value_or("");
  return g_entry(command, options);
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
                   "The token every route but /ping needs (default: $CLAWPERATOR_SERVE_TOKEN, "
                   "else a random one, printed in the inspector's URL)");
  serve.add_flag("--no-token", flags->no_token,
                 "No token at all (loopback only: any local user may then drive the devices)");
  serve.add_option("--registry", flags->registry,
                   "The skills registry of the /skills routes (default: "
                   "$CLAWPERATOR_SKILLS_REGISTRY, else ./skills/skills-registry.json, else the "
                   "installed one)");
  set_command_footer(
      serve,
      "Examples:\n"
      "  clawperator serve                      # prints http://127.0.0.1:3000/?token=...\n"
      "  clawperator serve --host 0.0.0.0 --port 8080 --token \"$TOKEN\"");
  commands.push_back(
      Command{serve.app(),
              [flags](const GlobalOptions& options) { return run_serve(*flags, options); },
              {"--host", "--port", "--token", "--no-token", "--registry"}});
}

}  // namespace clawperator::cli
