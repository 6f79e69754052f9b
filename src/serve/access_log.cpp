#include "clawperator/serve/access_log.hpp"

#include "clawperator/io/log.hpp"

namespace clawperator::serve {

Json access_log_fields(const AccessRecord& record) {
  Json fields = Json::object();
  fields["method"] = record.method;
  fields["path"] = record.path.substr(0, record.path.find('?'));
  fields["status"] = record.status;
  fields["bytes"] = record.bytes;
  fields["remote"] = record.remote;
  return fields;
}

void log_access(const AccessRecord& record) {
  io::log_event(record.status >= 500 ? io::LogLevel::Warn : io::LogLevel::Info,
                "serve.http.request", access_log_fields(record));
}

}  // namespace clawperator::serve
