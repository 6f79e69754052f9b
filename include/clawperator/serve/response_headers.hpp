// The headers every response of the server carries, whoever writes it (cpp-httplib's routes
// or the connection gate's refusals): no page of another site may frame ours, load what it did
// not come with, guess a type, learn where it came from, or keep a copy. Pure.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "clawperator/json.hpp"

namespace clawperator::serve {

using HeaderField = std::pair<std::string_view, std::string_view>;

// Content-Security-Policy (default-src 'self', frame-ancestors 'none' …), X-Frame-Options DENY,
// X-Content-Type-Options nosniff, Referrer-Policy no-referrer, Cache-Control no-store.
std::span<const HeaderField> security_headers();

// "Payload Too Large" for 413, … ("Error" for a status it does not name).
std::string_view status_text(int status);

// A whole HTTP/1.1 response that closes the connection: the status line, the security headers,
// the JSON document as the body.
std::string closing_response(int status, const Json& document);

}  // namespace clawperator::serve
