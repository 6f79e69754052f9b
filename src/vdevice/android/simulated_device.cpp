#include "vdevice/android/simulated_device.hpp"

#include <exception>
#include <string>
#include <utility>

#include "vdevice/android/shell/shell_session.hpp"
#include "vdevice/android/system/android_system.hpp"
#include "vdevice/android/system/sync_service.hpp"
#include "vdevice/banner.hpp"

namespace clawperator::vdevice::android {
namespace {

// A session for a stream the device could not start: it has already ended.
class EndedSession : public ServiceSession {};

class SimulatedDevice : public Device {
 public:
  explicit SimulatedDevice(std::shared_ptr<AndroidSystem> system) : system_(std::move(system)) {}

  std::string banner() const override {
    auto property = [this](const char* key) { return system_->property(key).value_or(""); };
    return device_banner(property("ro.product.name"), property("ro.product.model"),
                         property("ro.product.device"));
  }

  ConnectionMode connection_mode() const override {
    const FaultSpec& faults = system_->scenario().faults;
    if (faults.unauthorized) return ConnectionMode::Unauthorized;
    if (faults.offline) return ConnectionMode::Offline;
    return ConnectionMode::Normal;
  }

  void attach_transport(TransportControl* control) override { system_->attach_transport(control); }

  std::unique_ptr<ServiceSession> open_shell(const std::string& command,
                                             ServiceOutput& out) override {
    return open(command, out);
  }

  // adbd runs `exec:` through sh -c as well, only without a pty or exit status.
  std::unique_ptr<ServiceSession> open_exec(const std::string& command,
                                            ServiceOutput& out) override {
    return open(command, out);
  }

  std::unique_ptr<ServiceSession> open_sync(ServiceOutput& out) override {
    return start_sync_session(system_, out);
  }

  std::unique_ptr<ServiceSession> open_local_abstract(const std::string& name,
                                                      ServiceOutput& out) override {
    return system_->sockets().connect(name, out);
  }

  std::optional<std::size_t> max_payload() const override {
    const std::size_t limit = system_->scenario().max_payload;
    return limit == 0 ? std::nullopt : std::optional<std::size_t>(limit);
  }

  void tick(std::chrono::steady_clock::time_point now) override {
    try {
      system_->tick(now);
    } catch (const std::exception&) {
      // A failing timer must not take the transport's loop down; the next tick goes on.
    }
  }

  std::optional<std::chrono::steady_clock::time_point> next_deadline() const override {
    return system_->next_deadline();
  }

  void add_watched_fds(std::vector<int>& fds) const override {
    system_->webviews().add_watched_fds(fds);
  }

 private:
  std::unique_ptr<ServiceSession> open(const std::string& command, ServiceOutput& out) {
    try {
      return start_shell_session(system_, command, out);
    } catch (const std::exception&) {
      out.exit(255);
      return std::make_unique<EndedSession>();
    }
  }

  std::shared_ptr<AndroidSystem> system_;
};

}  // namespace

std::unique_ptr<Device> make_simulated_device(const Scenario& scenario) {
  return make_simulated_device(scenario, DeviceOptions{});
}

std::unique_ptr<Device> make_simulated_device(const Scenario& scenario,
                                              const DeviceOptions& options) {
  DeviceClock clock;
  clock.start = options.start.value_or(std::chrono::steady_clock::now());
  clock.wall_start = options.wall_clock_at_start.value_or(std::chrono::system_clock::now());
  auto system = std::make_shared<AndroidSystem>(scenario, clock);
  if (options.boot) {
    static constexpr const char* kBootProperties[] = {"sys.boot_completed", "dev.bootcomplete"};
    for (const char* key : kBootProperties) system->properties().erase(key);
    if (!options.boot->never) {
      // The queue belongs to the system: the event cannot outlive what it captures.
      AndroidSystem* booting = system.get();
      system->events().at(clock.start + options.boot->delay, [booting] {
        for (const char* key : kBootProperties) booting->properties()[key] = "1";
      });
    }
  }
  return std::make_unique<SimulatedDevice>(std::move(system));
}

}  // namespace clawperator::vdevice::android
