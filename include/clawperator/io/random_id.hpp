// Names nobody can guess or collide with: device temp files, result sessions.
#pragma once

#include <string>

namespace clawperator::io {

// A random UUID (version 4) in its usual 36-character form, from getrandom(2).
std::string random_uuid();

}  // namespace clawperator::io
