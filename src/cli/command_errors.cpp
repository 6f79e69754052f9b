// `errors [CODE]`: the public error catalog as JSON.
#include <memory>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/service/errors.hpp"

namespace clawperator::cli {

CommandResult run_errors(const std::string& typed) {
  return result_of(service::errors_document(typed));
}

void register_catalog_commands(CommandLine root, std::vector<Command>& commands) {
  auto code = std::make_shared<std::string>();
  CommandLine errors = root.add_subcommand("errors", "List the error catalog, or explain one code");
  errors.group("Utilities");
  errors.add_option("code", *code, "An error code, e.g. NODE_NOT_FOUND");
  set_command_footer(errors,
                     "Examples:\n"
                     "  clawperator errors\n"
                     "  clawperator errors node_not_found");
  commands.push_back(
      Command{errors.app(), [code](const GlobalOptions&) { return run_errors(*code); }, {}});
}

}  // namespace clawperator::cli
