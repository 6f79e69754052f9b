// `emulator provision --install-operator` (docs/emulator.md): one command gives a device an
// exec can use. The emulator provisioned (emulator/request.hpp), the published Operator
// installed on it as `operator install` does (operator_app/install.hpp, the same downloads
// directory), then doctor run until it reports ready.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/emulator/request.hpp"
#include "clawperator/json.hpp"
#include "clawperator/operator_app/install.hpp"
#include "clawperator/process/runner.hpp"

namespace clawperator::service {

// How long doctor may take to report ready once the Operator is installed: the accessibility
// service binds a moment after it is enabled.
inline constexpr std::chrono::milliseconds kOperatorReadyTimeout{60000};

struct OperatorOnEmulator {
  // Its device is the emulator provisioned; the rest as `operator install` takes it.
  operator_app::InstallRequest install;
  std::filesystem::path log_dir;  // doctor's
  std::chrono::milliseconds ready_timeout = kOperatorReadyTimeout;
};

// provision's document with `operator` (what operator install reports, without ok and
// disposition) and `ready: true`, `readyAfterMs`; or the failure: provision's, the install's
// (the emulator's document beside it as `emulator`), or DOCTOR_FAILED naming the checks that
// still fail when the time is up.
contract::Outcome<Json> provision_with_operator(
    const emulator::EmulatorRequest& request, const OperatorOnEmulator& with_operator,
    process::Runner& runner, adb::AdbClient& adb,
    const std::optional<std::filesystem::path>& log_directory);

}  // namespace clawperator::service
