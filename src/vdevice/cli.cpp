#include "vdevice/cli.hpp"

#include <CLI/CLI.hpp>

#include "clawperator/path_values.hpp"

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
  clawperator-vdevice emulator --avd Pixel_7 --console-port 40000 &
  adb -s emulator-40000 emu avd name

Environment:
  ANDROID_ADB_SERVER_PORT  set for the COMMAND of with: the private adb server's port;
      read by emulator: the adb server it registers with (default 5037)
  HOME  emulator: where the console's .emulator_console_auth_token is read or created
  ANDROID_SERIAL  set for the COMMAND of with when there is one device: its serial
  CLAWPERATOR_VDEVICE_SERIALS  set for the COMMAND of with: every serial, space-separated
  CLAWPERATOR_VDEVICE_CHROMIUM  the Chromium behind the scenario's WebViews (default: chromium
      on PATH); --chromium sets it

Files:
  FILE.json  a scenario (--scenario): the screen, the Operator and the faults of one device;
      `clawperator-vdevice scenario` prints the default one (docs/vdevice-scenarios.md)

Exit status:
  0    serve, up and emulator: stopped by SIGINT or SIGTERM; emulator: the console's kill;
       scenario and make-apk: done
  1    the devices or the adb server could not be started, a port could not be listened on,
       or a file could not be written
  2    usage error
  127  with: COMMAND could not be run; otherwise with exits with COMMAND's status

See docs/vdevice.md for the simulated Operator, the scenarios and the fault switches.
)";

constexpr const char* kChromiumHelp =
    "Chromium executable behind the scenario's WebViews (default: chromium)";

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
      ->expected(0, 1)
      ->type_name(std::string(kFileValue));
  line.serve->add_option("--chromium", line.chromium, kChromiumHelp)
      ->type_name(std::string(kFileValue));

  line.with =
      app->add_subcommand("with", "Run COMMAND with virtual devices behind a private adb server");
  line.up =
      app->add_subcommand("up", "Start virtual devices behind a private adb server until Ctrl-C");
  for (CLI::App* sub : {line.with, line.up}) {
    sub->add_option("--count", line.count, "Number of devices (default 1)")
        ->check(CLI::Range(1, 16));
    sub->add_option("--scenario", line.scenarios, "Scenario file per device (JSON)")
        ->type_name(std::string(kFileValue));
    sub->add_option("--adb", line.adb, "adb executable (default: adb)")
        ->type_name(std::string(kFileValue));
    sub->add_option("--chromium", line.chromium, kChromiumHelp)->type_name(std::string(kFileValue));
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
  line.make_apk->add_option("--output", line.apk_output, "The APK file to write")
      ->required()
      ->type_name(std::string(kFileValue));

  line.emulator = app->add_subcommand(
      "emulator", "Behave as an Android emulator: console on PORT, adb on PORT+1, registered");
  line.emulator->add_option("--avd", line.avd, "The AVD's name (the console's avd name)")
      ->required();
  line.emulator
      ->add_option("--console-port", line.console_port,
                   "Console port; the adb transport listens on the next one")
      ->required()
      ->check(CLI::Range(1, 65534));
  line.emulator
      ->add_option("--boot-delay-ms", line.boot_delay_ms,
                   "Until then sys.boot_completed is empty (default 1500)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{86400000}));
  line.emulator->add_option("--scenario", line.emulator_scenarios, "Scenario file (JSON)")
      ->expected(0, 1)
      ->type_name(std::string(kFileValue));
  line.emulator->add_flag("--never-register", line.never_register,
                          "Listen, but never send host:emulator to the adb server");
  line.emulator->add_flag("--never-boot", line.never_boot, "sys.boot_completed never becomes 1");
  line.emulator->add_flag("--ignore-kill", line.ignore_kill,
                          "Answer the console's kill but keep running");
  line.emulator
      ->add_option("--adb-server-port", line.adb_server_port,
                   "The adb server to register with (default: ANDROID_ADB_SERVER_PORT, else 5037)")
      ->check(CLI::Range(1, 65535));
  return app;
}

}  // namespace clawperator::vdevice
