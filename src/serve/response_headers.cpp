#include "clawperator/serve/response_headers.hpp"

#include <array>

namespace clawperator::serve {

std::span<const HeaderField> security_headers() {
  static constexpr std::array<HeaderField, 5> kHeaders = {{
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'"},
      {"X-Frame-Options", "DENY"},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"Cache-Control", "no-store"},
  }};
  return kHeaders;
}

std::string_view status_text(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 408:
      return "Request Timeout";
    case 413:
      return "Payload Too Large";
    case 431:
      return "Request Header Fields Too Large";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

std::string closing_response(int status, const Json& document) {
  const std::string body = dump_json(document) + "\n";
  std::string out =
      "HTTP/1.1 " + std::to_string(status) + " " + std::string(status_text(status)) + "\r\n";
  for (const auto& [name, value] : security_headers()) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  out += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n";
  out += body;
  return out;
}

}  // namespace clawperator::serve
