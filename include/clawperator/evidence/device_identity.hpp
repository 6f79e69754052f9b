// Who the device is, for a bundle's manifest: one device-shell round trip for the build
// properties, the display and the Operator's version (src/evidence/device_identity.cpp).
#pragma once

#include <string>
#include <string_view>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/evidence/manifest.hpp"

namespace clawperator::evidence {

// The device script whose output parse_device_identity reads.
std::string identity_script(std::string_view operator_package);

// Fills the device fields (not serial, package or CLI version) from the script's output.
void parse_device_identity(std::string_view output, std::string_view operator_package,
                           DeviceIdentity& identity);

// The hierarchy's rotation="N" (0..3) from a uiautomator dump, when the root says it.
std::optional<int> hierarchy_rotation(std::string_view hierarchy_xml);

// Runs the script on `serial` and fills `identity`; the failure when the shell did not answer.
contract::Status read_device_identity(adb::AdbClient& client, const std::string& serial,
                                      DeviceIdentity& identity);

}  // namespace clawperator::evidence
