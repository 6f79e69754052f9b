#include "clawperator/service/session.hpp"

namespace clawperator::service {

DeviceChoice choose_device(const Session& session, const Target& target) {
  return {target.device ? target.device : session.device,
          target.operator_package.value_or(session.operator_package)};
}

}  // namespace clawperator::service
