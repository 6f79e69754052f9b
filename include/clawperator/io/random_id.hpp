// Names nobody can guess or collide with: device temp files, result sessions, command ids.
#pragma once

#include <cstddef>
#include <string>

namespace clawperator::io {

// A random UUID (version 4) in its usual 36-character form, from getrandom(2).
std::string random_uuid();

// `byte_count` random bytes from getrandom(2) as lowercase hex (twice as many digits): command
// ids nobody can predict (docs/guardrails.md), confirmation tokens, socket names.
std::string random_hex(std::size_t byte_count);

}  // namespace clawperator::io
