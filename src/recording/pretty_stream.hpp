// A JSON value written into a streamed document as JSON.stringify(value, null, 2) writes it at
// a given depth: dump_json's pretty text, every line after the first indented by `indent`.
// The text goes to the file piece by piece, so a value holding a large snapshot is never
// copied whole into a second string.
#pragma once

#include <string_view>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"
#include "clawperator/recording/streamed_file.hpp"

namespace clawperator::recording {

contract::Status write_pretty_indented(StreamedFile& file, const Json& value,
                                       std::string_view indent);

}  // namespace clawperator::recording
