#include "clawperator/service/session.hpp"

namespace clawperator::service {

DeviceChoice choose_device(const Session& session, const Target& target) {
  return {target.device ? target.device : session.device,
          target.operator_package.value_or(session.operator_package)};
}

Session server_session(Session session, exec::WarmFollowers* warm_followers) {
  session.warm_followers = warm_followers;
  session.lock_wait_ms.reset();
  session.lock_token.clear();
  session.show_progress = false;
  return session;
}

}  // namespace clawperator::service
