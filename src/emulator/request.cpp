#include "clawperator/emulator/request.hpp"

#include <algorithm>
#include <array>

#include "clawperator/word_list.hpp"

namespace clawperator::emulator {
namespace {

contract::HostError body_error(std::string message, std::string_view key) {
  contract::HostError error = contract::validation_error("INVALID_BODY", std::move(message));
  error.details["field"] = std::string(key);
  return error;
}

struct Field {
  std::string_view key;
  std::string_view actions;  // the actions that take it
};

constexpr std::string_view kImageActions = "list|status|inspect|create|start|provision";
constexpr std::array<Field, 12> kFields = {{
    {"api", kImageActions},
    {"target", kImageActions},
    {"abi", kImageActions},
    {"profile", kImageActions},
    {"headless", "start|provision"},
    {"wipe", "start|provision"},
    {"keepAnimations", "start|provision"},
    {"bootTimeoutMs", "start|provision"},
    {"emulatorArgs", "start|provision"},
    {"name", "create"},
    {"force", "create"},
    {"stopTimeoutMs", "stop"},
}};

// Whole milliseconds in [low, high].
contract::Outcome<long long> bounded_integer(const Json& value, std::string_view key, long long low,
                                             long long high) {
  if (!value.is_number_integer() || value.get<long long>() < low || value.get<long long>() > high) {
    return contract::failed(body_error(std::string(key) + " must be a whole number from " +
                                           std::to_string(low) + " to " + std::to_string(high),
                                       key));
  }
  return value.get<long long>();
}

contract::Outcome<bool> boolean(const Json& value, std::string_view key) {
  if (!value.is_boolean()) {
    return contract::failed(body_error(std::string(key) + " must be true or false", key));
  }
  return value.get<bool>();
}

// The emulator flags a caller of the HTTP server or MCP may add (docs/serve.md, "Emulators"):
// none takes a host path or names a program, so a caller cannot make the emulator read or
// write a file of ours (`-logcat-output`, `-tcpdump`, `-qemu -chardev file,path=…` and every
// other flag are refused). The CLI's `emulator start -- ARGS` is not checked: its user is this
// host's user.
enum class FlagValue { None, Number, Word };
struct CallerFlag {
  std::string_view name;
  FlagValue value;
};
constexpr std::array<CallerFlag, 19> kCallerFlags = {{
    {"-no-window", FlagValue::None},        {"-no-snapshot", FlagValue::None},
    {"-no-snapshot-load", FlagValue::None}, {"-no-snapshot-save", FlagValue::None},
    {"-wipe-data", FlagValue::None},        {"-no-boot-anim", FlagValue::None},
    {"-no-audio", FlagValue::None},         {"-read-only", FlagValue::None},
    {"-no-metrics", FlagValue::None},       {"-gpu", FlagValue::Word},
    {"-memory", FlagValue::Number},         {"-cores", FlagValue::Number},
    {"-partition-size", FlagValue::Number}, {"-camera-back", FlagValue::Word},
    {"-camera-front", FlagValue::Word},     {"-accel", FlagValue::Word},
    {"-netdelay", FlagValue::Word},         {"-netspeed", FlagValue::Word},
    {"-screen", FlagValue::Word},
}};

// A mode word (`swiftshader_indirect`, `multi-touch`, `none`): lower-case letters, digits, '_'
// and '-', not starting with '-'; a count: up to 9 digits.
bool valid_flag_value(FlagValue kind, std::string_view value) {
  if (value.empty() || value.size() > 32) return false;
  if (kind == FlagValue::Number) {
    return value.size() <= 9 &&
           std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  }
  return value.front() != '-' && std::all_of(value.begin(), value.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
         });
}

contract::HostError flag_error(std::string message, std::string_view flag) {
  contract::HostError error = body_error(std::move(message), "emulatorArgs");
  error.details["flag"] = std::string(flag);
  return error;
}

}  // namespace

contract::Status check_caller_emulator_args(const std::vector<std::string>& args) {
  for (std::size_t at = 0; at < args.size(); ++at) {
    const std::string& flag = args[at];
    const auto known = std::find_if(kCallerFlags.begin(), kCallerFlags.end(),
                                    [&flag](const CallerFlag& f) { return f.name == flag; });
    if (known == kCallerFlags.end()) {
      return contract::failed(
          flag_error("emulatorArgs may not contain " + quote_json(flag) +
                         ": a caller may add only flags that name no host path or program (" +
                         "docs/serve.md, \"Emulators\")",
                     flag));
    }
    if (known->value == FlagValue::None) continue;
    if (at + 1 >= args.size() || !valid_flag_value(known->value, args[at + 1])) {
      return contract::failed(flag_error(
          "emulatorArgs: " + flag + " needs " +
              (known->value == FlagValue::Number ? std::string("a whole number")
                                                 : std::string("a mode word ([a-z0-9_-])")),
          flag));
    }
    ++at;
  }
  return {};
}

contract::Outcome<EmulatorRequest> request_from_json(std::string action, std::string name,
                                                     const Json& body) {
  EmulatorRequest request;
  request.action = std::move(action);
  request.name = std::move(name);
  if (body.is_null()) return request;
  if (!body.is_object()) {
    return contract::failed(body_error("The body must be a JSON object", "body"));
  }
  for (const auto& [key, value] : body.items()) {
    // A named copy: clang before 16 does not capture a structured binding.
    const std::string_view field_name = key;
    const auto field = std::find_if(kFields.begin(), kFields.end(),
                                    [field_name](const Field& f) { return f.key == field_name; });
    if (field == kFields.end() || !listed_in(field->actions, request.action)) {
      return contract::failed(
          body_error("Unknown field " + quote_json(key) + " for emulator " + request.action, key));
    }
    if (key == "api") {
      CLAWPERATOR_TRY_ASSIGN(auto level, bounded_integer(value, key, kMinApiLevel, kMaxApiLevel));
      request.image.api_level = static_cast<int>(level);
    } else if (key == "target" || key == "abi" || key == "profile" || key == "name") {
      if (!value.is_string()) {
        return contract::failed(body_error(key + " must be a string", key));
      }
      const std::string& text = value.get_ref<const std::string&>();
      const bool valid = key == "target" ? std::find(std::begin(kTargets), std::end(kTargets),
                                                     text) != std::end(kTargets)
                         : key == "abi"  ? text == "x86_64" || text == "arm64-v8a"
                                         : is_valid_avd_name(text);
      if (!valid) {
        return contract::failed(body_error(
            key == "target" ? "target must be google_apis_playstore, google_apis or default"
            : key == "abi"  ? "abi must be x86_64 or arm64-v8a"
                            : key + " must be [A-Za-z0-9._-], not starting with '.' or '-', "
                                    "at most 128 characters",
            key));
      }
      if (key == "target") request.image.target = text;
      if (key == "abi") request.image.abi = text;
      if (key == "profile") request.image.profile = text;
      if (key == "name") request.create.name = text;
    } else if (key == "headless" || key == "wipe" || key == "keepAnimations" || key == "force") {
      CLAWPERATOR_TRY_ASSIGN(auto flag, boolean(value, key));
      if (key == "headless") request.start.headless = flag;
      if (key == "wipe") request.start.wipe = flag;
      if (key == "keepAnimations") request.start.keep_animations = flag;
      if (key == "force") request.create.force = flag;
    } else if (key == "bootTimeoutMs" || key == "stopTimeoutMs") {
      const bool boot = key == "bootTimeoutMs";
      CLAWPERATOR_TRY_ASSIGN(
          auto ms, bounded_integer(value, key, boot ? kMinBootTimeoutMs : kMinStopTimeoutMs,
                                   boot ? kMaxBootTimeoutMs : kMaxStopTimeoutMs));
      (boot ? request.start.boot_timeout : request.stop_timeout) = std::chrono::milliseconds(ms);
    } else {  // emulatorArgs
      if (!value.is_array() || value.size() > 64 ||
          !std::all_of(value.begin(), value.end(), [](const Json& arg) {
            return arg.is_string() && !arg.get_ref<const std::string&>().empty() &&
                   arg.get_ref<const std::string&>().size() <= 4096;
          })) {
        return contract::failed(body_error(
            "emulatorArgs must be a list of at most 64 non-empty strings of at most 4096 bytes",
            key));
      }
      for (const Json& arg : value) request.start.emulator_args.push_back(arg.get<std::string>());
      if (contract::Status allowed = check_caller_emulator_args(request.start.emulator_args);
          !allowed) {
        return contract::failed(allowed.error());
      }
    }
  }
  return request;
}

contract::Outcome<Json> run_request(const EmulatorRequest& request, process::Runner& runner,
                                    adb::AdbClient& adb,
                                    const std::optional<std::filesystem::path>& log_directory) {
  EmulatorHost host{runner, adb, discover_sdk_tools(), request.image, log_directory};
  const std::string& action = request.action;
  if (action == "list" || action == "inspect" || action == "status") {
    // Only status reports whether each one has booted.
    CLAWPERATOR_TRY_ASSIGN(auto running,
                           list_running(host, /*with_boot_state=*/action == "status"));
    if (action == "status") {
      Json devices = Json::array();
      for (const RunningEmulator& emulator : running) devices.push_back(to_json(emulator));
      return Json{{"devices", std::move(devices)}};
    }
    if (action == "inspect") {
      const bool up =
          std::any_of(running.begin(), running.end(), [&request](const RunningEmulator& emulator) {
            return emulator.avd_name == request.name;
          });
      return to_json(read_configured_avd(host.tools.avd_home, request.name, host.wanted, up));
    }
    CLAWPERATOR_TRY_ASSIGN(auto configured, list_configured(host, running));
    Json avds = Json::array();
    for (const ConfiguredAvd& avd : configured) avds.push_back(to_json(avd));
    return Json{{"avds", std::move(avds)}};
  }
  if (action == "create") {
    CLAWPERATOR_TRY_ASSIGN(auto created, create_avd(host, request.create));
    return to_json(created);
  }
  if (action == "start") return start_avd(host, request.name, request.start);
  if (action == "stop") return stop_avd(host, request.name, request.stop_timeout);
  if (action == "delete") return delete_avd(host, request.name);
  return provision(host, request.start);
}

}  // namespace clawperator::emulator
