// The core's Expected (clawperator/expected.hpp), by the name the transport and virtual-device
// code has long used.
#pragma once

#include "clawperator/expected.hpp"

namespace clawperator::transport {

using clawperator::Expected;
using clawperator::Unexpected;

}  // namespace clawperator::transport
