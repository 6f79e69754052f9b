#include "clawperator/serve/http_status.hpp"

#include "clawperator/contract/error_catalog.hpp"

namespace clawperator::serve {

int http_status_of_code(std::string_view code) {
  // One column of the error catalog (src/contract/error_catalog_table.cpp): every code has its
  // status there, beside its exit code, so the two cannot drift apart.
  const contract::CatalogEntry* entry = contract::find_error(code);
  return entry != nullptr ? entry->http_status : 500;
}

int http_status_of(const Json& document) {
  if (!document.is_object()) return 500;
  const auto ok = document.find("ok");
  if (ok != document.end() && *ok == true) return 200;
  const auto envelope = document.find("envelope");
  if (envelope != document.end() && envelope->is_object()) return 200;
  const auto code = document.find("code");
  if (code == document.end() || !code->is_string()) return 500;
  return http_status_of_code(code->get_ref<const std::string&>());
}

}  // namespace clawperator::serve
