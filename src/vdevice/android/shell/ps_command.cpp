// toybox's ps, as far as the host uses it: `ps -A -o PID,NAME` to learn which app a WebView's
// DevTools socket (@webview_devtools_remote_<pid>) belongs to.
#include <string>

#include "vdevice/android/shell/shell_command.hpp"

namespace clawperator::vdevice::android {

CommandResult run_ps(CommandContext& context) {
  const auto& argv = context.argv;
  // Without -o: the columns of toybox's default that the device knows.
  std::string fields = "PID,PPID,NAME";
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg == "-A" || arg == "-e") continue;
    if (arg == "-o" && i + 1 < argv.size()) {
      fields = argv[++i];
      continue;
    }
    if (arg.starts_with("-o") && arg.size() > 2) {
      fields = arg.substr(2);
      continue;
    }
    return fail(context, "ps: Unknown option '" + arg + "' (see \"ps --help\")", 1);
  }
  std::string bad_field;
  const auto table = render_ps(context.system.running_processes(), fields, bad_field);
  if (!table) return fail(context, "ps: bad -o " + bad_field, 1);
  context.output.out(*table);
  return {0, nullptr};
}

}  // namespace clawperator::vdevice::android
