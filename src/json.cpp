#include "clawperator/json.hpp"

namespace clawperator {

std::string dump_json(const Json& value, bool pretty) {
  return value.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace clawperator
