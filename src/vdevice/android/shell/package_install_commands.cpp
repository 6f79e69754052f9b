// `pm install` and `pm uninstall` (`cmd package install|uninstall` too: adb 29 runs
// `exec:cmd package 'install' '-r' -S SIZE` and streams the APK into it, and
// `shell,v2,…:cmd package 'uninstall' 'PKG'`). Answers as PackageManagerShellCommand does:
// "Success", or "Failure [CODE: message]", on stdout, with exit status 0 or 1.
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "vdevice/android/formats/virtual_apk.hpp"
#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {
namespace {

// More than any real APK the CLI installs: beyond it the device claims to be full rather than
// hold the bytes in memory.
constexpr std::uint64_t kMaxApkBytes = std::uint64_t{256} << 20;

struct InstallRequest {
  bool replace = false;          // -r (-R refuses explicitly)
  bool allow_downgrade = false;  // -d
  std::optional<std::uint64_t> size;
  std::vector<std::string> paths;
};

struct ParseError {
  const char* type;
  std::string message;
};

// PackageManagerShellCommand's install options; those without an effect here (-t, -g, -i …)
// are accepted so that real command lines work unchanged.
std::optional<ParseError> parse_install(const std::vector<std::string>& argv,
                                        InstallRequest& request) {
  // Space-separated, with a space at both ends: " " + option + " " finds a whole option.
  static constexpr std::string_view kFlags =
      " -l -t -f -g --force-sdk --preload --instant --ephemeral --full --dont-kill --apex "
      "--enable-rollback --staged --force-queryable --restrict-permissions --wait --no-wait "
      "--bypass-low-target-sdk-block ";
  static constexpr std::string_view kWithValue =
      " -i --user -p --install-location --install-reason --originating-uri --referrer --abi "
      "--pkg --force-uuid --staged-ready-timeout ";
  const auto known = [](std::string_view list, const std::string& option) {
    return option.find(' ') == std::string::npos &&
           list.find(" " + option + " ") != std::string_view::npos;
  };
  std::size_t i = 2;
  for (; i < argv.size(); ++i) {
    const std::string& option = argv[i];
    if (option == "--") {
      ++i;
      break;
    }
    if (option.size() < 2 || option[0] != '-') break;
    if (option == "-r") {
      request.replace = true;
    } else if (option == "-R") {
      request.replace = false;
    } else if (option == "-d") {
      request.allow_downgrade = true;
    } else if (option == "-S" || known(kWithValue, option)) {
      if (i + 1 == argv.size()) {
        return ParseError{"java.lang.IllegalArgumentException",
                          "Argument expected after \"" + option + "\""};
      }
      const std::string& value = argv[++i];
      if (option != "-S") continue;
      std::int64_t size = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), size);
      if (error != std::errc() || end != value.data() + value.size()) {
        return ParseError{"java.lang.NumberFormatException", "For input string: \"" + value + "\""};
      }
      if (size <= 0)
        return ParseError{"java.lang.IllegalArgumentException", "Size must be positive"};
      request.size = static_cast<std::uint64_t>(size);
    } else if (!known(kFlags, option)) {
      return ParseError{"java.lang.IllegalArgumentException", "Unknown option " + option};
    }
  }
  request.paths.assign(argv.begin() + static_cast<std::ptrdiff_t>(std::min(i, argv.size())),
                       argv.end());
  return std::nullopt;
}

// The temporary file of the install session, as the package manager names it in messages.
std::string staged_path(std::string_view apk) {
  const auto* bytes = reinterpret_cast<const Bytef*>(apk.data());
  const unsigned long crc = crc32_z(crc32_z(0, Z_NULL, 0), bytes, apk.size());
  return "/data/app/vmdl" + std::to_string(1000000000U + crc % 1000000000U) + ".tmp/base.apk";
}

// The package manager's words for the codes a scenario's installFailure is likely to name.
std::string failure_message(const std::string& code) {
  if (code == "INSTALL_FAILED_INSUFFICIENT_STORAGE") {
    return "Requested internal only, but not enough space";
  }
  if (code == "INSTALL_FAILED_USER_RESTRICTED") return "Install canceled by user";
  if (code == "INSTALL_FAILED_NO_MATCHING_ABIS") {
    return "Failed to extract native libraries, res=-113";
  }
  if (code == "INSTALL_FAILED_OLDER_SDK") {
    return "Requires newer sdk version #35 (current version is #34)";
  }
  return "Simulated failure (scenario installFailure)";
}

std::string failure(const std::string& code) {
  return "Failure [" + code + ": " + failure_message(code) + "]";
}

// "Success", or "Failure [CODE: message]", for an APK that arrived whole.
std::string install_outcome(AndroidSystem& system, const InstallRequest& request,
                            std::string_view apk, std::uint64_t size) {
  const std::string& forced = system.scenario().install_failure;
  if (!forced.empty()) return failure(forced);
  if (size > kMaxApkBytes) return failure("INSTALL_FAILED_INSUFFICIENT_STORAGE");
  const auto manifest = read_virtual_apk(apk);
  if (!manifest) {
    const std::string path = staged_path(apk);
    if (manifest.error().problem == ApkReadErrorKind::NotAnApk) {
      return "Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse " + path +
             ": Failed to load asset path " + path + "]";
    }
    return "Failure [INSTALL_PARSE_FAILED_MANIFEST_MALFORMED: Failed parse during "
           "installPackageLI: " +
           path + ": " + manifest.error().detail +
           " (the virtual device installs virtual APKs: clawperator-vdevice make-apk)]";
  }
  const std::string& name = manifest->package;
  if (const PackageSpec* installed = system.package(name)) {
    if (installed->system) {
      return "Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Package " + name +
             " signatures do not match previously installed version; ignoring!]";
    }
    if (!request.replace) {
      return "Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install " + name +
             " without first uninstalling.]";
    }
    if (manifest->version_code < installed->version_code && !request.allow_downgrade) {
      return "Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code " +
             std::to_string(manifest->version_code) + " is older than current " +
             std::to_string(installed->version_code) + "]";
    }
  }
  system.install_package(name, manifest->version_name, manifest->version_code);
  return "Success";
}

// Reads the -S bytes from stdin as they arrive, then installs.
class StreamedInstall : public RunningCommand {
 public:
  StreamedInstall(CommandContext& context, InstallRequest request)
      : system_(context.system),
        output_(context.output),
        input_(context.input),
        finish_(context.finish),
        request_(std::move(request)),
        size_(request_.size.value_or(0)) {}

  // Takes what stdin holds; true once the command is over (status()).
  bool pull() {
    if (done_) return true;
    while (received_ < size_) {
      const std::string bytes = input_.read_input(static_cast<std::size_t>(
          std::min<std::uint64_t>(size_ - received_, std::uint64_t{1} << 20)));
      if (bytes.empty()) break;
      received_ += bytes.size();
      if (apk_.size() < kMaxApkBytes) {
        apk_.append(bytes, 0, static_cast<std::size_t>(kMaxApkBytes - apk_.size()));
      }
    }
    if (received_ < size_) {
      if (!input_.input_ended()) return false;
      output_.err("Error: failed to write; stdin ended after " + std::to_string(received_) +
                  " of " + std::to_string(size_) + " bytes\n");
      return conclude(1);
    }
    const std::string outcome = install_outcome(system_, request_, apk_, size_);
    output_.out(outcome + "\n");
    return conclude(outcome == "Success" ? 0 : 1);
  }

  int status() const noexcept { return status_; }

  void input_changed() override {
    if (!done_ && pull()) finish_(status_);
  }

  void stop() override { done_ = true; }

 private:
  bool conclude(int status) {
    status_ = status;
    done_ = true;
    std::string().swap(apk_);
    return true;
  }

  AndroidSystem& system_;
  CommandOutput& output_;
  CommandInput& input_;
  std::function<void(int)> finish_;
  InstallRequest request_;
  std::uint64_t size_;
  std::uint64_t received_ = 0;
  std::string apk_;
  int status_ = 0;
  bool done_ = false;
};

}  // namespace

CommandResult run_pm_install(CommandContext& context) {
  InstallRequest request;
  if (auto error = parse_install(context.argv, request)) {
    return java_exception(context, "install", error->type, error->message);
  }
  const bool from_stdin = request.paths.empty() || request.paths.front() == "-";
  if (!from_stdin) {
    // Nothing can be there: the virtual device has no file system (`adb push` is refused).
    return fail(context,
                "Error: Unable to open file: " + request.paths.front() +
                    "\nConsider using a file under /data/local/tmp/",
                1);
  }
  if (!request.size) {
    return fail(context, "Error: must either specify a package size or an APK file", 1);
  }
  auto install = std::make_shared<StreamedInstall>(context, std::move(request));
  if (install->pull()) return {install->status(), nullptr};
  return {0, install};
}

CommandResult run_pm_uninstall(CommandContext& context) {
  const auto& argv = context.argv;
  std::size_t i = 2;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    const std::string& option = argv[i];
    if (option == "-k") continue;
    if (option == "--user" || option == "--versionCode") {
      if (i + 1 == argv.size()) {
        return java_exception(context, "uninstall", "java.lang.IllegalArgumentException",
                              "Argument expected after \"" + option + "\"");
      }
      ++i;
      continue;
    }
    context.output.out("Error: Unknown option: " + option + "\n");
    return {1, nullptr};
  }
  if (i == argv.size()) return fail(context, "Error: package name not specified", 1);
  AndroidSystem& system = context.system;
  const PackageSpec* installed = system.package(argv[i]);
  // System apps can only be hidden per user, which the virtual device does not model.
  if (installed == nullptr || installed->system || !system.uninstall_package(argv[i])) {
    context.output.out("Failure [DELETE_FAILED_INTERNAL_ERROR]\n");
    return {1, nullptr};
  }
  context.output.out("Success\n");
  return {0, nullptr};
}

}  // namespace clawperator::vdevice::android
