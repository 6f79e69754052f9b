// cat and rm (toybox's): what the host needs to read a pushed payload into a command line
// (`"$(cat FILE)"`) and to remove it afterwards, and /proc/net/unix. Messages are toybox's: "cat:
// PATH: strerror".
#include <cerrno>
#include <cstring>
#include <string>

#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {
namespace {

std::string problem(const std::string& command, const std::string& path, int error) {
  return command + ": " + path + ": " + std::strerror(error) + "\n";
}

}  // namespace

CommandResult run_cat(CommandContext& context) {
  const auto& argv = context.argv;
  if (argv.size() < 2) {
    // toybox would copy stdin; nothing the CLI runs needs that.
    return fail(context, "cat: reading stdin is not supported by the virtual device", 1);
  }
  int status = 0;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    // The kernel's view of the device's sockets, as the host reads it to find the WebViews'
    // DevTools sockets (webview_devtools.hpp).
    if (argv[i] == "/proc/net/unix") {
      context.output.out(context.system.proc_net_unix());
      continue;
    }
    const auto data = context.system.files().read(argv[i]);
    if (!data) {
      context.output.err(problem("cat", argv[i], data.error()));
      status = 1;
      continue;
    }
    context.output.out(*data);
  }
  return {status, nullptr};
}

CommandResult run_rm(CommandContext& context) {
  const auto& argv = context.argv;
  bool force = false;
  std::size_t i = 1;
  for (; i < argv.size() && argv[i].size() > 1 && argv[i][0] == '-'; ++i) {
    if (argv[i] == "--") {
      ++i;
      break;
    }
    for (const char flag : argv[i].substr(1)) {
      if (flag == 'f') {
        force = true;
      } else if (flag != 'r' && flag != 'R' && flag != 'v') {
        return fail(context, "rm: Unknown option '" + std::string(1, flag) + "'", 1);
      }
    }
  }
  if (i == argv.size() && !force) return fail(context, "rm: Need 1 argument", 1);
  int status = 0;
  for (; i < argv.size(); ++i) {
    const int error = context.system.files().remove(argv[i]);
    if (error == 0 || (force && error == ENOENT)) continue;
    context.output.err(problem("rm", argv[i], error));
    status = 1;
  }
  return {status, nullptr};
}

}  // namespace clawperator::vdevice::android
