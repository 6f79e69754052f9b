// `clawperator emulator list|inspect|create|start|stop|delete|status|provision` and the
// original's alias `provision emulator` (docs/emulator.md). Flags to options and documents to
// the output; the work is src/emulator/'s.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <memory>

#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/download/operator_release.hpp"
#include "clawperator/emulator/request.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/service/emulator.hpp"
#include "clawperator/word_list.hpp"

namespace clawperator::cli {
namespace {

using contract::HostError;

constexpr std::string_view kSubcommands = action_word_list("emulator");

struct EmulatorFlags {
  std::string action;
  std::string name;  // inspect, start, stop, delete: the positional; create: --name
  std::optional<std::string> name_flag;
  std::optional<std::string> api, target, abi, profile;
  bool force = false;
  bool headless = false, wipe = false, keep_animations = false;
  std::optional<std::string> boot_timeout;
  std::optional<std::string> stop_timeout;
  std::vector<std::string> emulator_args;  // after --
  bool install_operator = false;           // provision: the Operator installed, doctor ready
};

struct FlagUse {
  std::string_view name;
  bool given;
  std::string_view takes;
};

std::optional<CommandResult> refuse_foreign_flags(const EmulatorFlags& flags) {
  const std::array<FlagUse, 11> uses = {{
      {"--install-operator", flags.install_operator, "provision"},
      {"--stop-timeout", flags.stop_timeout.has_value(), "stop"},
      {"--name", flags.name_flag.has_value(), "create"},
      {"--force", flags.force, "create"},
      {"--headless", flags.headless, "start|provision"},
      {"--wipe", flags.wipe, "start|provision"},
      {"--keep-animations", flags.keep_animations, "start|provision"},
      {"--boot-timeout", flags.boot_timeout.has_value(), "start|provision"},
      {"--", !flags.emulator_args.empty(), "start|provision"},
      {"--api", flags.api.has_value(), "list|inspect|create|start|status|provision"},
      {"--target", flags.target.has_value(), "list|inspect|create|start|status|provision"},
  }};
  for (const FlagUse& use : uses) {
    if (use.given && !listed_in(use.takes, flags.action)) {
      return usage_failure(std::string(use.name) + " is not an option of emulator " + flags.action +
                               " (it belongs to emulator " + std::string(use.takes) + ")",
                           Json{{"flag", use.name}});
    }
  }
  for (const auto& [name, given] : {std::pair{"--abi", flags.abi.has_value()},
                                    std::pair{"--profile", flags.profile.has_value()}}) {
    if (given && !listed_in("list|inspect|create|start|status|provision", flags.action)) {
      return usage_failure(std::string(name) + " is not an option of emulator " + flags.action,
                           Json{{"flag", name}});
    }
  }
  return std::nullopt;
}

// The image flags over this host's defaults, each checked.
contract::Outcome<emulator::ImageSpec> wanted_image(const EmulatorFlags& flags) {
  emulator::ImageSpec image = emulator::default_image();
  const auto refuse = [](std::string message, std::string_view flag) {
    HostError error = contract::usage_error("USAGE", std::move(message));
    error.details["flag"] = std::string(flag);
    return contract::failed(std::move(error));
  };
  if (flags.api) {
    int level = 0;
    const char* end = flags.api->data() + flags.api->size();
    const auto [at, error] = std::from_chars(flags.api->data(), end, level);
    if (error != std::errc() || at != end || level < emulator::kMinApiLevel ||
        level > emulator::kMaxApiLevel) {
      return refuse("--api must be an API level from 21 to 99, not '" + *flags.api + "'", "--api");
    }
    image.api_level = level;
  }
  if (flags.target) {
    if (std::find(std::begin(emulator::kTargets), std::end(emulator::kTargets), *flags.target) ==
        std::end(emulator::kTargets)) {
      return refuse("--target must be google_apis, google_apis_playstore or default, not '" +
                        *flags.target + "'",
                    "--target");
    }
    image.target = *flags.target;
  }
  if (flags.abi) {
    if (*flags.abi != "x86_64" && *flags.abi != "arm64-v8a") {
      return refuse("--abi must be x86_64 or arm64-v8a, not '" + *flags.abi + "'", "--abi");
    }
    image.abi = *flags.abi;
  }
  if (flags.profile) {
    if (!emulator::is_valid_avd_name(*flags.profile)) {
      return refuse(
          "--profile must be a device profile id such as pixel_7, not '" + *flags.profile + "'",
          "--profile");
    }
    image.profile = *flags.profile;
  }
  return image;
}

// A --…-timeout value: whole milliseconds in [low, high].
contract::Outcome<std::chrono::milliseconds> milliseconds_flag(const std::string& text,
                                                               std::string_view flag, long long low,
                                                               long long high) {
  long long ms = 0;
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, ms);
  if (error != std::errc() || at != end || ms < low || ms > high) {
    HostError refused = contract::usage_error(
        "USAGE", std::string(flag) + " must be milliseconds from " + std::to_string(low) + " to " +
                     std::to_string(high) + ", not '" + text + "'");
    refused.details["flag"] = std::string(flag);
    return contract::failed(std::move(refused));
  }
  return std::chrono::milliseconds(ms);
}

contract::Outcome<emulator::StartOptions> start_options(const EmulatorFlags& flags) {
  emulator::StartOptions options;
  options.headless = flags.headless;
  options.wipe = flags.wipe;
  options.keep_animations = flags.keep_animations;
  options.emulator_args = flags.emulator_args;
  if (flags.boot_timeout) {
    CLAWPERATOR_TRY_ASSIGN(
        auto timeout, milliseconds_flag(*flags.boot_timeout, "--boot-timeout",
                                        emulator::kMinBootTimeoutMs, emulator::kMaxBootTimeoutMs));
    options.boot_timeout = timeout;
  }
  return options;
}

// provision --install-operator: the release as `operator install` fetches it (the metadata
// address and the download's bounds from the environment, docs/operator.md).
CommandResult provision_with_operator(const emulator::EmulatorRequest& request,
                                      const GlobalOptions& options, process::Runner& runner,
                                      adb::AdbClient& client,
                                      const std::optional<std::filesystem::path>& log_directory) {
  auto release = download::read_release_request(std::nullopt, std::nullopt,
                                                [](const char* name) { return std::getenv(name); });
  if (!release) {
    return usage_failure(release.error().message, Json{{"variable", release.error().source}});
  }
  service::OperatorOnEmulator with_operator;
  with_operator.install.setup.operator_package = options.operator_package;
  with_operator.install.setup.operator_package_explicit = options.operator_package_explicit;
  with_operator.install.setup.adb = adb_settings(options);
  with_operator.install.release = std::move(*release);
  with_operator.install.release.show_progress = ::isatty(STDERR_FILENO) == 1;
  with_operator.install.downloads = download::downloads_directory(io::process_state_environment());
  with_operator.log_dir = options.log_dir;
  return result_of(
      service::provision_with_operator(request, with_operator, runner, client, log_directory));
}

CommandResult run_emulator(const EmulatorFlags& flags, const GlobalOptions& options) {
  if (flags.action.empty()) {
    return usage_failure("emulator requires a subcommand: emulator " + std::string(kSubcommands));
  }
  if (!listed_in(kSubcommands, flags.action)) {
    return usage_failure("Unknown emulator subcommand: " + flags.action + ". Use: emulator " +
                             std::string(kSubcommands),
                         Json{{"argument", flags.action}});
  }
  if (auto refused = refuse_foreign_flags(flags)) return std::move(*refused);
  const bool takes_name = listed_in("inspect|start|stop|delete", flags.action);
  if (takes_name && flags.name.empty()) {
    return usage_failure("emulator " + flags.action + " <name>", Json{{"argument", "name"}});
  }
  if (!takes_name && !flags.name.empty()) {
    return usage_failure("emulator " + flags.action + " takes no name" +
                             (flags.action == "create" ? " (use --name)" : std::string()),
                         Json{{"argument", flags.name}});
  }
  if (flags.name_flag && flags.name_flag->empty()) {
    return usage_failure(
        "--name needs a value; leave it out for " + std::string(emulator::kDefaultAvdName),
        Json{{"flag", "--name"}});
  }
  auto image = wanted_image(flags);
  if (!image) return failure(image.error());
  auto start = start_options(flags);
  if (!start) return failure(start.error());

  emulator::EmulatorRequest request;
  request.action = flags.action;
  request.name = flags.name;
  request.image = *image;
  request.start = *start;
  if (flags.name_flag) request.create.name = *flags.name_flag;
  request.create.force = flags.force;
  if (flags.stop_timeout) {
    auto timeout = milliseconds_flag(*flags.stop_timeout, "--stop-timeout",
                                     emulator::kMinStopTimeoutMs, emulator::kMaxStopTimeoutMs);
    if (!timeout) return failure(timeout.error());
    request.stop_timeout = *timeout;
  }
  // Ctrl-C during a wait: the children are stopped and reaped, and the JSON error printed.
  process::install_interrupt_handlers();
  const auto runner = process::make_system_runner();
  adb::AdbClient client(*runner, adb_settings(options));
  std::optional<std::filesystem::path> log_directory;
  if (listed_in("start|provision", flags.action)) {
    const io::StateSelection state = state_directory_for_run();
    if (state.directory) log_directory = state.directory->path();
  }
  if (flags.install_operator)
    return provision_with_operator(request, options, *runner, client, log_directory);
  auto document = emulator::run_request(request, *runner, client, log_directory);
  if (!document) return failure(document.error());
  return success(std::move(*document));
}

void add_image_flags(CommandLine command, EmulatorFlags& flags) {
  command.add_option("--api", flags.api,
                     "The API level (default 35); list, inspect, status and provision judge "
                     "support against it");
  command.add_option("--target", flags.target,
                     "google_apis_playstore (default), google_apis or default");
  command.add_option("--abi", flags.abi, "x86_64 or arm64-v8a (default: this host's)");
  command.add_option("--profile", flags.profile, "The device profile (default pixel_7)");
}

void add_start_flags(CommandLine command, EmulatorFlags& flags) {
  command.add_flag("--headless", flags.headless,
                   "No window and no audio, software rendering (-no-window -no-audio -gpu "
                   "swiftshader_indirect): CI");
  command.add_flag("--wipe", flags.wipe, "Start from a wiped user data partition (-wipe-data)");
  command.add_flag("--keep-animations", flags.keep_animations,
                   "Leave the animation scales as they are (default: set to 0)");
  command.add_option("--boot-timeout", flags.boot_timeout,
                     "How long start may take, adb registration (at most 60000) and boot "
                     "included, in ms (default 180000)");
}

void add_install_operator_flag(CommandLine command, EmulatorFlags& flags) {
  command.add_flag("--install-operator", flags.install_operator,
                   "provision: then install the published Operator as `operator install` does "
                   "and wait until doctor reports the emulator ready (docs/operator.md)");
}

}  // namespace

void register_emulator_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<EmulatorFlags>();
  CommandLine command = root.add_subcommand(
      "emulator", "Create, start, reuse and stop Android emulators (for CI: emulator provision)");
  command.group("Emulators");
  command.add_option("action", flags->action, std::string(kSubcommands));
  command.add_option("name", flags->name, "The AVD (inspect, start, stop, delete)");
  command.add_option("--name", flags->name_flag,
                     "create: the AVD's name (default "
                     "clawperator-pixel)");
  command.add_flag("--force", flags->force, "create: replace an AVD of that name");
  command.add_option("--stop-timeout", flags->stop_timeout,
                     "stop: how long to wait until adb no longer lists it, in ms (default "
                     "30000)");
  add_image_flags(command, *flags);
  add_start_flags(command, *flags);
  add_install_operator_flag(command, *flags);
  set_command_footer(command,
                     "Notes:\n"
                     "  No --timeout: start and provision take up to --boot-timeout (180000 ms),\n"
                     "  adb registration included; stop waits up to --stop-timeout (30000 ms).\n"
                     "  See docs/emulator.md.\n\n"
                     "Examples:\n"
                     "  clawperator emulator provision --headless\n"
                     "  clawperator emulator provision --headless --install-operator\n"
                     "  clawperator emulator create --name ci-35 --api 35 --target google_apis\n"
                     "  clawperator emulator start ci-35 --headless -- -memory 4096\n"
                     "  clawperator emulator status\n"
                     "  clawperator emulator stop ci-35\n"
                     "  clawperator emulator delete ci-35");
  commands.push_back(
      Command{command.app(),
              [flags](const GlobalOptions& options) { return run_emulator(*flags, options); },
              std::vector<std::string>{"--name", "--force", "--stop-timeout", "--api", "--target",
                                       "--abi", "--profile", "--headless", "--wipe",
                                       "--keep-animations", "--boot-timeout", "--install-operator"},
              /*takes_timeout=*/false, nullptr,
              [flags](std::vector<std::string> rest) { flags->emulator_args = std::move(rest); }});

  // The original's `provision emulator`: the same as `emulator provision`.
  auto provision_flags = std::make_shared<EmulatorFlags>();
  auto provision_what = std::make_shared<std::string>();
  CommandLine provision = root.add_subcommand(
      "provision", "A booted emulator for CI: `provision emulator` is `emulator provision`");
  provision.group("Emulators");
  provision.add_option("what", *provision_what, "emulator");
  add_image_flags(provision, *provision_flags);
  add_start_flags(provision, *provision_flags);
  add_install_operator_flag(provision, *provision_flags);
  set_command_footer(provision,
                     "Notes:\n"
                     "  The same as `clawperator emulator provision`. See docs/emulator.md.\n\n"
                     "Examples:\n"
                     "  clawperator provision emulator --headless");
  commands.push_back(Command{
      provision.app(),
      [provision_flags, provision_what](const GlobalOptions& options) {
        if (*provision_what != "emulator") {
          return usage_failure("provision emulator", provision_what->empty()
                                                         ? Json::object()
                                                         : Json{{"argument", *provision_what}});
        }
        EmulatorFlags as_emulator = *provision_flags;
        as_emulator.action = "provision";
        return run_emulator(as_emulator, options);
      },
      std::vector<std::string>{"--api", "--target", "--abi", "--profile", "--headless", "--wipe",
                               "--keep-animations", "--boot-timeout", "--install-operator"},
      /*takes_timeout=*/false, nullptr,
      [provision_flags](std::vector<std::string> rest) {
        provision_flags->emulator_args = std::move(rest);
      }});
}

}  // namespace clawperator::cli
