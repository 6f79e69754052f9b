// A scripted device for the exec, doctor and operator-setup tests: every adb call a
// healthy phone answers, each replaceable by a test before install().
#pragma once

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "clawperator/io/state_directory.hpp"
#include "clawperator/process/scripted_runner.hpp"
#include "test_files.hpp"
#include "transport/transport_test_support.hpp"

namespace clawperator::test {

using process::ScriptedRunner;
using Argv = ScriptedRunner::Argv;
using namespace std::chrono_literals;

inline const std::string kSerial = "emulator-5554";
inline const std::string kOperator = "com.clawperator.operator";

inline Argv adb_argv(std::initializer_list<std::string> args) {
  Argv argv = {"adb"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

// adb -s SERIAL shell 'COMMAND; echo clawperator-exit:$?'
inline Argv marked_shell(const std::string& command) {
  return adb_argv({"-s", kSerial, "shell", command + "; echo clawperator-exit:$?"});
}

inline std::string marked(const std::string& out, int exit_code = 0) {
  return out + "clawperator-exit:" + std::to_string(exit_code) + "\n";
}

inline std::string result_line(const std::string& envelope_json) {
  return transport::test::time_line("Clawperator", "[Clawperator-Result] " + envelope_json) + "\n";
}

inline std::string probe_answer(const std::string& id, const std::string& screen_on = "true",
                                const std::string& locked = "false") {
  return result_line(R"({"commandId":")" + id +
                     R"(","taskId":"doctor-handshake","status":"success","stepResults":[)"
                     R"({"id":"h1","actionType":"doctor_ping","success":true,"data":{)"
                     R"("screen_on":")" +
                     screen_on + R"(","device_locked":")" + locked +
                     R"(","user_unlocked":"true"}}],"error":null})");
}

inline std::string service_unavailable(const std::string& id) {
  return result_line(
      R"({"commandId":")" + id +
      R"(","taskId":"doctor-handshake","status":"failed","stepResults":[],)"
      R"("error":"accessibility service not running","errorCode":"SERVICE_UNAVAILABLE"})");
}

inline process::Completion acknowledged() {
  return ScriptedRunner::exited(0,
                                "Broadcasting: Intent { act=app.clawperator.operator."
                                "ACTION_AGENT_COMMAND flg=0x400000 pkg=com.clawperator.operator "
                                "(has extras) }\nBroadcast completed: result=0\n");
}

inline ScriptedRunner::Matcher is_broadcast() {
  return [](const Argv& argv) {
    return argv.size() == 5 && argv[3] == "shell" && argv[4].rfind("am broadcast ", 0) == 0;
  };
}

// The tests' one temporary directory (tests/support/test_files.hpp).
using clawperator::testing::TemporaryDirectory;

// The whole content of a file ("" when it cannot be read).
inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A verified state directory `state` inside `dir` (made 0700 by StateDirectory::open).
inline io::StateSelection private_state(const std::filesystem::path& dir) {
  auto opened =
      io::StateDirectory::open(dir / "state", ::geteuid(), io::StateDirectory::Symlinks::Refuse);
  REQUIRE(opened.has_value());
  io::StateSelection selection;
  selection.directory = std::make_shared<const io::StateDirectory>(std::move(*opened));
  return selection;
}

// The answers of a healthy device, by call. Tests replace entries, then install().
struct ScriptedDevice {
  std::map<std::string, std::pair<Argv, process::Completion>> runs;
  std::vector<std::vector<process::ScriptedEvent>> logcat_sessions;
  bool scrcpy_installed = false;  // else its spawn fails with ENOENT

  ScriptedDevice() {
    set("version", adb_argv({"version"}),
        ScriptedRunner::exited(0,
                               "Android Debug Bridge version 1.0.41\nVersion 29.0.6-debian\n"
                               "Installed as /usr/lib/android-sdk/platform-tools/adb\n"));
    set("start-server", adb_argv({"start-server"}), ScriptedRunner::exited(0));
    set("devices", adb_argv({"devices", "-l"}),
        ScriptedRunner::exited(0, "List of devices attached\n" + kSerial +
                                      "          device product:sdk_gphone64 "
                                      "model:Pixel_7 device:panther transport_id:1\n\n"));
    set("capability",
        marked_shell("getprop ro.build.version.sdk; getprop ro.build.version.release; wm size; "
                     "wm density"),
        ScriptedRunner::exited(
            0, marked("34\n14\nPhysical size: 1080x2400\nPhysical density: 420\n")));
    set("pm-list", marked_shell("pm list packages -U 'com.clawperator.operator'"),
        ScriptedRunner::exited(0, marked("package:com.clawperator.operator uid:10123\n")));
    // doctor's readiness.result.authenticity: a line of its own, read back with its uid.
    set("uid-check",
        marked_shell("log -t ClawperatorUidCheck 'doctor: does logcat show uids'; logcat -d -v "
                     "brief -v uid -t 100 -s ClawperatorUidCheck"),
        ScriptedRunner::exited(
            0, marked("--------- beginning of main\nI/ClawperatorUidCheck(shell:  4242): doctor: "
                      "does logcat show uids\n")));
    set("dumpsys", marked_shell("dumpsys package 'com.clawperator.operator'"),
        ScriptedRunner::exited(0, marked("Packages:\n  Package [com.clawperator.operator] "
                                         "(a1b2c3):\n    userId=10123\n    versionCode=503 "
                                         "minSdk=26 targetSdk=34\n    versionName=0.5.3\n")));
    set("settings",
        marked_shell(
            "settings get global development_settings_enabled; settings get global adb_enabled"),
        ScriptedRunner::exited(0, marked("1\n1\n")));
    // doctor's host.video.dependencies: ffprobe usable, scrcpy not installed.
    set("ffprobe", {"ffprobe", "-version"},
        ScriptedRunner::exited(0,
                               "ffprobe version 5.1.9-0+deb12u1 Copyright (c) 2007-2024 the "
                               "FFmpeg developers\n"));
    logcat_sessions.push_back({ScriptedRunner::out_chunk("--------- beginning of main\n"),
                               ScriptedRunner::out_chunk(probe_answer("probe-1"), 30ms)});
  }

  void set(const std::string& key, Argv argv, process::Completion completion) {
    runs[key] = {std::move(argv), std::move(completion)};
  }
  void answer(const std::string& key, process::Completion completion) {
    REQUIRE(runs.count(key) == 1);
    runs[key].second = std::move(completion);
  }

  // Every call answers any number of times (doctor --fix checks twice); each
  // logcat session is used once, in order.
  void install(ScriptedRunner& runner) const {
    for (const auto& [key, call] : runs) {
      runner.on_run(call.first, call.second).repeatedly();
    }
    if (!scrcpy_installed) runner.on_spawn_failure({"scrcpy", "--version"}, ENOENT).repeatedly();
    for (const auto& session : logcat_sessions) {
      runner.on_start(adb_argv({"-s", kSerial, "logcat", "-v", "time", "-v", "uid", "-T", "1"}),
                      session);
    }
    runner.on_run(is_broadcast(), "broadcast", acknowledged()).repeatedly();
    // The line a reader silent past the attach fallback is proven by (exec::attach_reader).
    runner.on_run(marked_shell("log -t Clawperator attach"), ScriptedRunner::exited(0, marked("")))
        .repeatedly();
  }
};

}  // namespace clawperator::test
