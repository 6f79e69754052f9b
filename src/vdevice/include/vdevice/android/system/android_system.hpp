// The simulated phone's state and services behind the shell: properties, settings, packages,
// power, the UI, the log buffer, the Operator, the clock. One per device, shared (weakly) by
// its sessions so that a session outliving the device does nothing instead of crashing.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "vdevice/android/scenario/scenario.hpp"
#include "vdevice/android/system/abstract_sockets.hpp"
#include "vdevice/android/system/chromium_browser.hpp"
#include "vdevice/android/system/event_queue.hpp"
#include "vdevice/android/system/file_system.hpp"
#include "vdevice/android/system/log_buffer.hpp"
#include "vdevice/android/system/log_noise.hpp"
#include "vdevice/android/system/log_pruning.hpp"
#include "vdevice/android/system/process_table.hpp"
#include "vdevice/android/system/webview_devtools.hpp"
#include "vdevice/android/ui/ui_model.hpp"
#include "vdevice/device.hpp"

namespace clawperator::vdevice::android {

class OperatorRuntime;
class Recorder;
class ResultForger;
class BackgroundServices;

// A live `logcat` session, as the system sees it.
class LogReader {
 public:
  virtual ~LogReader() = default;
  virtual bool pending() const = 0;
  // Writes what is new in the buffer.
  virtual void pump() = 0;
  // logd dropped the reader (closeStreamMidEnvelope): logcat reports it and exits.
  virtual void cut() = 0;
};

struct DeviceClock {
  std::chrono::steady_clock::time_point start;
  std::chrono::system_clock::time_point wall_start;
};

class AndroidSystem {
 public:
  static constexpr int kSystemServerPid = 612;
  static constexpr int kZygotePid = 388;

  AndroidSystem(Scenario scenario, DeviceClock clock);
  ~AndroidSystem();
  AndroidSystem(const AndroidSystem&) = delete;
  AndroidSystem& operator=(const AndroidSystem&) = delete;

  const Scenario& scenario() const noexcept { return scenario_; }

  // Clock and timers.
  EventQueue& events() noexcept { return events_; }
  SteadyTime now() const noexcept { return events_.now(); }
  std::int64_t epoch_ms() const;
  void tick(SteadyTime now);
  std::optional<SteadyTime> next_deadline() const;

  // Logging (at the current time). The Operator's records may be pruned (logcat.dropRate).
  // log_line takes the uid from the pid (uid_of); log_line_as is for a writer whose uid the
  // system does not know by its pid (other apps' noise, a shell command's `log`).
  LogBuffer& log() noexcept { return log_; }
  void log_line(int pid, int tid, char level, std::string tag, std::string message);
  void log_line_as(int uid, int pid, int tid, char level, std::string tag, std::string message);
  void add_reader(std::weak_ptr<LogReader> reader);
  void end_live_readers();

  // Properties and settings.
  std::map<std::string, std::string>& properties() noexcept { return properties_; }
  std::optional<std::string> property(const std::string& key) const;
  std::optional<std::string> setting(const std::string& space, const std::string& key) const;
  void put_setting(const std::string& space, const std::string& key, const std::string& value);
  bool delete_setting(const std::string& space, const std::string& key);
  const std::map<std::string, std::string>* settings_space(const std::string& space) const;

  // Packages.
  const PackageSpec* package(const std::string& name) const;
  // What the package manager does once it accepted an APK. A new package starts with no
  // granted permission and no enabled service, as on a phone (a package the scenario declared
  // uninstalled comes back with its label, activities and screens); an update keeps both and
  // stops the running app.
  void install_package(const std::string& name, const std::string& version_name,
                       std::int64_t version_code);
  // Removes an installed package with its screens, task and permissions, and drops its
  // components from the enabled accessibility services and notification listeners, as the
  // system services do. False when it is not installed.
  bool uninstall_package(const std::string& name);
  std::set<std::string>& granted_permissions(const std::string& package);
  bool accessibility_service_running(const std::string& package) const;

  // Power and lock.
  bool screen_on() const noexcept { return screen_on_; }
  bool locked() const noexcept { return locked_; }
  bool user_unlocked() const noexcept { return user_unlocked_; }
  void wake(const std::string& reason);
  void go_to_sleep();
  // False when the keyguard is secure (needs a credential).
  bool dismiss_keyguard();

  // Apps.
  UiModel& ui() noexcept { return ui_; }
  bool start_app(const std::string& package, const std::string& caller);
  std::optional<std::string> start_uri(const std::string& uri, const std::string& caller);
  void force_stop(const std::string& package, const std::string& caller);
  OperatorRuntime& operator_runtime() noexcept { return *operator_; }
  // The scenario's forger app (idle without one); forger().forged() counts its forgeries.
  ResultForger& forger() noexcept { return *forger_; }
  // Notifications, media sessions, the on-screen log panel.
  BackgroundServices& background() noexcept { return *background_; }
  // The Operator's notification listener is enabled (enabled_notification_listeners).
  bool notification_listener_enabled(const std::string& operator_package) const;

  // The Operator's recorder (start_recording / stop_recording), told of the UI model's events.
  Recorder& recorder() noexcept { return *recorder_; }

  // Files (adb push/pull, cat, rm) and abstract sockets (adb forward).
  FileSystem& files() noexcept { return files_; }
  AbstractSockets& sockets() noexcept { return sockets_; }
  // `cat /proc/net/unix`: the sockets listening in the abstract namespace.
  std::string proc_net_unix() const;
  // What `ps -A` lists: the system's own processes and the running apps, by pid.
  std::vector<ProcessRow> running_processes() const;
  // The WebViews' DevTools sockets and the Chromium behind them.
  WebViewDevTools& webviews() noexcept { return *webviews_; }

  // Transport faults.
  void attach_transport(TransportControl* control) noexcept { transport_ = control; }
  void drop_connections();

  int next_shell_pid() noexcept { return next_shell_pid_++; }
  // The running commands `kill` can reach.
  ProcessTable& processes() noexcept { return processes_; }

 private:
  void schedule_noise();
  void boot_log();
  void log_activity_start(const std::string& activity, const std::string& caller);
  int unused_uid() const;
  // AccessibilityManagerService keeps accessibility_enabled at 1 while an enabled service of
  // an installed package is bound, and at 0 otherwise.
  void refresh_accessibility_enabled();
  // Drops the package's components from a colon-separated secure setting; true if any was.
  bool remove_components(const std::string& key, const std::string& package);
  // Writes the `chatty` line standing for the Operator's records dropped since the last one.
  void log_dropped_run();
  // Appends to the buffer, without the uid when the scenario's logd records none.
  void write_entry(std::int64_t epoch_ms, int uid, int pid, int tid, char level, std::string tag,
                   std::string message);
  // The uid of the system's own processes: system_server's (1000), the Operator's and the
  // forger's (their installed packages'); -1 for any other pid.
  int uid_of(int pid) const;
  // The installed Operator whose process logs as operator_behavior.pid: the first one.
  const PackageSpec* operator_package() const;

  Scenario scenario_;
  DeviceClock clock_;
  EventQueue events_;
  LogBuffer log_;
  LogNoise noise_;
  LogPruning pruning_;
  struct DroppedRun {
    int tid = 0;
    std::size_t count = 0;
    std::uint64_t generation = 0;
  } dropped_;
  std::vector<std::weak_ptr<LogReader>> readers_;
  std::map<std::string, std::string> properties_;
  std::map<std::string, std::map<std::string, std::string>> settings_;
  std::map<std::string, std::set<std::string>> permissions_;
  bool screen_on_;
  bool locked_;
  bool user_unlocked_;
  UiModel ui_;
  // Before the Operator: it closes its sockets when destroyed.
  FileSystem files_;
  AbstractSockets sockets_;
  std::unique_ptr<OperatorRuntime> operator_;
  std::unique_ptr<ResultForger> forger_;
  std::unique_ptr<BackgroundServices> background_;
  // After sockets_: its listeners point at it.
  std::unique_ptr<WebViewDevTools> webviews_;
  TransportControl* transport_ = nullptr;
  std::unique_ptr<Recorder> recorder_;
  int next_shell_pid_ = 4100;
  ProcessTable processes_;
  std::uint64_t installs_ = 0;
};

}  // namespace clawperator::vdevice::android
