// `emulator provision`: a booted emulator of the wanted image with one command (the original's
// provision.ts, its three paths, judged against the wanted image rather than one fixed one).
#include <algorithm>

#include "clawperator/emulator/lifecycle.hpp"
#include "emulator_errors.hpp"

namespace clawperator::emulator {

namespace {

Json provisioned(std::string avd_name, std::string serial, bool created, bool started, bool reused,
                 std::string_view action) {
  Json out = Json::object();
  out["type"] = "emulator";
  out["avdName"] = std::move(avd_name);
  out["serial"] = std::move(serial);
  out["booted"] = true;
  out["created"] = created;
  out["started"] = started;
  out["reused"] = reused;
  out["action"] = std::string(action);
  return out;
}

contract::Outcome<Json> started_as(EmulatorHost& host, const std::string& name,
                                   const StartOptions& options, bool created, bool reused,
                                   std::string_view action) {
  CLAWPERATOR_TRY_ASSIGN(auto started, start_avd(host, name, options));
  Json out =
      provisioned(name, started.at("serial").get<std::string>(), created, true, reused, action);
  out["animationsDisabled"] = started.at("animationsDisabled");
  out["logFile"] = started.at("logFile");
  return out;
}

}  // namespace

contract::Outcome<Json> provision(EmulatorHost& host, const StartOptions& options) {
  CLAWPERATOR_TRY(require_tools(host));

  CLAWPERATOR_TRY_ASSIGN(auto running, list_running(host));
  const auto supported_running =
      std::find_if(running.begin(), running.end(),
                   [](const RunningEmulator& emulator) { return emulator.avd.supported(); });
  if (supported_running != running.end()) {
    if (!supported_running->booted) {
      CLAWPERATOR_TRY(wait_for_boot(host, supported_running->serial, options.boot_timeout));
    }
    CLAWPERATOR_TRY(prepare_booted(host, supported_running->serial, options.keep_animations));
    Json out = provisioned(supported_running->avd_name, supported_running->serial, false, false,
                           true, "reused");
    out["animationsDisabled"] = !options.keep_animations;
    return out;
  }

  CLAWPERATOR_TRY_ASSIGN(auto configured, list_configured(host, running));
  std::vector<const ConfiguredAvd*> candidates;
  for (const ConfiguredAvd& avd : configured) {
    if (avd.supported() && !avd.running) candidates.push_back(&avd);
  }
  if (!candidates.empty()) {
    // The default name first, then by name: the same AVD every run.
    std::sort(candidates.begin(), candidates.end(),
              [](const ConfiguredAvd* a, const ConfiguredAvd* b) {
                const bool a_default = a->name == kDefaultAvdName;
                const bool b_default = b->name == kDefaultAvdName;
                if (a_default != b_default) return a_default;
                return a->name < b->name;
              });
    return started_as(host, candidates.front()->name, options, false, true, "started");
  }

  const ConfiguredAvd default_avd =
      read_configured_avd(host.tools.avd_home, std::string(kDefaultAvdName), host.wanted, false);
  if (default_avd.exists) {
    return contract::failed(
        emulator_error("EMULATOR_UNSUPPORTED",
                       "Existing AVD " + std::string(kDefaultAvdName) +
                           " is unsupported and cannot be auto-provisioned",
                       Json{{"name", kDefaultAvdName},
                            {"unsupportedReasons", default_avd.unsupported_reasons},
                            {"wantedSystemImage", system_image_package(host.wanted)}}));
  }
  CreateOptions create;
  CLAWPERATOR_TRY(create_avd(host, create));
  return started_as(host, create.name, options, true, false, "created");
}

}  // namespace clawperator::emulator
