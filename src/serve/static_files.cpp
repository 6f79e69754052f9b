#include "clawperator/serve/static_files.hpp"

namespace clawperator::serve {

const StaticFile* find_static_file(std::string_view route) {
  for (const StaticFile& file : static_files()) {
    if (file.route == route) return &file;
  }
  return nullptr;
}

}  // namespace clawperator::serve
