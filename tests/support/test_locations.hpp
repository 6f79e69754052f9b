// The files a test binary runs and reads, as its CMakeLists names them with
// clawperator_test_locations() (cmake/ClawperatorTestLocations.cmake): defined in one generated
// source per test target, so that no other test file's compile holds an absolute path and a
// clone in another directory hits the same ccache entries. A name the target did not give
// fails to link, naming it.
#pragma once

namespace clawperator::testing::locations {
extern const char* const clawperator_binary;
extern const char* const clawperator_build_dir;
extern const char* const clawperator_cmake_command;
extern const char* const clawperator_docs_dir;
extern const char* const clawperator_emulator_sdk_dir;
extern const char* const clawperator_examples_dir;
extern const char* const clawperator_golden_file;
extern const char* const clawperator_junit_python;
extern const char* const clawperator_workflow_python;
extern const char* const clawperator_readme;
extern const char* const clawperator_report_scripts_dir;
extern const char* const clawperator_scenarios_dir;
extern const char* const clawperator_source_dir;
extern const char* const clawperator_tap_perl;
extern const char* const clawperator_vdevice_binary;
extern const char* const clawperator_zsh_complete_script;
extern const char* const fake_adb;
extern const char* const generate_cli_docs_binary;
extern const char* const tty_session;
}  // namespace clawperator::testing::locations

// The names the tests have always used (they were -D flags once).
#define CLAWPERATOR_BINARY ::clawperator::testing::locations::clawperator_binary
#define CLAWPERATOR_BUILD_DIR ::clawperator::testing::locations::clawperator_build_dir
#define CLAWPERATOR_CMAKE_COMMAND ::clawperator::testing::locations::clawperator_cmake_command
#define CLAWPERATOR_DOCS_DIR ::clawperator::testing::locations::clawperator_docs_dir
#define CLAWPERATOR_EMULATOR_SDK_DIR ::clawperator::testing::locations::clawperator_emulator_sdk_dir
#define CLAWPERATOR_EXAMPLES_DIR ::clawperator::testing::locations::clawperator_examples_dir
#define CLAWPERATOR_GOLDEN_FILE ::clawperator::testing::locations::clawperator_golden_file
#define CLAWPERATOR_JUNIT_PYTHON ::clawperator::testing::locations::clawperator_junit_python
#define CLAWPERATOR_WORKFLOW_PYTHON ::clawperator::testing::locations::clawperator_workflow_python
#define CLAWPERATOR_README ::clawperator::testing::locations::clawperator_readme
#define CLAWPERATOR_REPORT_SCRIPTS_DIR \
  ::clawperator::testing::locations::clawperator_report_scripts_dir
#define CLAWPERATOR_SCENARIOS_DIR ::clawperator::testing::locations::clawperator_scenarios_dir
#define CLAWPERATOR_SOURCE_DIR ::clawperator::testing::locations::clawperator_source_dir
#define CLAWPERATOR_TAP_PERL ::clawperator::testing::locations::clawperator_tap_perl
#define CLAWPERATOR_VDEVICE_BINARY ::clawperator::testing::locations::clawperator_vdevice_binary
#define CLAWPERATOR_ZSH_COMPLETE_SCRIPT \
  ::clawperator::testing::locations::clawperator_zsh_complete_script
#define FAKE_ADB ::clawperator::testing::locations::fake_adb
#define GENERATE_CLI_DOCS_BINARY ::clawperator::testing::locations::generate_cli_docs_binary
#define TTY_SESSION ::clawperator::testing::locations::tty_session
