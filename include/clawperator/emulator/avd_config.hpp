// An AVD's own files, read as the emulator reads them: `<avd home>/<name>.ini` and
// `<avd home>/<name>.avd/config.ini` (docs/emulator.md, "AVD files"). No process is run.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/emulator/image.hpp"
#include "clawperator/json.hpp"

namespace clawperator::emulator {

// key=value lines: trimmed, blank and '#' lines and lines without a key skipped, a later key
// replacing an earlier one. Pure.
std::map<std::string, std::string> parse_ini(std::string_view text);

// What the two files' keys say of the image (pure: the maps as parse_ini made them).
AvdImage image_of(const std::map<std::string, std::string>& config,
                  const std::map<std::string, std::string>& top);

struct ConfiguredAvd {
  std::string name;
  bool exists = false;  // either file holds a key
  bool running = false;
  AvdImage image;
  std::vector<std::string> unsupported_reasons;
  bool supported() const { return exists && unsupported_reasons.empty(); }
};

// The AVD `name` under `avd_home`, judged against `wanted`. A missing AVD is no error:
// exists false and every reason.
ConfiguredAvd read_configured_avd(const std::filesystem::path& avd_home, const std::string& name,
                                  const ImageSpec& wanted, bool running);

// {name, exists, running, apiLevel, abi, playStore, deviceProfile, systemImage, supported,
// unsupportedReasons}: the original's ConfiguredAvd.
Json to_json(const ConfiguredAvd& avd);

// An AVD name the SDK tools accept and that names no path: [A-Za-z0-9._-], not starting with
// '.' or '-', at most 128 characters.
bool is_valid_avd_name(std::string_view name);

}  // namespace clawperator::emulator
