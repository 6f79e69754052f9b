// One line per request in the log file (event serve.http.request): method, path without
// its query, status, bytes sent, duration and the peer. Never a body: a payload may hold what
// a user types into an app.
#pragma once

#include <string_view>

#include "clawperator/json.hpp"

namespace clawperator::serve {

struct AccessRecord {
  std::string_view method;
  std::string_view path;
  int status = 0;
  std::size_t bytes = 0;
  std::string_view remote;
};

// The fields of the log line. Pure.
Json access_log_fields(const AccessRecord& record);

void log_access(const AccessRecord& record);

}  // namespace clawperator::serve
