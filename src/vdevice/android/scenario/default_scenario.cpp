// The built-in scenario, kept as scenario-file text so that it documents the format and
// goes through exactly the loader users' files go through.
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "vdevice/android/scenario/scenario.hpp"

namespace clawperator::vdevice::android {
namespace {

constexpr const char* kDefaultScenario = R"json({
  "name": "default",
  "description": "A phone with a launcher, Settings, a browser and the Clawperator Operator.",
  "seed": 1,
  "properties": {
    "ro.product.model": "Virtual Pixel",
    "ro.product.name": "vpixel",
    "ro.product.device": "vpixel",
    "ro.product.brand": "clawperator",
    "ro.product.manufacturer": "Clawperator",
    "ro.product.cpu.abi": "x86_64",
    "ro.hardware": "vdevice",
    "ro.build.version.release": "14",
    "ro.build.version.sdk": "34",
    "ro.build.id": "UQ1A.240205.004",
    "ro.build.display.id": "UQ1A.240205.004",
    "ro.build.type": "user",
    "ro.build.tags": "release-keys",
    "ro.build.fingerprint":
      "clawperator/vpixel/vpixel:14/UQ1A.240205.004/11269751:user/release-keys",
    "ro.serialno": "VDEVICE0001",
    "ro.boot.serialno": "VDEVICE0001",
    "ro.debuggable": "0",
    "ro.secure": "1",
    "sys.boot_completed": "1",
    "persist.sys.timezone": "UTC",
    "persist.sys.locale": "en-US"
  },
  "display": { "width": 1080, "height": 2400, "density": 420 },
  "device": { "screenOn": true, "locked": false, "userUnlocked": true, "secureLock": true },
  "accessibilityService": true,
  "settings": {
    "global": {
      "adb_enabled": "1",
      "development_settings_enabled": "1",
      "airplane_mode_on": "0",
      "stay_on_while_plugged_in": "0",
      "device_name": "Virtual Pixel"
    },
    "secure": { "android_id": "5c1d0a7f3e9b2d41", "default_input_method":
      "com.android.inputmethod.latin/.LatinIME" },
    "system": { "screen_off_timeout": "60000", "screen_brightness": "128", "font_scale": "1.0" }
  },
  "packages": [
    { "name": "android", "label": "Android System", "system": true, "versionName": "14",
      "versionCode": 34 },
    { "name": "com.android.shell", "label": "Shell", "system": true, "versionName": "14",
      "versionCode": 34 },
    { "name": "com.android.providers.settings", "label": "Settings Storage", "system": true,
      "versionName": "14", "versionCode": 34 },
    { "name": "com.android.inputmethod.latin", "label": "Android Keyboard (AOSP)",
      "system": true, "versionName": "14", "versionCode": 34 },
    { "name": "com.android.systemui", "label": "System UI", "system": true,
      "versionName": "14", "versionCode": 34 },
    { "name": "com.android.launcher3", "label": "Launcher", "system": true,
      "versionName": "14", "versionCode": 34, "launchScreen": "launcher.home",
      "launchActivity": "com.android.launcher3/.uioverrides.QuickstepLauncher" },
    { "name": "com.android.settings", "label": "Settings", "system": true,
      "versionName": "14", "versionCode": 34, "launchScreen": "settings.main",
      "launchActivity": "com.android.settings/.Settings" },
    { "name": "com.android.chrome", "label": "Chrome", "system": true,
      "versionName": "121.0.6167.101", "versionCode": 616710133,
      "launchScreen": "browser.page",
      "launchActivity": "com.android.chrome/com.google.android.apps.chrome.Main",
      "uriPrefixes": ["http://", "https://"], "uriScreen": "browser.page" },
    { "name": "com.clawperator.operator", "label": "Clawperator Operator",
      "versionName": "0.5.3", "versionCode": 503, "launchScreen": "operator.main",
      "launchActivity": "com.clawperator.operator/clawperator.activity.MainActivity",
      "permissions": ["android.permission.POST_NOTIFICATIONS"] }
  ],
  "homeScreen": "launcher.home",
  "lockScreen": "systemui.keyguard",
  "recentsScreen": "systemui.recents",
  "screens": [
    { "id": "launcher.home", "package": "com.android.launcher3", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "resourceId": "com.android.launcher3:id/clock",
          "text": "12:00", "size": 300 },
        { "class": "android.view.ViewGroup", "resourceId": "com.android.launcher3:id/workspace",
          "appIcons": true },
        { "class": "android.widget.FrameLayout",
          "resourceId": "com.android.launcher3:id/search_container_hotseat",
          "contentDesc": "Search", "clickable": true, "size": 180 }
      ] } },

    { "id": "systemui.keyguard", "package": "com.android.systemui", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView",
          "resourceId": "com.android.systemui:id/keyguard_clock", "text": "12:00" },
        { "class": "android.widget.TextView",
          "resourceId": "com.android.systemui:id/keyguard_indication_text",
          "text": "Swipe up to unlock" },
        { "class": "android.widget.ImageView", "resourceId": "com.android.systemui:id/lock_icon",
          "contentDesc": "Unlock", "clickable": true, "size": 200 }
      ] } },

    { "id": "systemui.recents", "package": "com.android.systemui", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "text": "No recent items" },
        { "class": "android.widget.Button", "resourceId": "com.android.systemui:id/clear_all",
          "text": "Clear all", "clickable": true, "navigateTo": "@back", "size": 160 }
      ] } },

    { "id": "operator.main", "package": "com.clawperator.operator", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "resourceId": "com.clawperator.operator:id/title",
          "text": "Clawperator Operator", "size": 240 },
        { "class": "android.widget.TextView", "resourceId": "com.clawperator.operator:id/status",
          "text": "Ready for commands" }
      ] } },

    { "id": "browser.page", "package": "com.android.chrome", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.EditText", "resourceId": "com.android.chrome:id/url_bar",
          "text": "chrome://newtab", "textFromUri": true, "size": 180 },
        { "class": "android.webkit.WebView", "resourceId": "com.android.chrome:id/content",
          "scrollable": true, "children": [
          { "class": "android.widget.TextView", "text": "Example Domain", "size": 200 },
          { "class": "android.widget.TextView",
            "text": "This domain is for use in illustrative examples in documents." },
          { "class": "android.widget.TextView", "text": "More information...",
            "clickable": true, "size": 160 }
        ] }
      ] } },

    { "id": "settings.main", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView",
          "resourceId": "com.android.settings:id/homepage_title", "text": "Settings",
          "size": 300 },
        { "class": "android.widget.LinearLayout",
          "resourceId": "com.android.settings:id/search_action_bar",
          "contentDesc": "Search settings", "clickable": true, "size": 170,
          "navigateTo": "settings.search", "children": [
          { "class": "android.widget.TextView", "text": "Search settings" }
        ] },
        { "class": "androidx.recyclerview.widget.RecyclerView",
          "resourceId": "com.android.settings:id/recycler_view", "scrollable": true,
          "children": [
          { "class": "android.widget.LinearLayout", "clickable": true,
            "navigateTo": "settings.network", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Network & internet" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Mobile, Wi\u2011Fi, hotspot" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Connected devices" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Bluetooth, pairing" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Apps" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Assistant, recent apps, default apps" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Notifications" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Notification history, conversations" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Battery" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "100%" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Storage" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "34% used - 42.10 GB free" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Sound & vibration" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Volume, haptics, Do Not Disturb" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true,
            "navigateTo": "settings.display", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Display" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Dark theme, font size, brightness" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Wallpaper & style" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Colors, themed icons, app grid" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Accessibility" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Display, interaction, audio" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Security & privacy" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "App security, device lock, permissions" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Location" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "On - 3 apps have access to location" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "navigateTo": "settings.accounts", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Passwords & accounts" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Saved passwords, autofill, synced accounts" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "System" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Languages, gestures, time, backup" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "navigateTo": "settings.about", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "About phone" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "{{prop:ro.product.model}}" } ] }
        ] }
      ] } },

    { "id": "settings.search", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.EditText", "resourceId": "android:id/search_src_text",
          "contentDesc": "Search settings", "focused": true, "size": 180 },
        { "class": "android.widget.TextView",
          "resourceId": "com.android.settings:id/empty_view", "text": "No results" }
      ] } },

    { "id": "settings.network", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.LinearLayout", "resourceId": "com.android.settings:id/toolbar",
          "horizontal": true, "size": 220, "children": [
          { "class": "android.widget.ImageButton", "contentDesc": "Navigate up",
            "clickable": true, "navigateTo": "@back", "size": 160 },
          { "class": "android.widget.TextView", "text": "Network & internet" }
        ] },
        { "class": "android.widget.EditText", "resourceId": "android:id/search_src_text",
          "contentDesc": "Search network settings", "size": 170 },
        { "class": "androidx.recyclerview.widget.RecyclerView",
          "resourceId": "com.android.settings:id/recycler_view", "scrollable": true,
          "children": [
          { "class": "android.widget.LinearLayout", "clickable": true,
            "navigateTo": "settings.internet", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Internet" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "VirtualWifi" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Calls & SMS" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "SIMs" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "horizontal": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Airplane mode" },
            { "class": "android.widget.Switch", "resourceId": "android:id/switch_widget",
              "checkable": true, "size": 200 } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Hotspot & tethering" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Data Saver" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "VPN" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Private DNS" } ] }
        ] }
      ] } },

    { "id": "settings.internet", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "text": "Internet", "size": 220 },
        { "class": "android.widget.LinearLayout", "clickable": true, "horizontal": true,
          "size": 180, "children": [
          { "class": "android.widget.TextView", "resourceId": "android:id/title",
            "text": "Wi\u2011Fi" },
          { "class": "android.widget.Switch", "resourceId": "android:id/switch_widget",
            "checkable": true, "checked": true, "size": 200 } ] },
        { "class": "androidx.recyclerview.widget.RecyclerView",
          "resourceId": "com.android.settings:id/recycler_view", "scrollable": true,
          "children": [
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "VirtualWifi" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Connected" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Clawperator Lab" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Caf\u00e9 \u00dcn\u00efcode \u2615" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "GuestNet" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "offscreen": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "\"Quotes\" & <Brackets>" } ] }
        ] }
      ] } },

    { "id": "settings.display", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "text": "Display", "size": 220 },
        { "class": "androidx.recyclerview.widget.RecyclerView",
          "resourceId": "com.android.settings:id/recycler_view", "scrollable": true,
          "children": [
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Brightness level" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "62%" } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "horizontal": true,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Dark theme" },
            { "class": "android.widget.Switch", "resourceId": "android:id/switch_widget",
              "checkable": true, "size": 200 } ] },
          { "class": "android.widget.LinearLayout", "clickable": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Screen timeout" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "After 1 minute of inactivity" } ] },
          { "class": "android.widget.LinearLayout", "clickable": false, "enabled": false,
            "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Screen saver", "enabled": false },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Off", "enabled": false } ] }
        ] }
      ] } },

    { "id": "settings.accounts", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "text": "Passwords & accounts", "size": 220 },
        { "class": "android.widget.LinearLayout", "clickable": true, "size": 200,
          "children": [
          { "class": "android.widget.TextView", "resourceId": "android:id/title",
            "text": "Autofill service" },
          { "class": "android.widget.TextView", "resourceId": "android:id/summary",
            "text": "None" } ] },
        { "class": "android.widget.Button", "resourceId": "com.android.settings:id/add_account",
          "text": "Add account", "clickable": true, "size": 200,
          "navigateTo": "settings.signin" },
        { "class": "android.view.View" }
      ] } },

    { "id": "settings.signin", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "text": "Sign in", "size": 260 },
        { "class": "android.widget.EditText", "resourceId": "com.android.settings:id/username",
          "contentDesc": "Username", "size": 180 },
        { "class": "android.widget.EditText", "resourceId": "com.android.settings:id/password",
          "contentDesc": "Password", "password": true, "size": 180,
          "navigateOnSubmit": "settings.signed_in" },
        { "class": "android.widget.Button", "resourceId": "com.android.settings:id/sign_in",
          "text": "Sign in", "clickable": true, "size": 180,
          "requiresText": ["com.android.settings:id/username",
                           "com.android.settings:id/password"],
          "navigateTo": "settings.signed_in",
          "otherwiseNavigateTo": "settings.signin_error" },
        { "class": "android.view.View" }
      ] } },

    { "id": "settings.signin_error", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "text": "Sign in", "size": 260 },
        { "class": "android.widget.EditText", "resourceId": "com.android.settings:id/username",
          "contentDesc": "Username", "size": 180 },
        { "class": "android.widget.EditText", "resourceId": "com.android.settings:id/password",
          "contentDesc": "Password", "password": true, "size": 180,
          "navigateOnSubmit": "settings.signed_in" },
        { "class": "android.widget.TextView", "resourceId": "com.android.settings:id/error",
          "text": "Enter your username and password", "size": 120 },
        { "class": "android.widget.Button", "resourceId": "com.android.settings:id/sign_in",
          "text": "Sign in", "clickable": true, "size": 180,
          "requiresText": ["com.android.settings:id/username",
                           "com.android.settings:id/password"],
          "navigateTo": "settings.signed_in",
          "otherwiseNavigateTo": "settings.signin_error" },
        { "class": "android.view.View" }
      ] } },

    { "id": "settings.signed_in", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "resourceId": "com.android.settings:id/welcome",
          "text": "Account added", "size": 260, "appearsAfterMs": 400 },
        { "class": "android.widget.Button", "resourceId": "com.android.settings:id/done",
          "text": "Done", "clickable": true, "size": 180, "navigateTo": "settings.accounts",
          "appearsAfterMs": 400 },
        { "class": "android.view.View" }
      ] } },

    { "id": "settings.about", "package": "com.android.settings", "root":
      { "class": "android.widget.FrameLayout", "children": [
        { "class": "android.widget.TextView", "text": "About phone", "size": 220 },
        { "class": "androidx.recyclerview.widget.RecyclerView",
          "resourceId": "com.android.settings:id/recycler_view", "scrollable": true,
          "children": [
          { "class": "android.widget.LinearLayout", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Device name" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "{{prop:ro.product.model}}" } ] },
          { "class": "android.widget.LinearLayout", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Phone number" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "Unknown" } ] },
          { "class": "android.widget.LinearLayout", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Model" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "{{prop:ro.product.model}}" } ] },
          { "class": "android.widget.LinearLayout", "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Android version" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "{{prop:ro.build.version.release}}" } ] },
          { "class": "android.widget.LinearLayout", "offscreen": true, "children": [
            { "class": "android.widget.TextView", "resourceId": "android:id/title",
              "text": "Build number" },
            { "class": "android.widget.TextView", "resourceId": "android:id/summary",
              "text": "{{prop:ro.build.display.id}}" } ] }
        ] }
      ] } }
  ]
})json";

// What "minimal" keeps of the default: the system, the launcher and the Operator.
const std::set<std::string> kMinimalPackages = {"android", "com.android.shell",
                                                "com.android.systemui", "com.android.launcher3",
                                                "com.clawperator.operator"};

}  // namespace

const std::string& default_scenario_json() {
  static const std::string text = kDefaultScenario;
  return text;
}

const std::string& minimal_scenario_json() {
  static const std::string text = [] {
    auto document = nlohmann::ordered_json::parse(kDefaultScenario, nullptr, false);
    if (document.is_discarded()) return std::string(kDefaultScenario);
    document["name"] = "minimal";
    document["description"] = "The default scenario's system, launcher and Operator only.";
    auto keep = [](const nlohmann::ordered_json& entry, const char* key) {
      return kMinimalPackages.count(entry.value(key, "")) != 0;
    };
    auto packages = nlohmann::ordered_json::array();
    for (const auto& entry : document["packages"]) {
      if (keep(entry, "name")) packages.push_back(entry);
    }
    auto screens = nlohmann::ordered_json::array();
    for (const auto& entry : document["screens"]) {
      if (keep(entry, "package")) screens.push_back(entry);
    }
    document["packages"] = std::move(packages);
    document["screens"] = std::move(screens);
    return document.dump(2);
  }();
  return text;
}

}  // namespace clawperator::vdevice::android
