// What the binary tests run and read, as tests/cli/CMakeLists.txt names them: the built
// clawperator and the repository's examples/.
#pragma once

#include <string>

#include "test_locations.hpp"

namespace clawperator::testing {

inline const std::string kBinary = CLAWPERATOR_BINARY;
inline const std::string kExamples = CLAWPERATOR_EXAMPLES_DIR;

}  // namespace clawperator::testing
