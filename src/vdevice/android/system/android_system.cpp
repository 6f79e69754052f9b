#include "vdevice/android/system/android_system.hpp"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

#include "vdevice/android/operator/background_services.hpp"
#include "vdevice/android/operator/operator_runtime.hpp"
#include "vdevice/android/operator/recorder.hpp"
#include "vdevice/android/operator/result_forger.hpp"
#include "vdevice/android/system/android_ids.hpp"

namespace clawperator::vdevice::android {
namespace {

constexpr const char* kEnabledAccessibilityServices = "enabled_accessibility_services";
constexpr const char* kEnabledNotificationListeners = "enabled_notification_listeners";

// The entries of a colon-separated component list ("pkg/cls:pkg/cls").
std::vector<std::string> components(const std::string& list) {
  std::vector<std::string> entries;
  std::istringstream stream(list);
  std::string entry;
  while (std::getline(stream, entry, ':')) entries.push_back(entry);
  return entries;
}

std::string package_of(const std::string& component) {
  return component.substr(0, component.find('/'));
}

std::vector<PackageSpec>::iterator find_package(std::vector<PackageSpec>& packages,
                                                const std::string& name) {
  return std::find_if(packages.begin(), packages.end(),
                      [&](const PackageSpec& package) { return package.name == name; });
}

void move_screens(std::vector<ScreenSpec>& from, std::vector<ScreenSpec>& to,
                  const std::string& package) {
  for (auto screen = from.begin(); screen != from.end();) {
    if (screen->package != package) {
      ++screen;
      continue;
    }
    to.push_back(std::move(*screen));
    screen = from.erase(screen);
  }
}

}  // namespace

AndroidSystem::AndroidSystem(Scenario scenario, DeviceClock clock)
    : scenario_(std::move(scenario)),
      clock_(clock),
      events_(clock.start),
      log_(scenario_.logcat.buffer_lines),
      noise_(scenario_.seed, scenario_.logcat.foreign_results),
      pruning_(scenario_.seed, scenario_.logcat.drop_rate),
      properties_(scenario_.properties),
      settings_(scenario_.settings),
      screen_on_(scenario_.power.screen_on),
      locked_(scenario_.power.locked),
      user_unlocked_(scenario_.power.user_unlocked),
      ui_(scenario_, clock.start) {
  for (const PackageSpec& package : scenario_.packages) {
    permissions_[package.name] = package.granted_permissions;
  }
  ui_.set_keyguard(locked_);
  recorder_ = std::make_unique<Recorder>(*this);
  ui_.set_observer(recorder_.get());
  operator_ = std::make_unique<OperatorRuntime>(*this);
  forger_ = std::make_unique<ResultForger>(*this);
  background_ = std::make_unique<BackgroundServices>(scenario_.background, clock.start);
  webviews_ = std::make_unique<WebViewDevTools>(scenario_);
  webviews_->listen(sockets_);
  boot_log();
  schedule_noise();
}

// Running commands hear of it first (a screen recording finishes its file), while the files,
// the clock and the UI they use still exist.
AndroidSystem::~AndroidSystem() {
  processes_.hang_up_all();
  // Chromium goes before the rest of the device it serves.
  webviews_.reset();
}

bool AndroidSystem::notification_listener_enabled(const std::string& operator_package) const {
  const std::string listeners = setting("secure", kEnabledNotificationListeners).value_or("");
  const std::string component =
      operator_package + "/action.notification.NotificationListenerService";
  std::size_t start = 0;
  while (start <= listeners.size()) {
    std::size_t end = listeners.find(':', start);
    if (end == std::string::npos) end = listeners.size();
    if (listeners.compare(start, end - start, component) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::int64_t AndroidSystem::epoch_ms() const {
  const auto wall =
      clock_.wall_start +
      std::chrono::duration_cast<std::chrono::system_clock::duration>(events_.now() - clock_.start);
  return std::chrono::duration_cast<std::chrono::milliseconds>(wall.time_since_epoch()).count();
}

void AndroidSystem::tick(SteadyTime now) {
  events_.run_until(now);
  // Sessions may open or close while pumping: iterate over a copy.
  const auto readers = readers_;
  for (const auto& weak : readers) {
    if (auto reader = weak.lock()) reader->pump();
  }
  readers_.erase(
      std::remove_if(readers_.begin(), readers_.end(),
                     [](const std::weak_ptr<LogReader>& weak) { return weak.expired(); }),
      readers_.end());
  webviews_->tick();
}

std::optional<SteadyTime> AndroidSystem::next_deadline() const {
  for (const auto& weak : readers_) {
    if (auto reader = weak.lock(); reader && reader->pending()) return events_.now();
  }
  const auto timer = events_.next();
  const auto webviews = webviews_->next_deadline(events_.now());
  if (timer && webviews) return std::min(*timer, *webviews);
  return timer ? timer : webviews;
}

std::string AndroidSystem::proc_net_unix() const {
  return render_proc_net_unix(sockets_.rows());
}

std::vector<ProcessRow> AndroidSystem::running_processes() const {
  std::vector<ProcessRow> rows = {
      {1, 0, "init"}, {kSystemServerPid, kZygotePid, "system_server"}, {kZygotePid, 1, "zygote64"}};
  if (const PackageSpec* spec = operator_package()) {
    rows.push_back({scenario_.operator_behavior.pid, kZygotePid, spec->name});
  }
  if (!scenario_.forger.package.empty() && package(scenario_.forger.package) != nullptr) {
    rows.push_back({scenario_.forger.pid, kZygotePid, scenario_.forger.package});
  }
  for (const WebViewSpec& webview : scenario_.webviews) {
    if (package(webview.package) != nullptr) {
      rows.push_back({webview.pid, kZygotePid, webview.package});
    }
  }
  std::sort(rows.begin(), rows.end(),
            [](const ProcessRow& a, const ProcessRow& b) { return a.pid < b.pid; });
  return rows;
}

// One function derives the uid for the system's own writers rather than a uid parameter at
// every call: logd, too, takes it from the writing process, not from what the line says.
int AndroidSystem::uid_of(int pid) const {
  if (pid == kSystemServerPid) return kSystemUid;
  if (pid == scenario_.operator_behavior.pid) {
    const PackageSpec* spec = operator_package();
    return spec != nullptr ? spec->uid : -1;
  }
  if (!scenario_.forger.package.empty() && pid == scenario_.forger.pid) {
    const PackageSpec* spec = package(scenario_.forger.package);
    return spec != nullptr ? spec->uid : -1;
  }
  for (const WebViewSpec& webview : scenario_.webviews) {
    if (pid != webview.pid) continue;
    const PackageSpec* spec = package(webview.package);
    return spec != nullptr ? spec->uid : -1;
  }
  return -1;
}

const PackageSpec* AndroidSystem::operator_package() const {
  for (const PackageSpec& spec : scenario_.packages) {
    if (spec.operator_app) return &spec;
  }
  return nullptr;
}

void AndroidSystem::log_line(int pid, int tid, char level, std::string tag, std::string message) {
  log_line_as(uid_of(pid), pid, tid, level, std::move(tag), std::move(message));
}

void AndroidSystem::log_line_as(int uid, int pid, int tid, char level, std::string tag,
                                std::string message) {
  if (pid == scenario_.operator_behavior.pid) {
    if (pruning_.drop(pid)) {
      if (dropped_.count++ == 0) dropped_.tid = tid;
      // A run ends at the Operator's next kept record, or when it has been quiet a moment.
      const std::uint64_t generation = ++dropped_.generation;
      events_.after(std::chrono::milliseconds(5), [this, generation] {
        if (dropped_.generation == generation) log_dropped_run();
      });
      return;
    }
    log_dropped_run();
  }
  write_entry(epoch_ms(), uid, pid, tid, level, std::move(tag), std::move(message));
}

void AndroidSystem::write_entry(std::int64_t epoch_ms, int uid, int pid, int tid, char level,
                                std::string tag, std::string message) {
  if (!scenario_.logcat.show_uids) uid = -1;
  log_.append(epoch_ms, uid, pid, tid, level, std::move(tag), std::move(message));
}

void AndroidSystem::log_dropped_run() {
  if (dropped_.count == 0) return;
  const PackageSpec* spec = operator_package();
  const int uid = spec != nullptr ? spec->uid : 0;
  const std::string package = spec != nullptr ? spec->name : "";
  // The Operator's worker threads are Kotlin's (comm truncated to 15 characters). logd writes
  // the line as the pruned app's: its uid, pid and tid.
  const int pid = scenario_.operator_behavior.pid;
  write_entry(epoch_ms(), uid_of(pid), pid, dropped_.tid, 'I', "chatty",
              chatty_message(uid, package, "DefaultDispatch", dropped_.count));
  dropped_.count = 0;
  ++dropped_.generation;
}

void AndroidSystem::add_reader(std::weak_ptr<LogReader> reader) {
  readers_.push_back(std::move(reader));
}

void AndroidSystem::end_live_readers() {
  const auto readers = readers_;
  for (const auto& weak : readers) {
    if (auto reader = weak.lock()) {
      reader->pump();
      reader->cut();
    }
  }
}

void AndroidSystem::schedule_noise() {
  const long long gap = noise_.next_gap_ms(scenario_.logcat.noise_lines_per_second);
  if (gap < 0) return;
  events_.after(std::chrono::milliseconds(gap), [this] {
    NoiseLine line = noise_.next();
    log_line_as(line.uid, line.pid, line.tid, line.level, std::move(line.tag),
                std::move(line.message));
    schedule_noise();
  });
}

void AndroidSystem::boot_log() {
  const std::size_t count = scenario_.logcat.initial_lines;
  const std::int64_t now = epoch_ms();
  for (std::size_t i = 0; i < count; ++i) {
    const std::int64_t when = now - static_cast<std::int64_t>(count - i) * 211;
    if (i + 1 == count) {
      write_entry(when, kSystemUid, kSystemServerPid, kSystemServerPid + 27, 'I', "ActivityManager",
                  "System now ready");
      continue;
    }
    NoiseLine line = noise_.next();
    write_entry(when, line.uid, line.pid, line.tid, line.level, std::move(line.tag),
                std::move(line.message));
  }
}

std::optional<std::string> AndroidSystem::property(const std::string& key) const {
  const auto it = properties_.find(key);
  if (it == properties_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> AndroidSystem::setting(const std::string& space,
                                                  const std::string& key) const {
  const auto* values = settings_space(space);
  if (values == nullptr) return std::nullopt;
  const auto it = values->find(key);
  if (it == values->end()) return std::nullopt;
  return it->second;
}

void AndroidSystem::put_setting(const std::string& space, const std::string& key,
                                const std::string& value) {
  settings_[space][key] = value;
  if (space == "secure" && key == kEnabledAccessibilityServices) refresh_accessibility_enabled();
}

bool AndroidSystem::delete_setting(const std::string& space, const std::string& key) {
  const auto it = settings_.find(space);
  const bool deleted = it != settings_.end() && it->second.erase(key) > 0;
  if (deleted && space == "secure" && key == kEnabledAccessibilityServices) {
    refresh_accessibility_enabled();
  }
  return deleted;
}

const std::map<std::string, std::string>* AndroidSystem::settings_space(
    const std::string& space) const {
  static const std::map<std::string, std::string> kEmpty;
  if (space != "global" && space != "secure" && space != "system") return nullptr;
  const auto it = settings_.find(space);
  return it == settings_.end() ? &kEmpty : &it->second;
}

const PackageSpec* AndroidSystem::package(const std::string& name) const {
  return scenario_.find_package(name);
}

void AndroidSystem::install_package(const std::string& name, const std::string& version_name,
                                    std::int64_t version_code) {
  ++installs_;
  auto& packages = scenario_.packages;
  const auto installed = find_package(packages, name);
  if (installed != packages.end()) {
    force_stop(name, "installPackageLI");
    installed->version_name = version_name;
    installed->version_code = version_code;
    if (!installed->system) installed->code_path = derived_code_path(*installed, installs_);
    return;
  }

  PackageSpec spec;
  auto& dormant = scenario_.uninstalled_packages;
  const auto declared = find_package(dormant, name);
  if (declared != dormant.end()) {
    spec = std::move(*declared);
    dormant.erase(declared);
    move_screens(scenario_.uninstalled_screens, scenario_.screens, name);
  } else {
    spec.name = name;
    spec.label = name;
    spec.launch_activity = name + "/.MainActivity";
    spec.operator_app = name == kOperatorPackage || name == kOperatorDevPackage;
  }
  // Whatever the scenario declared, an APK from adb is an app of the user's.
  spec.system = false;
  spec.version_name = version_name;
  spec.version_code = version_code;
  spec.granted_permissions.clear();
  spec.uid = unused_uid();
  spec.code_path = derived_code_path(spec, installs_);
  permissions_[name].clear();
  packages.push_back(std::move(spec));
  // Its service binds now if the user had enabled it before.
  const auto enabled = components(setting("secure", kEnabledAccessibilityServices).value_or(""));
  if (std::any_of(enabled.begin(), enabled.end(),
                  [&](const std::string& component) { return package_of(component) == name; })) {
    refresh_accessibility_enabled();
  }
}

bool AndroidSystem::uninstall_package(const std::string& name) {
  auto& packages = scenario_.packages;
  const auto installed = find_package(packages, name);
  if (installed == packages.end()) return false;
  force_stop(name, "pkg removed");
  PackageSpec spec = std::move(*installed);
  packages.erase(installed);
  spec.uid = 0;
  spec.code_path.clear();
  auto& dormant = scenario_.uninstalled_packages;
  if (const auto stale = find_package(dormant, name); stale != dormant.end()) dormant.erase(stale);
  dormant.push_back(std::move(spec));
  move_screens(scenario_.screens, scenario_.uninstalled_screens, name);
  permissions_.erase(name);
  remove_components(kEnabledNotificationListeners, name);
  if (remove_components(kEnabledAccessibilityServices, name)) refresh_accessibility_enabled();
  return true;
}

int AndroidSystem::unused_uid() const {
  // Application uids start at 10000; the scenario's own start at 10100.
  int uid = 10100;
  for (const auto* list : {&scenario_.packages, &scenario_.uninstalled_packages}) {
    for (const PackageSpec& spec : *list) uid = std::max(uid, spec.uid + 1);
  }
  return uid;
}

void AndroidSystem::refresh_accessibility_enabled() {
  const auto enabled = components(setting("secure", kEnabledAccessibilityServices).value_or(""));
  const bool bound = std::any_of(enabled.begin(), enabled.end(), [this](const std::string& entry) {
    return entry.find('/') != std::string::npos && package(package_of(entry)) != nullptr;
  });
  settings_["secure"]["accessibility_enabled"] = bound ? "1" : "0";
}

bool AndroidSystem::remove_components(const std::string& key, const std::string& package) {
  const auto value = setting("secure", key);
  if (!value) return false;
  std::string kept;
  bool removed = false;
  for (const std::string& entry : components(*value)) {
    if (package_of(entry) == package) {
      removed = true;
      continue;
    }
    if (!kept.empty()) kept += ':';
    kept += entry;
  }
  if (removed) settings_["secure"][key] = kept;
  return removed;
}

std::set<std::string>& AndroidSystem::granted_permissions(const std::string& package) {
  return permissions_[package];
}

bool AndroidSystem::accessibility_service_running(const std::string& package) const {
  if (this->package(package) == nullptr) return false;
  if (setting("secure", "accessibility_enabled").value_or("1") == "0") return false;
  const std::string services = setting("secure", kEnabledAccessibilityServices).value_or("");
  const std::string component = package + "/" + kAccessibilityServiceClass;
  std::istringstream entries(services);
  std::string entry;
  while (std::getline(entries, entry, ':')) {
    if (entry == component) return true;
  }
  return false;
}

void AndroidSystem::wake(const std::string& reason) {
  if (scenario_.power.stay_asleep || screen_on_) return;
  screen_on_ = true;
  log_line(kSystemServerPid, kSystemServerPid + 31, 'I', "PowerManagerService",
           "Waking up from Asleep (uid=2000, reason=" + reason + ")...");
}

void AndroidSystem::go_to_sleep() {
  if (!screen_on_) return;
  screen_on_ = false;
  log_line(kSystemServerPid, kSystemServerPid + 31, 'I', "PowerManagerService",
           "Going to sleep due to power_button (uid 1000)...");
  // Any keyguard comes back when the screen goes off; only a secure one needs a credential.
  if (!scenario_.lock_screen.empty()) {
    locked_ = true;
    ui_.set_keyguard(true);
  }
}

bool AndroidSystem::dismiss_keyguard() {
  if (!locked_) return true;
  if (scenario_.power.secure_lock || !screen_on_) return false;
  locked_ = false;
  ui_.set_keyguard(false);
  return true;
}

void AndroidSystem::log_activity_start(const std::string& activity, const std::string& caller) {
  log_line(kSystemServerPid, kSystemServerPid + 12, 'I', "ActivityTaskManager",
           "START u0 {" + caller + " cmp=" + activity + "} from uid 2000");
  const std::string displayed = activity;
  events_.after(std::chrono::milliseconds(scenario_.operator_behavior.launch_delay_ms + 250),
                [this, displayed] {
                  log_line(kSystemServerPid, kSystemServerPid + 40, 'I', "ActivityTaskManager",
                           "Displayed " + displayed + ": +" +
                               std::to_string(scenario_.operator_behavior.launch_delay_ms + 250) +
                               "ms");
                });
}

bool AndroidSystem::start_app(const std::string& package, const std::string& caller) {
  if (!ui_.launch(package, now())) return false;
  const PackageSpec* spec = this->package(package);
  log_activity_start(spec->launch_activity,
                     caller.empty() ? "act=android.intent.action.MAIN "
                                      "cat=[android.intent.category.LAUNCHER] flg=0x10200000"
                                    : caller);
  return true;
}

std::optional<std::string> AndroidSystem::start_uri(const std::string& uri,
                                                    const std::string& caller) {
  auto handler = ui_.open_uri(uri, now());
  if (!handler) return std::nullopt;
  log_activity_start(ui_.foreground_activity(),
                     caller.empty() ? "act=android.intent.action.VIEW dat=" + uri : caller);
  return handler;
}

void AndroidSystem::force_stop(const std::string& package, const std::string& caller) {
  const PackageSpec* spec = this->package(package);
  if (spec == nullptr) return;
  ui_.force_stop(package, now());
  log_line(
      kSystemServerPid, kSystemServerPid + 12, 'I', "ActivityManager",
      "Force stopping " + package + " appid=" + std::to_string(spec->uid) + " user=0: " + caller);
}

void AndroidSystem::drop_connections() {
  if (transport_ != nullptr) transport_->drop_all_connections();
}

}  // namespace clawperator::vdevice::android
