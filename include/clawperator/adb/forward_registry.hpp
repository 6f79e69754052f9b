// The adb forwards this CLI creates, recorded in the private state directory so that one
// left behind by a run that was killed (SIGKILL: no cleanup ran) is removed by the next run
// on that device (docs/wire-protocol.md §11.4). Keyed like the device lock (adb::device_key).
#pragma once

#include <string>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/io/state_directory.hpp"

namespace clawperator::adb {

class ForwardRegistry {
 public:
  // No directory: nothing is recorded (and nothing can be swept).
  ForwardRegistry(const io::StateDirectory* directory, const std::string& device_key,
                  const std::string& serial);

  // "forward-<device key>-<port>" holding this process's pid.
  void record(int port) const;
  void forget(int port) const;
  // Forwards recorded for this device whose owner process is gone: removed from adb (when
  // `adb forward --list` still shows them to `socket_prefix`) and from the record. Returns how
  // many adb forwards were removed.
  int sweep_stale(adb::AdbClient& client, const std::string& socket_prefix) const;

 private:
  std::string name_of(int port) const;

  const io::StateDirectory* directory_;
  std::string serial_;
  std::string prefix_;
};

}  // namespace clawperator::adb
