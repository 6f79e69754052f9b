#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/adb/shell_quote.hpp"

using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;

namespace {

std::uint32_t be32(const std::string& bytes, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3]));
}

struct DecodedPng {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  int depth = 0;       // bits a pixel
  std::string pixels;  // filtered scanlines, inflated
};

std::uint32_t crc_of(const std::string& bytes) {
  return static_cast<std::uint32_t>(
      crc32_z(crc32_z(0, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

// Walks the chunks, checks every CRC and inflates the image data with zlib (which checks the
// stream's Adler-32).
DecodedPng decode_png(const std::string& png) {
  DecodedPng decoded;
  REQUIRE(png.size() > 8);
  REQUIRE(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  std::string idat;
  std::size_t at = 8;
  bool ended = false;
  while (at + 12 <= png.size()) {
    const std::uint32_t length = be32(png, at);
    const std::string type = png.substr(at + 4, 4);
    REQUIRE(at + 12 + length <= png.size());
    const std::string body = png.substr(at + 4, 4 + length);
    CHECK(be32(png, at + 8 + length) == crc_of(body));
    if (type == "IHDR") {
      decoded.width = be32(png, at + 8);
      decoded.height = be32(png, at + 12);
      decoded.depth = static_cast<unsigned char>(png[at + 16]);
    }
    if (type == "IDAT") idat += png.substr(at + 8, length);
    at += 12 + length;
    if (type == "IEND") {
      ended = true;
      break;
    }
  }
  CHECK(ended);
  CHECK(at == png.size());
  // One filter byte per row and `depth` bits per pixel.
  const std::size_t expected =
      (decoded.width * static_cast<std::uint32_t>(decoded.depth) + 7) / 8 * decoded.height +
      decoded.height;
  decoded.pixels.resize(expected + 1);
  uLongf size = decoded.pixels.size();
  REQUIRE(uncompress(reinterpret_cast<Bytef*>(decoded.pixels.data()), &size,
                     reinterpret_cast<const Bytef*>(idat.data()), idat.size()) == Z_OK);
  REQUIRE(size == expected);
  decoded.pixels.resize(size);
  return decoded;
}

}  // namespace

TEST_CASE("getprop", "[vdevice][android]") {
  Harness harness;
  CHECK(harness.shell("getprop ro.build.version.sdk").out == "34\n");
  CHECK(harness.shell("getprop ro.product.model").out == "Virtual Pixel\n");
  CHECK(harness.shell("getprop no.such.key").out == "\n");
  CHECK(harness.shell("getprop no.such.key fallback").out == "fallback\n");
  const auto all = harness.shell("getprop");
  CHECK(all.out.find("[ro.product.model]: [Virtual Pixel]\n") != std::string::npos);
  CHECK(all.out.find("[sys.boot_completed]: [1]\n") != std::string::npos);
}

TEST_CASE("pm list packages, path and grant", "[vdevice][android]") {
  Harness harness;
  const auto present = harness.shell(
      "pm list packages 'com.clawperator.operator'; echo "
      "clawperator-exit:$?");
  CHECK(present.out == "package:com.clawperator.operator\nclawperator-exit:0\n");
  CHECK(harness.shell("pm list packages com.clawperator.operator.dev").out.empty());
  CHECK(harness.shell("pm list packages -3").out == "package:com.clawperator.operator\n");
  const auto all = harness.shell("pm list packages");
  CHECK(all.out.find("package:com.android.settings\n") != std::string::npos);
  CHECK(all.out.find("package:android\n") != std::string::npos);
  CHECK(harness.shell("pm list packages -s settings").out ==
        "package:com.android.providers.settings\npackage:com.android.settings\n");
  CHECK(harness.shell("pm list packages -f -3").out.rfind("package:/data/app/~~", 0) == 0);

  const auto path = harness.shell("pm path com.clawperator.operator");
  CHECK(path.out.rfind("package:/data/app/~~", 0) == 0);
  CHECK(path.out.find("/com.clawperator.operator-") != std::string::npos);
  CHECK(harness.shell("pm path com.android.settings").out ==
        "package:/system/priv-app/Settings/Settings.apk\n");
  CHECK(harness.shell("pm path no.such").status == 1);

  CHECK(harness.shell("pm grant com.clawperator.operator android.permission.CAMERA").status == 0);
  CHECK(harness.shell("dumpsys package com.clawperator.operator")
            .out.find("android.permission.CAMERA: granted=true") != std::string::npos);
  const auto unknown_package = harness.shell("pm grant no.such android.permission.CAMERA");
  CHECK(unknown_package.status == 255);
  CHECK(unknown_package.err.find("Unknown package: no.such") != std::string::npos);
  const auto unknown_permission = harness.shell("pm grant com.clawperator.operator FOO");
  CHECK(unknown_permission.status == 255);
  CHECK(unknown_permission.err.find("Unknown permission: FOO") != std::string::npos);
}

TEST_CASE("dumpsys package shows versionName and versionCode", "[vdevice][android]") {
  Harness harness;
  const auto dump = harness.shell("dumpsys package com.clawperator.operator");
  CHECK(dump.status == 0);
  CHECK(dump.out.find("  Package [com.clawperator.operator] (") != std::string::npos);
  CHECK(dump.out.find("    versionCode=503 minSdk=26 targetSdk=34\n") != std::string::npos);
  CHECK(dump.out.find("    versionName=0.5.3\n") != std::string::npos);
  const auto missing = harness.shell("dumpsys package no.such");
  CHECK(missing.status == 0);
  CHECK(missing.out.find("versionName=") == std::string::npos);
}

TEST_CASE("settings get, put, list and delete", "[vdevice][android]") {
  Harness harness;
  CHECK(harness.shell("settings get global development_settings_enabled").out == "1\n");
  CHECK(harness.shell("settings get global adb_enabled").out == "1\n");
  CHECK(harness.shell("settings get secure enabled_accessibility_services").out ==
        "com.clawperator.operator/clawperator.operator.accessibilityservice."
        "OperatorAccessibilityService\n");
  CHECK(harness.shell("settings get system no_such_key").out == "null\n");
  CHECK(harness.shell("settings put global adb_enabled 0").status == 0);
  CHECK(harness.shell("settings --user 0 get global adb_enabled").out == "0\n");
  CHECK(harness.shell("settings list global").out.find("adb_enabled=0\n") != std::string::npos);
  CHECK(harness.shell("settings delete global adb_enabled").out == "Deleted 1 rows\n");
  CHECK(harness.shell("settings get global adb_enabled").out == "null\n");
  CHECK(harness.shell("settings get bogus key").status == 1);
}

TEST_CASE("am force-stop and am start", "[vdevice][android]") {
  Harness harness;
  const auto start = harness.shell("am start -n com.android.settings/.Settings");
  CHECK(start.out == "Starting: Intent { cmp=com.android.settings/.Settings }\n");
  CHECK(start.status == 0);
  CHECK(harness.shell("dumpsys window").out.find("com.android.settings/.Settings") !=
        std::string::npos);
  const auto stop = harness.shell("am force-stop 'com.android.settings'; echo clawperator-exit:$?");
  CHECK(stop.out == "clawperator-exit:0\n");
  CHECK(harness.shell("dumpsys window").out.find("com.android.launcher3") != std::string::npos);

  const auto view =
      harness.shell("am start -a android.intent.action.VIEW -d https://example.com/x");
  CHECK(view.status == 0);
  CHECK(view.out ==
        "Starting: Intent { act=android.intent.action.VIEW dat=https://example.com/x "
        "}\n");
  CHECK(harness.shell("dumpsys window").out.find("com.android.chrome") != std::string::npos);

  const auto missing = harness.shell("am start -n no.such/.Main");
  CHECK(missing.status == 1);
  CHECK(missing.err.find("does not exist") != std::string::npos);
  const auto unresolved = harness.shell("am start -a android.intent.action.VIEW -d nope:x");
  CHECK(unresolved.status == 1);
  CHECK(unresolved.err.find("unable to resolve") != std::string::npos);
  CHECK(harness.shell("am force-stop no.such").status == 0);
  CHECK(harness.shell("am get-started-user-state 0").out == "RUNNING_UNLOCKED\n");
}

TEST_CASE("am broadcast acknowledges, even for a missing package", "[vdevice][android]") {
  Harness harness;
  const auto sent = harness.broadcast("{}");
  CHECK(sent.status == 0);
  CHECK(sent.out ==
        "Broadcasting: Intent { act=app.clawperator.operator.ACTION_AGENT_COMMAND flg=0x400000 "
        "pkg=com.clawperator.operator (has extras) }\nBroadcast completed: result=0\n");
  const auto missing = harness.broadcast("{}", "com.example.absent");
  CHECK(missing.status == 0);
  CHECK(missing.out.find("Broadcast completed: result=0") != std::string::npos);
  CHECK(harness.shell("am broadcast -a some.ACTION").out ==
        "Broadcasting: Intent { act=some.ACTION flg=0x400000 }\nBroadcast completed: result=0\n");
  CHECK(harness.shell("am broadcast --bogus").status == 255);
}

TEST_CASE("power, keys and the screen", "[vdevice][android]") {
  Scenario scenario = quiet_scenario();
  scenario.power.screen_on = false;
  scenario.power.secure_lock = false;
  Harness harness(scenario);
  CHECK(harness.shell("dumpsys power").out.find("mWakefulness=Asleep") != std::string::npos);
  CHECK(harness.shell("cmd power wakeup; echo clawperator-exit:$?").out == "clawperator-exit:0\n");
  CHECK(harness.shell("dumpsys power").out.find("mWakefulness=Awake") != std::string::npos);
  harness.shell("input keyevent KEYCODE_SLEEP");
  CHECK(harness.shell("dumpsys power").out.find("mWakefulness=Asleep") != std::string::npos);
  harness.shell("input keyevent KEYCODE_WAKEUP");
  CHECK(harness.shell("dumpsys power").out.find("mWakefulness=Awake") != std::string::npos);
  // Sleeping brought the keyguard back; this one is not secure.
  CHECK(harness.shell("dumpsys window").out.find("com.android.systemui") != std::string::npos);
  harness.shell("input keyevent KEYCODE_MENU");
  CHECK(harness.shell("dumpsys window").out.find("com.android.systemui") == std::string::npos);

  harness.shell("am start -n com.android.settings/.Settings");
  harness.shell("input keyevent KEYCODE_HOME");
  CHECK(harness.shell("dumpsys window").out.find("launcher3") != std::string::npos);
  harness.shell("am start -n com.android.settings/.Settings");
  harness.shell("input tap 540 400");  // the search bar below the title
  CHECK(harness.shell("dumpsys window").out.find("com.android.settings") != std::string::npos);
  harness.shell("input keyevent 4");
  harness.shell("input keyevent KEYCODE_BACK");
  CHECK(harness.shell("dumpsys window").out.find("launcher3") != std::string::npos);
  CHECK(harness.shell("input bogus").status == 1);
}

TEST_CASE("cmd routes to the services", "[vdevice][android]") {
  Harness harness;
  CHECK(harness.shell("cmd package list packages -3").out == "package:com.clawperator.operator\n");
  CHECK(harness.shell("cmd nosuch").status == 20);
  CHECK(harness.shell("cmd activity get-current-user").out == "0\n");
}

TEST_CASE("wm size and density", "[vdevice][android]") {
  Harness harness;
  CHECK(harness.shell("wm size").out == "Physical size: 1080x2400\n");
  CHECK(harness.shell("wm density").out == "Physical density: 420\n");
}

TEST_CASE("screencap -p writes a valid PNG of the display", "[vdevice][android]") {
  Harness harness;
  auto stream = harness.open_exec("screencap '-p'");
  REQUIRE(stream.output->exit_code);
  const DecodedPng png = decode_png(stream.output->out);
  CHECK(png.width == 1080);
  CHECK(png.height == 2400);
  // 8-bit palette rows (the text's anti-aliasing ramps: src/vdevice/android/ui/screenshot.cpp):
  // 1080 bytes plus the filter byte.
  CHECK(png.depth == 8);
  CHECK(png.pixels.size() == 2400U * 1081U);
  CHECK(png.pixels[0] == '\0');
  // Deflated, not stored: a wireframe is mostly runs of one colour.
  CHECK(stream.output->out.size() < png.pixels.size() / 20);
  CHECK(harness.shell("screencap").status == 1);
}

TEST_CASE("log writes one entry as the shell's uid, from a process of its own",
          "[vdevice][android]") {
  Harness harness;
  harness.shell("logcat -c");
  // Under exec the command keeps the shell's pid, which $$ names.
  const ShellResult logged = harness.shell("echo $$; exec log -t Probe hello");
  CHECK(logged.status == 0);
  CHECK(logged.err.empty());
  const std::string pid = logged.out.substr(0, logged.out.find('\n'));
  char padded[16];
  std::snprintf(padded, sizeof padded, "%5d", std::stoi(pid));
  CHECK(harness.shell("logcat -d -v time -v uid")
            .out.find(std::string("I/Probe   (shell:") + padded + "): hello\n") !=
        std::string::npos);

  // Priorities, the default tag, and the message as the remaining words joined by blanks.
  harness.shell("logcat -c");
  CHECK(harness.shell("log -p w -t 'Two words' one two  three").status == 0);
  CHECK(harness.shell("log -pE default tag").status == 0);
  CHECK(harness.shell("log -p s never written").status == 0);
  CHECK(harness.shell("log -- -t is a message").status == 0);
  const std::string tags = harness.shell("logcat -d -v tag").out;
  CHECK(tags ==
        "--------- beginning of main\n"
        "W/Two words: one two three\n"
        "E/log     : default tag\n"
        "I/log     : -t is a message\n");
  // Each run is a process of its own: a fresh pid, the shell's uid.
  const std::string brief = harness.shell("logcat -d -v brief -v uid").out;
  CHECK(brief.find("W/Two words(shell: 41") != std::string::npos);

  const ShellResult bare = harness.shell("log -t Probe");
  CHECK(bare.status == 1);
  CHECK(bare.err.ends_with("usage: log [-p PRI] [-t TAG] MESSAGE...\n"));
  const ShellResult bad_priority = harness.shell("log -p x hello");
  CHECK(bad_priority.status == 1);
  CHECK(bad_priority.err == "log: bad -p 'x'\n");
  const ShellResult unknown = harness.shell("log -q hello");
  CHECK(unknown.status == 1);
  CHECK(unknown.err == "log: Unknown option 'q'\nusage: log [-p PRI] [-t TAG] MESSAGE...\n");
  CHECK(harness.shell("log -t").status == 1);
  CHECK(harness.shell("logcat -d -v tag").out == tags);
}
