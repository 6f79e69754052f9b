#include <string>

#include "clawperator/contract/error_catalog.hpp"

namespace clawperator::contract {
namespace {

std::string escape_cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string render_error_catalog_markdown() {
  std::string out =
      "# Error catalog\n\n"
      "Generated from `src/contract/error_catalog_table.cpp` by `cmake --build build --target "
      "docs`; a unit test fails when this file and the table differ. `clawperator errors` prints "
      "the same rows as JSON.\n\n"
      "A code never changes meaning. Delivery, retry and exit code are the defaults for the phase "
      "in which the host usually raises the code; the error object of a real failure carries the "
      "disposition decided for that failure (see the README, \"Exit codes and dispositions\"). "
      "HTTP is the status `clawperator serve` answers with when a request fails with the code "
      "outside an envelope (docs/serve.md §2).\n\n";
  std::string_view family;
  for (const CatalogEntry& row : error_catalog()) {
    if (row.family != family) {
      family = row.family;
      out.append("## ").append(family).append("\n\n");
      out += "| code | meaning | exit | HTTP | delivery / retry | recovery |\n";
      out += "| --- | --- | --- | --- | --- | --- |\n";
    }
    // Appends piecewise: g++ 12 warns falsely (-Wrestrict) on "literal" + std::string&&.
    const std::string_view strategy = to_string(row.strategy);
    out.append("| `").append(row.code).append("` | ").append(escape_cell(row.meaning));
    out.append(" | ").append(std::to_string(row.exit_code)).append(" | ");
    out.append(std::to_string(row.http_status)).append(" | ");
    out.append(to_string(row.delivery))
        .append(" / ")
        .append(to_string(default_retry(row.delivery)))
        .append(" | ");
    if (!strategy.empty()) out.append("`").append(strategy).append("`: ");
    out.append(escape_cell(row.recovery)).append(" |\n");
    // Families are contiguous in the table; a blank line ends each one's table.
    const auto rows = error_catalog();
    const CatalogEntry* next = &row + 1;
    if (next == rows.data() + rows.size() || next->family != family) out += "\n";
  }
  return out;
}

}  // namespace clawperator::contract
