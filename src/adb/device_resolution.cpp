#include "clawperator/adb/device_resolution.hpp"

#include "clawperator/adb/device_list.hpp"
#include "clawperator/adb/device_selection.hpp"
#include "clawperator/adb/device_shell.hpp"

namespace clawperator::adb {

contract::Outcome<std::string> resolve_device(AdbClient& client,
                                              const std::optional<std::string>& requested) {
  if (requested) return *requested;
  const process::Completion completion = client.devices();
  if (auto status =
          adb_call_failure(completion, client.settings(), "adb devices", "ADB_SERVER_FAILED");
      !status) {
    return contract::failed(std::move(status.error()));
  }
  CLAWPERATOR_TRY_ASSIGN(auto selected,
                         select_device(parse_device_list(completion.out), std::nullopt));
  return selected.serial;
}

}  // namespace clawperator::adb
