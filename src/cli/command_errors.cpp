// `errors [CODE]`: the public error catalog as JSON.
#include <cctype>
#include <memory>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/suggest.hpp"
#include "clawperator/contract/error_catalog.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/text.hpp"

namespace clawperator::cli {
namespace {

using contract::CatalogEntry;

std::string_view origin_name(contract::Origin origin) {
  switch (origin) {
    case contract::Origin::Host:
      return "host";
    case contract::Origin::Android:
      return "android";
    case contract::Origin::Both:
      break;
  }
  return "both";
}

Json row_to_json(const CatalogEntry& row) {
  Json out = Json::object();
  out["code"] = row.code;
  out["label"] = contract::derived_label(row.code);
  out["family"] = row.family;
  out["meaning"] = row.meaning;
  out["exitCode"] = row.exit_code;
  out["disposition"] =
      contract::to_json(contract::Disposition{row.delivery, contract::default_retry(row.delivery)});
  Json recovery = Json::object();
  const std::string_view strategy = contract::to_string(row.strategy);
  recovery["strategy"] = strategy.empty() ? Json(nullptr) : Json(strategy);
  recovery["action"] = row.recovery;
  out["recovery"] = std::move(recovery);
  out["origin"] = origin_name(row.origin);
  return out;
}

// Codes are upper snake case; `errors node_not_found` or `errors node-not-found` means the same
// code, as a person typing it expects.
std::string canonical_code(std::string_view typed) {
  std::string out;
  for (const char c : trim(typed)) {
    out += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

}  // namespace

CommandResult run_errors(const std::string& typed) {
  const std::string code = canonical_code(typed);
  if (code.empty()) {
    Json rows = Json::array();
    for (const CatalogEntry& row : contract::error_catalog()) rows.push_back(row_to_json(row));
    Json out = Json::object();
    out["count"] = rows.size();
    out["errors"] = std::move(rows);
    return success(std::move(out));
  }
  if (const CatalogEntry* row = contract::find_error(code)) {
    Json out = Json::object();
    out["error"] = row_to_json(*row);
    // The sentences a failure with this code may carry instead of the row's recovery text.
    const std::vector<std::string_view> hints = contract::situation_hints(row->code);
    if (!hints.empty()) out["situationHints"] = hints;
    return success(std::move(out));
  }
  std::vector<std::string> codes;
  for (const CatalogEntry& row : contract::error_catalog()) codes.emplace_back(row.code);
  const auto suggestion = suggest_command(code, codes);
  std::string message = "Unknown error code: " + typed + ".";
  if (suggestion) message += " Did you mean '" + *suggestion + "'?";
  contract::HostError error = contract::usage_error("USAGE", message);
  error.details["code"] = typed;
  if (suggestion) error.top_level["suggestion"] = *suggestion;
  return failure(error);
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
