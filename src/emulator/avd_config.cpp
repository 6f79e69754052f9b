#include "clawperator/emulator/avd_config.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "clawperator/io/bounded_file.hpp"
#include "clawperator/text.hpp"

namespace clawperator::emulator {
namespace {

// An AVD's ini files are a few hundred bytes; a larger one is not the emulator's.
constexpr std::size_t kMaxIniBytes = std::size_t{1} << 20;

std::map<std::string, std::string> read_ini(const std::filesystem::path& path) {
  std::string text;
  if (!io::read_regular_file(path, kMaxIniBytes, text)) return {};
  return parse_ini(text);
}

std::optional<std::string> value_of(const std::map<std::string, std::string>& ini,
                                    const char* key) {
  const auto found = ini.find(key);
  if (found == ini.end()) return std::nullopt;
  return found->second;
}

std::optional<int> api_level_in(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  static const std::regex android_level("android-(\\d+)");
  std::smatch match;
  if (!std::regex_search(*text, match, android_level)) return std::nullopt;
  const std::string digits = match[1];
  if (digits.size() > 4) return std::nullopt;
  return std::stoi(digits);
}

bool is_yes(const std::optional<std::string>& value) {
  if (!value) return false;
  const std::string lower = lowercase(*value);
  return lower == "true" || lower == "yes";
}

}  // namespace

std::map<std::string, std::string> parse_ini(std::string_view text) {
  std::map<std::string, std::string> values;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = trim(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos || equals == 0) continue;
    const std::string_view key = trim(line.substr(0, equals));
    if (key.empty()) continue;
    values[std::string(key)] = std::string(trim(line.substr(equals + 1)));
  }
  return values;
}

AvdImage image_of(const std::map<std::string, std::string>& config,
                  const std::map<std::string, std::string>& top) {
  AvdImage image;
  const std::optional<std::string> sysdir = value_of(config, "image.sysdir.1");
  std::optional<std::string> target = value_of(config, "target");
  if (!target) target = value_of(top, "target");
  image.api_level = api_level_in(target);
  if (!image.api_level) image.api_level = api_level_in(sysdir);
  image.abi = value_of(config, "abi.type");
  image.profile = value_of(config, "hw.device.name");
  if (sysdir) {
    std::string package = *sysdir;
    while (!package.empty() && (package.back() == '/' || package.back() == '\\')) {
      package.pop_back();
    }
    std::replace(package.begin(), package.end(), '/', ';');
    std::replace(package.begin(), package.end(), '\\', ';');
    image.system_image = package;
  }
  image.play_store =
      is_yes(value_of(config, "PlayStore.enabled")) ||
      value_of(config, "tag.id") == std::optional<std::string>("google_apis_playstore") ||
      (sysdir && sysdir->find("google_apis_playstore") != std::string::npos);
  return image;
}

ConfiguredAvd read_configured_avd(const std::filesystem::path& avd_home, const std::string& name,
                                  const ImageSpec& wanted, bool running) {
  ConfiguredAvd avd;
  avd.name = name;
  avd.running = running;
  std::map<std::string, std::string> config, top;
  if (is_valid_avd_name(name)) {
    config = read_ini(avd_home / (name + ".avd") / "config.ini");
    top = read_ini(avd_home / (name + ".ini"));
  }
  avd.exists = !config.empty() || !top.empty();
  avd.image = image_of(config, top);
  avd.unsupported_reasons = unsupported_reasons(avd.image, wanted);
  return avd;
}

Json to_json(const ConfiguredAvd& avd) {
  const auto optional = [](const auto& value) { return value ? Json(*value) : Json(nullptr); };
  Json out = Json::object();
  out["name"] = avd.name;
  out["exists"] = avd.exists;
  out["running"] = avd.running;
  out["apiLevel"] = optional(avd.image.api_level);
  out["abi"] = optional(avd.image.abi);
  out["playStore"] = avd.image.play_store;
  out["deviceProfile"] = optional(avd.image.profile);
  out["systemImage"] = optional(avd.image.system_image);
  out["supported"] = avd.supported();
  out["unsupportedReasons"] = avd.unsupported_reasons;
  return out;
}

bool is_valid_avd_name(std::string_view name) {
  if (name.empty() || name.size() > 128 || name.front() == '.' || name.front() == '-') {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
  });
}

}  // namespace clawperator::emulator
