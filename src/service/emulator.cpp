#include "clawperator/service/emulator.hpp"

#include <thread>

#include "clawperator/doctor/doctor.hpp"
#include "clawperator/operator_app/components.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::service {
namespace {

using Clock = std::chrono::steady_clock;

// How often doctor is asked again while the Operator comes up.
constexpr std::chrono::milliseconds kReadyPollInterval{1000};

// The critical checks that do not pass, for the failure's details.
Json failing_checks(const doctor::Report& report) {
  Json checks = Json::array();
  for (const doctor::Check& check : report.checks) {
    if (check.status == doctor::Status::Fail && doctor::is_critical(check.id)) {
      checks.push_back(Json{{"id", check.id}, {"code", check.code}, {"summary", check.summary}});
    }
  }
  for (const doctor::SkippedCheck& skipped : report.skipped) {
    if (doctor::is_critical(skipped.id))
      checks.push_back(Json{{"id", skipped.id}, {"skipped", true}});
  }
  return checks;
}

}  // namespace

contract::Outcome<Json> provision_with_operator(
    const emulator::EmulatorRequest& request, const OperatorOnEmulator& with_operator,
    process::Runner& runner, adb::AdbClient& adb,
    const std::optional<std::filesystem::path>& log_directory) {
  CLAWPERATOR_TRY_ASSIGN(auto document, emulator::run_request(request, runner, adb, log_directory));
  const std::string serial = document.at("serial").get<std::string>();

  operator_app::InstallRequest install = with_operator.install;
  install.setup.device = serial;
  install.download_only = false;
  auto installed = operator_app::run_operator_install(install, runner);
  if (!installed) {
    contract::HostError error = std::move(installed).error();
    error.top_level["emulator"] = document;
    return contract::failed(std::move(error));
  }
  Json operator_document = std::move(*installed);
  operator_document.erase("ok");
  operator_document.erase("disposition");
  document["operator"] = std::move(operator_document);

  doctor::DoctorOptions options;
  options.device = serial;
  options.operator_package = std::string(operator_app::kReleasePackage);
  options.adb = adb.settings();
  options.log_dir = with_operator.log_dir;
  const auto start = Clock::now();
  const auto deadline = start + with_operator.ready_timeout;
  for (;;) {
    const doctor::Report report = doctor::run_doctor(options, runner);
    if (report.signal_exit != 0 || runner.cancelled()) {
      return contract::failed(contract::interrupted_error(
          "Interrupted while waiting for the Operator to be ready", process::interrupted_signal()));
    }
    if (doctor::report_ok(report)) break;
    if (Clock::now() + kReadyPollInterval > deadline) {
      Json details = Json::object();
      details["serial"] = serial;
      details["timeoutMs"] = with_operator.ready_timeout.count();
      details["failedChecks"] = failing_checks(report);
      contract::HostError error =
          contract::readiness_error("DOCTOR_FAILED",
                                    "The Operator was installed on " + serial +
                                        " but doctor did not report it ready within " +
                                        std::to_string(with_operator.ready_timeout.count()) + " ms",
                                    details);
      error.top_level["emulator"] = document;
      return contract::failed(std::move(error));
    }
    std::this_thread::sleep_for(kReadyPollInterval);
  }
  document["ready"] = true;
  document["readyAfterMs"] =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  return document;
}

}  // namespace clawperator::service
