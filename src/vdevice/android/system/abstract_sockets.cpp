#include "vdevice/android/system/abstract_sockets.hpp"

#include <algorithm>
#include <utility>

namespace clawperator::vdevice::android {

bool AbstractSockets::listen(const std::string& name, Acceptor acceptor) {
  if (listeners_.contains(name)) return false;
  listeners_.emplace(name, Listener{std::move(acceptor), next_inode_++});
  return true;
}

void AbstractSockets::close(const std::string& name) {
  listeners_.erase(name);
}

std::unique_ptr<ServiceSession> AbstractSockets::connect(const std::string& name,
                                                         ServiceOutput& out) {
  const auto listener = listeners_.find(name);
  if (listener == listeners_.end()) return nullptr;
  // A copy: the acceptor may close its own listener while it accepts.
  const Acceptor acceptor = listener->second.acceptor;
  return acceptor(out);
}

std::vector<UnixSocketRow> AbstractSockets::rows() const {
  std::vector<UnixSocketRow> rows;
  for (const auto& [name, listener] : listeners_) rows.push_back({listener.inode, "@" + name});
  std::sort(rows.begin(), rows.end(),
            [](const UnixSocketRow& a, const UnixSocketRow& b) { return a.inode < b.inode; });
  return rows;
}

}  // namespace clawperator::vdevice::android
