// Help text shared by every command: the formatter and the exit-code table.
#pragma once

#include <memory>
#include <string_view>

namespace CLI {
class Formatter;
}

namespace clawperator::cli {

std::shared_ptr<CLI::Formatter> make_help_formatter();

// The exit-code contract (docs/contract.md §7), printed under the top-level help.
std::string_view help_footer();

}  // namespace clawperator::cli
