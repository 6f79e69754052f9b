#include "clawperator/service/errors.hpp"

#include <cctype>
#include <string>
#include <vector>

#include "clawperator/contract/error_catalog.hpp"
#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/suggest.hpp"
#include "clawperator/text.hpp"

namespace clawperator::service {
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

contract::Outcome<Json> errors_document(std::string_view typed) {
  const std::string code = canonical_code(typed);
  if (code.empty()) {
    Json rows = Json::array();
    for (const CatalogEntry& row : contract::error_catalog()) rows.push_back(row_to_json(row));
    Json out = Json::object();
    out["count"] = rows.size();
    out["errors"] = std::move(rows);
    return out;
  }
  if (const CatalogEntry* row = contract::find_error(code)) {
    Json out = Json::object();
    out["error"] = row_to_json(*row);
    // The sentences a failure with this code may carry instead of the row's recovery text.
    const std::vector<std::string_view> hints = contract::situation_hints(row->code);
    if (!hints.empty()) out["situationHints"] = hints;
    return out;
  }
  std::vector<std::string> codes;
  for (const CatalogEntry& row : contract::error_catalog()) codes.emplace_back(row.code);
  const auto suggestion = suggest_command(code, codes);
  std::string message = "Unknown error code: " + std::string(typed) + ".";
  if (suggestion) message += " Did you mean '" + *suggestion + "'?";
  contract::HostError error = contract::usage_error("USAGE", message);
  error.details["code"] = std::string(typed);
  if (suggestion) error.top_level["suggestion"] = *suggestion;
  return contract::failed(std::move(error));
}

}  // namespace clawperator::service
