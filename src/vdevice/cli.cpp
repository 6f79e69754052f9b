#include "clawperator/vdevice/cli.hpp"

#include <CLI/CLI.hpp>

namespace clawperator::vdevice {
namespace {

// The man page's sections beyond the commands (tools/generate_cli_docs.cpp turns each
// "Heading:" block into one) and the end of --help.
constexpr const char* kFooter = R"(Examples:
  clawperator-vdevice with -- clawperator exec examples/demo-snapshot-click.json
  clawperator-vdevice with --count 2 -- sh -c 'clawperator devices'
  clawperator-vdevice with --scenario examples/scenarios/never-answer.json -- \
    clawperator exec examples/snapshot.json --timeout 1000
  clawperator-vdevice with -- clawperator serve
  clawperator-vdevice serve --port 5555 & adb connect 127.0.0.1:5555

Environment:
  ANDROID_ADB_SERVER_PORT  set for the COMMAND of with: the private adb server's port
  ANDROID_SERIAL  set for the COMMAND of with when there is one device: its serial
  CLAWPERATOR_VDEVICE_SERIALS  set for the COMMAND of with: every serial, space-separated

Files:
  FILE.json  a scenario (--scenario): the screen, the Operator and the faults of one device;
      `clawperator-vdevice scenario` prints the default one (docs/vdevice-scenarios.md)

Exit status:
  0    serve and up: stopped by SIGINT or SIGTERM; scenario and make-apk: done
  1    the devices or the adb server could not be started, or a file could not be written
  2    usage error
  127  with: COMMAND could not be run; otherwise with exits with COMMAND's status

See docs/vdevice.md for the simulated Operator, the scenarios and the fault switches.
)";

}  // namespace

std::unique_ptr<CLI::App> build_vdevice_cli(VdeviceCommandLine& line) {
  auto app = std::make_unique<CLI::App>(
      "An Android phone the real adb can connect to, with a simulated Operator.",
      "clawperator-vdevice");
  app->require_subcommand(1);
  app->footer(kFooter);

  line.serve = app->add_subcommand("serve", "Serve one device on 127.0.0.1:PORT");
  line.serve->add_option("--port", line.port, "TCP port (default: any free one)");
  line.serve->add_option("--scenario", line.serve_scenarios, "Scenario file (JSON)")
      ->expected(0, 1);

  line.with =
      app->add_subcommand("with", "Run COMMAND with virtual devices behind a private adb server");
  line.up =
      app->add_subcommand("up", "Start virtual devices behind a private adb server until Ctrl-C");
  for (CLI::App* sub : {line.with, line.up}) {
    sub->add_option("--count", line.count, "Number of devices (default 1)")
        ->check(CLI::Range(1, 16));
    sub->add_option("--scenario", line.scenarios, "Scenario file per device (JSON)");
    sub->add_option("--adb", line.adb, "adb executable (default: adb)");
  }
  line.with->add_option("command", line.command, "The command to run")->required();
  app->add_subcommand("scenario", "Print the built-in default scenario");

  line.make_apk = app->add_subcommand(
      "make-apk", "Write a virtual APK that `adb install` installs on a virtual device");
  line.make_apk->add_option("--package", line.manifest.package, "Package name")->required();
  line.make_apk->add_option("--version-name", line.manifest.version_name, "versionName")
      ->required();
  line.make_apk->add_option("--version-code", line.manifest.version_code, "versionCode")
      ->required();
  line.make_apk->add_option("--output", line.apk_output, "The APK file to write")->required();
  return app;
}

}  // namespace clawperator::vdevice
