#include "vdevice/android/system/log_noise.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "vdevice/android/system/android_ids.hpp"

namespace clawperator::vdevice::android {
namespace {

// The apps behind the noise. Their uids stay below 10100, where the scenario's own packages
// start, so that no noise line can pass for the Operator's — except Play services', whose
// uid its chatty line spells out.
constexpr int kMediaProviderUid = 10058;
constexpr int kMapsUid = 10068;
constexpr int kCrashingAppUid = 10079;
constexpr int kHelperAppUid = 10087;  // also writes the foreignResults lines
constexpr int kPlayServicesUid = 10121;

struct NoiseSource {
  int uid;  // the process's: logd records it per writer, whatever the tag
  int pid;
  char level;
  const char* tag;
  const char* message;  // "%n" is replaced by a running number
};

constexpr std::array<NoiseSource, 16> kSources = {{
    {kSystemUid, 612, 'I', "ActivityManager",
     "Start proc %n:com.google.android.gms.persistent/u0a121"},
    {kSystemUid, 612, 'D', "ConnectivityService",
     "NetworkAgentInfo [WIFI () - 100] validation passed"},
    {kSystemUid, 612, 'I', "BatteryStatsService",
     "In wakeup_callback: resumed from suspend (%n ms)"},
    {kSystemUid, 431, 'W', "SurfaceFlinger",
     "Duplicate layer name: changing com.android.launcher3#%n"},
    {kWifiUid, 1204, 'D', "WifiNl80211Manager", "Scan result ready event"},
    {kWifiUid, 1204, 'I', "wpa_supplicant", "wlan0: CTRL-EVENT-SIGNAL-CHANGE above=1 signal=-52"},
    {kMediaProviderUid, 2211, 'I', "MediaProvider",
     "Scanned /storage/emulated/0/Music/Beyonc\u00e9 \u2013 %n.mp3"},
    // logd writes a chatty line with the uid (and pid) of the app it is about.
    {kPlayServicesUid, 1830, 'D', "chatty", "uid=10121(com.google.android.gms) identical %n lines"},
    {kSystemUid, 612, 'W', "ActivityTaskManager",
     "[TaskScope] is not a marker: task %n moved to back"},
    {kMapsUid, 3120, 'I', "GmsClient", "Result: ok (%n ms) \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"},
    {kSystemUid, 612, 'V', "WindowManager", "Relayout Window{%n u0 StatusBar}: viewVisibility=0"},
    {kCrashingAppUid, 2870, 'E', "AndroidRuntime",
     "Unexpected value: {\"commandId\":null} ignored (%n)"},
    {kSystemUid, 612, 'I', "PowerManagerService",
     "Going to sleep due to timeout (uid %n)... cancelled"},
    {kBluetoothUid, 1450, 'D', "BluetoothAdapter", "isLeEnabled(): ON"},
    {kSystemUid, 612, 'I', "NotificationService",
     "Cannot find enqueued record for key: 0|android|%n"},
    {kHelperAppUid, 2011, 'I', "ClawperatorHelper",
     "Payload text mentions [Clawperator-Result-Chunk] %n"},
}};

std::string expand(const char* pattern, std::uint64_t number) {
  std::string out(pattern);
  const std::size_t at = out.find("%n");
  if (at != std::string::npos) out.replace(at, 2, std::to_string(number));
  return out;
}

}  // namespace

LogNoise::LogNoise(std::uint64_t seed, bool foreign_results)
    : random_(seed ^ 0x5DEECE66DULL), foreign_results_(foreign_results) {}

NoiseLine LogNoise::next() {
  ++counter_;
  if (foreign_results_ && counter_ % 7 == 0) {
    // Another command's result: a reader must ignore it.
    const std::string id = "other-" + std::to_string(counter_);
    return {kHelperAppUid,
            2011,
            2034,
            'I',
            "ClawperatorResult",
            "[Clawperator-Result] {\"commandId\":\"" + id + "\",\"taskId\":\"" + id +
                "\",\"status\":\"success\",\"stepResults\":[],\"error\":null}"};
  }
  std::uniform_int_distribution<std::size_t> pick(0, kSources.size() - 1);
  const NoiseSource& source = kSources[pick(random_)];
  std::uniform_int_distribution<int> thread(0, 40);
  return {source.uid,   source.pid, source.pid + thread(random_),
          source.level, source.tag, expand(source.message, counter_)};
}

long long LogNoise::next_gap_ms(double per_second) {
  if (per_second <= 0) return -1;
  std::exponential_distribution<double> gap(per_second / 1000.0);
  return std::clamp<long long>(std::llround(gap(random_)), 1, 3600000);
}

}  // namespace clawperator::vdevice::android
