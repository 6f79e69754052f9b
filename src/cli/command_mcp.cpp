// `mcp serve`: the MCP server over stdio (src/mcp/host.cpp). The one command whose stdout is a
// stream of protocol messages rather than one document: only the server writes to it. This file
// only turns the global options into the server's start (service::ServerStart); the program's
// main hands it to the server (set_mcp_entry), so that cli/ and mcp/ include none of each other.
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/mcp_command.hpp"
#include "clawperator/cli/session.hpp"

namespace clawperator::cli {
namespace {

McpEntry g_entry = nullptr;

CommandResult run_mcp_serve(const GlobalOptions& options) {
  if (g_entry == nullptr) {
    return failure(contract::usage_error(
        "INTERNAL_ERROR", "this program was built without the MCP server (src/main.cpp links it)"));
  }
  service::ServerStart start;
  auto policy = load_action_policy(options);
  if (!policy) start.policy_error = policy.error();
  start.session = session_of(options, policy ? *policy : nullptr);
  start.log_dir = options.log_dir;
  start.operator_package_explicit = options.operator_package_explicit;
  CommandResult result;
  result.exit_code = g_entry(start);
  result.already_written = true;
  return result;
}

}  // namespace

void set_mcp_entry(McpEntry entry) {
  g_entry = entry;
}

void register_mcp_commands(CommandLine root, std::vector<Command>& commands) {
  CommandLine mcp = root.add_subcommand("mcp", "Serve agents over the Model Context Protocol");
  mcp.group("Utilities");
  mcp.require_subcommand(1, 1);
  set_command_footer(mcp,
                     "Examples:\n"
                     "  clawperator mcp serve");
  CommandLine serve = mcp.add_subcommand(
      "serve", "Run an MCP server on stdin/stdout (docs/mcp.md); stdout carries only protocol");
  set_command_footer(serve,
                     "Notes:\n"
                     "  The global options are the session's first defaults; a tool call's\n"
                     "  deviceId, or the configure tool, chooses another device.\n\n"
                     "Examples:\n"
                     "  clawperator mcp serve --device emulator-5554");
  commands.push_back(Command{serve.app(), run_mcp_serve, {}});
}

}  // namespace clawperator::cli
