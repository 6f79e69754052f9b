#include "pretty_stream.hpp"

#include <optional>
#include <string>

namespace clawperator::recording {

contract::Status write_pretty_indented(StreamedFile& file, const Json& value,
                                       std::string_view indent) {
  std::optional<contract::HostError> failure;
  const std::string newline = "\n" + std::string(indent);
  auto put = [&](std::string_view piece) {
    if (failure) return;
    if (auto written = file.write(piece); !written) failure = std::move(written).error();
  };
  // A JSON text holds a line break only between tokens (a string's are escaped), so every '\n'
  // the writer emits starts a line to indent.
  dump_json_to(value, true, [&](std::string_view text) {
    while (!text.empty() && !failure) {
      const std::size_t newline_at = text.find('\n');
      if (newline_at == std::string_view::npos) {
        put(text);
        return;
      }
      put(text.substr(0, newline_at));
      put(newline);
      text.remove_prefix(newline_at + 1);
    }
  });
  if (failure) return contract::failed(std::move(*failure));
  return {};
}

}  // namespace clawperator::recording
