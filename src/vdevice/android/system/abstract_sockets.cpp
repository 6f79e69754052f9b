#include "vdevice/android/system/abstract_sockets.hpp"

#include <utility>

namespace clawperator::vdevice::android {

bool AbstractSockets::listen(const std::string& name, Acceptor acceptor) {
  return listeners_.emplace(name, std::move(acceptor)).second;
}

void AbstractSockets::close(const std::string& name) {
  listeners_.erase(name);
}

std::unique_ptr<ServiceSession> AbstractSockets::connect(const std::string& name,
                                                         ServiceOutput& out) {
  const auto listener = listeners_.find(name);
  if (listener == listeners_.end()) return nullptr;
  // A copy: the acceptor may close its own listener while it accepts.
  const Acceptor acceptor = listener->second;
  return acceptor(out);
}

}  // namespace clawperator::vdevice::android
