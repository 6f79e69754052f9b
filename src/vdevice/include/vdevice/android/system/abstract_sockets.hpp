// The device's abstract-namespace sockets (`localabstract:NAME`): who listens, and what a
// connection forwarded by adb (`adb forward tcp:N localabstract:NAME`) reaches. An app
// listens by registering an acceptor; each connection gets its own ServiceSession.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "vdevice/android/system/webview_devtools.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::android {

class AbstractSockets {
 public:
  // Makes a session for one accepted connection, writing to `out`.
  using Acceptor = std::function<std::unique_ptr<ServiceSession>(ServiceOutput& out)>;

  // False when something listens on `name` already (EADDRINUSE).
  bool listen(const std::string& name, Acceptor acceptor);
  void close(const std::string& name);
  bool listening(const std::string& name) const { return listeners_.contains(name); }

  // A connection to `name`; nullptr when nothing listens (connect() fails: ECONNREFUSED).
  std::unique_ptr<ServiceSession> connect(const std::string& name, ServiceOutput& out);

  // The listening sockets as /proc/net/unix shows them ("@name"), by inode.
  std::vector<UnixSocketRow> rows() const;

 private:
  struct Listener {
    Acceptor acceptor;
    std::uint64_t inode = 0;
  };
  std::map<std::string, Listener> listeners_;
  // A socket's inode is the kernel's, handed out in order; the first ones went to boot.
  std::uint64_t next_inode_ = 31000;
};

}  // namespace clawperator::vdevice::android
