// The inspector's pages (src/serve/inspector/), embedded at build time (cmake/EmbedFiles.cmake).
#pragma once

#include <span>
#include <string_view>

namespace clawperator::serve {

struct StaticFile {
  std::string_view route;  // "/" for index.html, else "/inspector/<name>"
  std::string_view content_type;
  std::string_view body;
};

std::span<const StaticFile> static_files();

// nullptr when no file has this route.
const StaticFile* find_static_file(std::string_view route);

}  // namespace clawperator::serve
