// adb push's route for large payloads, on the device side: the sync service writing into the
// device's files, `cat` and `rm`, and `"$(cat FILE)"` handing a file to am broadcast intact.
#include <catch2/catch.hpp>
#include <cerrno>
#include <string>

#include "android_test_support.hpp"
#include "clawperator/transport/sha256.hpp"
#include "vdevice/adb/sync_protocol.hpp"
#include "vdevice/android/system/file_system.hpp"

using namespace clawperator;
using namespace clawperator::vdevice::android;
using namespace clawperator::vdevice::android::test;
// The sync protocol's names one by one: a using-directive would also reach the files after this
// one in a unity batch (cmake/ClawperatorUnity.cmake).
using clawperator::vdevice::adb::append_dent_v1;
using clawperator::vdevice::adb::append_stat_v1;
using clawperator::vdevice::adb::append_stat_v2;
using clawperator::vdevice::adb::append_sync_data;
using clawperator::vdevice::adb::append_sync_fail;
using clawperator::vdevice::adb::append_sync_header;
using clawperator::vdevice::adb::kSyncData;
using clawperator::vdevice::adb::kSyncDent;
using clawperator::vdevice::adb::kSyncDone;
using clawperator::vdevice::adb::kSyncFail;
using clawperator::vdevice::adb::kSyncList;
using clawperator::vdevice::adb::kSyncLstat2;
using clawperator::vdevice::adb::kSyncMaxData;
using clawperator::vdevice::adb::kSyncOkay;
using clawperator::vdevice::adb::kSyncQuit;
using clawperator::vdevice::adb::kSyncRecv;
using clawperator::vdevice::adb::kSyncSend;
using clawperator::vdevice::adb::kSyncStat;
using clawperator::vdevice::adb::kSyncStat2;
using clawperator::vdevice::adb::sync_id;
using clawperator::vdevice::adb::SyncRequest;
using clawperator::vdevice::adb::SyncRequestDecoder;
using clawperator::vdevice::adb::SyncStat;

namespace {

std::string request(std::uint32_t id, std::string_view data) {
  std::string out;
  append_sync_header(out, id, static_cast<std::uint32_t>(data.size()));
  out.append(data);
  return out;
}

// What adb push sends for one small file: SEND, DATA chunks of at most 64 KiB, DONE.
std::string push_request(const std::string& path, const std::string& data,
                         std::uint32_t mode = 0100600, std::uint32_t mtime = 1700000000) {
  std::string out = request(kSyncSend, path + "," + std::to_string(mode));
  for (std::size_t at = 0; at < data.size(); at += kSyncMaxData) {
    append_sync_data(out, std::string_view(data).substr(at, kSyncMaxData));
  }
  append_sync_header(out, kSyncDone, mtime);
  return out;
}

std::uint32_t u32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  }
  return value;
}

struct SyncClient {
  std::unique_ptr<RecordingOutput> output = std::make_unique<RecordingOutput>();
  std::unique_ptr<vdevice::ServiceSession> session;
};

SyncClient open_sync(Harness& harness) {
  SyncClient client;
  client.session = harness.device->open_sync(*client.output);
  REQUIRE(client.session);
  return client;
}

std::string okay() {
  std::string out;
  append_sync_header(out, kSyncOkay, 0);
  return out;
}

std::string fail_reply(const std::string& message) {
  std::string out;
  append_sync_fail(out, message);
  return out;
}

// 40 KB of JSON text with every character a shell could trip over.
std::string large_payload_text() {
  std::string text = "{\"commandId\":\"big\",\"taskId\":\"big\",\"timeoutMs\":30000,\"actions\":[";
  for (int i = 0; text.size() < 40000; ++i) {
    text += std::string(i == 0 ? "" : ",") + "{\"id\":\"s" + std::to_string(i) +
            "\",\"type\":\"sleep\",\"params\":{\"durationMs\":1,\"note\":\"it's \\\"$(id)\\\" `x` "
            "\\\\ $HOME ; | & é 漢 🙂\"}}";
  }
  return text + "]}\n\n";
}

}  // namespace

TEST_CASE("sync requests reassemble from any split", "[vdevice][adb][sync]") {
  const std::string wire =
      push_request("/data/local/tmp/a", std::string(70000, 'x')) + request(kSyncQuit, "");
  SyncRequestDecoder decoder;
  std::vector<SyncRequest> requests;
  for (std::size_t at = 0; at < wire.size(); at += 4093) {
    decoder.feed(std::string_view(wire).substr(at, 4093));
    while (auto next = decoder.next()) requests.push_back(*next);
  }
  REQUIRE(requests.size() == 5);
  CHECK(requests[0].id == kSyncSend);
  CHECK(requests[0].data == "/data/local/tmp/a,33152");
  CHECK(requests[1].data.size() == kSyncMaxData);
  CHECK(requests[2].data.size() == 70000 - kSyncMaxData);
  CHECK(requests[3].id == kSyncDone);
  CHECK(requests[3].length == 1700000000);
  CHECK(requests[4].id == kSyncQuit);

  SyncRequestDecoder bad;
  bad.feed(request(sync_id("NOPE"), ""));
  CHECK_FALSE(bad.next());
  CHECK(bad.error());
  SyncRequestDecoder long_path;
  long_path.feed(request(kSyncStat2, std::string(1025, 'p')));
  CHECK_FALSE(long_path.next());
  CHECK(long_path.error_text() == "path too long");
  SyncRequestDecoder big_chunk;
  std::string header;
  append_sync_header(header, kSyncData, 65537);
  big_chunk.feed(header);
  CHECK_FALSE(big_chunk.next());
  CHECK(big_chunk.error_text() == "data chunk too large");
}

TEST_CASE("sync answers: stat v1 and v2, the dent entries", "[vdevice][adb][sync]") {
  SyncStat stat;
  stat.mode = 0100644;
  stat.size = 0x1'0000'0005;
  stat.mtime = 1700000000;
  std::string v1;
  append_stat_v1(v1, kSyncStat, stat);
  REQUIRE(v1.size() == 16);
  CHECK(u32(v1, 0) == kSyncStat);
  CHECK(u32(v1, 4) == 0100644);
  CHECK(u32(v1, 8) == 5);  // the low 32 bits, as adbd sends them
  CHECK(u32(v1, 12) == 1700000000);
  std::string v2;
  append_stat_v2(v2, kSyncStat2, stat);
  REQUIRE(v2.size() == 72);
  CHECK(u32(v2, 4) == 0);
  CHECK(u32(v2, 24) == 0100644);
  CHECK(u32(v2, 40) == 5);
  CHECK(u32(v2, 44) == 1);
  SyncStat missing;
  missing.error = ENOENT;
  missing.mode = 0100644;
  std::string none;
  append_stat_v2(none, kSyncLstat2, missing);
  CHECK(u32(none, 0) == kSyncLstat2);
  CHECK(u32(none, 4) == ENOENT);
  CHECK(u32(none, 24) == 0);
  std::string dent;
  append_dent_v1(dent, kSyncDent, stat, "name");
  CHECK(dent.size() == 24);
  CHECK(dent.substr(20) == "name");
}

TEST_CASE("the file system: writable roots, errors as errno", "[vdevice][android][sync]") {
  FileSystem files;
  CHECK(FileSystem::normalize("/data//local/./tmp/../tmp/x/") == "/data/local/tmp/x");
  CHECK(FileSystem::normalize("relative") == "/relative");
  CHECK(files.write("/data/local/tmp/a.json", "abc", 0100600, 7) == 0);
  const auto info = files.stat("/data/local/tmp/a.json");
  REQUIRE(info);
  CHECK(info->mode == 0100600);
  CHECK(info->size == 3);
  CHECK(info->mtime == 7);
  CHECK(files.read("/data/local/tmp/a.json").value() == "abc");
  CHECK(files.stat("/data/local/tmp")->directory);
  CHECK(files.write("/data/local/tmp/new/dir/b", "b", 0644, 0) == 0);  // parents made
  CHECK(files.list("/data/local/tmp").value() == std::vector<std::string>{"a.json", "new"});
  CHECK(files.write("/system/x", "x", 0644, 0) == EROFS);
  CHECK(files.write("/data/x", "x", 0644, 0) == EACCES);
  CHECK(files.write("/data/local/tmp", "x", 0644, 0) == EISDIR);
  CHECK(files.write("/data/local/tmp/a.json/c", "x", 0644, 0) == ENOTDIR);
  CHECK(files.stat("/nope").error() == ENOENT);
  CHECK(files.read("/data/local/tmp").error() == EISDIR);
  CHECK(files.remove("/data/local/tmp/a.json") == 0);
  CHECK(files.remove("/data/local/tmp/a.json") == ENOENT);
  CHECK(files.write("/sdcard/big", std::string(FileSystem::kCapacityBytes + 1, 'x'), 0644, 0) ==
        ENOSPC);
}

TEST_CASE("adb push and pull through the sync service", "[vdevice][android][sync]") {
  Harness harness;
  const std::string text = large_payload_text();
  SECTION("a push in pieces of any size, then stat, pull and list") {
    SyncClient client = open_sync(harness);
    const std::string wire = push_request("/data/local/tmp/p.json", text);
    for (std::size_t at = 0; at < wire.size(); at += 4072) {
      client.session->on_input(std::string_view(wire).substr(at, 4072));
    }
    CHECK(client.output->out == okay());
    client.output->out.clear();
    client.session->on_input(request(kSyncStat2, "/data/local/tmp/p.json"));
    REQUIRE(client.output->out.size() == 72);
    CHECK(u32(client.output->out, 24) == 0100600);
    CHECK(u32(client.output->out, 40) == text.size());
    client.output->out.clear();
    client.session->on_input(request(kSyncRecv, "/data/local/tmp/p.json"));
    std::string pulled;
    std::string_view reply = client.output->out;
    while (u32(reply, 0) == kSyncData) {
      const std::uint32_t length = u32(reply, 4);
      pulled.append(reply.substr(8, length));
      reply.remove_prefix(8 + length);
    }
    CHECK(pulled == text);
    CHECK(reply.size() == 8);
    CHECK(u32(reply, 0) == kSyncDone);
    client.output->out.clear();
    client.session->on_input(request(kSyncList, "/data/local/tmp"));
    CHECK(client.output->out.find("p.json") != std::string::npos);
    CHECK(client.output->out.ends_with(std::string("DONE") + std::string(16, '\0')));
    client.session->on_input(request(kSyncQuit, ""));
    CHECK(client.output->exit_code == 0);
  }
  SECTION("a refused push: FAIL, and the session ends") {
    SyncClient client = open_sync(harness);
    client.session->on_input(push_request("/system/bin/evil", "x"));
    CHECK(client.output->out == fail_reply("couldn't create file: Read-only file system"));
    CHECK(client.output->exit_code == 0);
  }
  SECTION("a pull of a missing file") {
    SyncClient client = open_sync(harness);
    client.session->on_input(request(kSyncRecv, "/data/local/tmp/none"));
    CHECK(client.output->out == fail_reply("open failed: No such file or directory"));
  }
  SECTION("protocol errors: an unknown id, DATA outside SEND, a SEND without a mode") {
    for (const std::string& wire : {request(sync_id("JUNK"), ""), request(kSyncData, "abc"),
                                    request(kSyncSend, "/data/local/tmp/x")}) {
      SyncClient client = open_sync(harness);
      client.session->on_input(wire);
      CHECK(u32(client.output->out, 0) == kSyncFail);
      CHECK(client.output->exit_code == 0);
    }
  }
  SECTION("a stat of a missing path: v1 zeros, v2 the errno") {
    SyncClient client = open_sync(harness);
    client.session->on_input(request(kSyncStat, "/data/local/tmp/none"));
    CHECK(client.output->out == std::string("STAT") + std::string(12, '\0'));
    client.output->out.clear();
    client.session->on_input(request(kSyncLstat2, "/data/local/tmp/none"));
    CHECK(u32(client.output->out, 4) == ENOENT);
  }
}

TEST_CASE("cat and rm", "[vdevice][android][sync]") {
  Harness harness;
  SyncClient client = open_sync(harness);
  client.session->on_input(push_request("/data/local/tmp/f", "line one\nline two\n"));
  CHECK(harness.shell("cat /data/local/tmp/f").out == "line one\nline two\n");
  const ShellResult missing = harness.shell("cat /data/local/tmp/none");
  CHECK(missing.status == 1);
  CHECK(missing.err == "cat: /data/local/tmp/none: No such file or directory\n");
  CHECK(harness.shell("cat").status == 1);
  CHECK(harness.shell("rm -f /data/local/tmp/none").status == 0);
  const ShellResult refused = harness.shell("rm /data/local/tmp/none");
  CHECK(refused.status == 1);
  CHECK(refused.err == "rm: /data/local/tmp/none: No such file or directory\n");
  CHECK(harness.shell("rm /data/local/tmp").err == "rm: /data/local/tmp: Is a directory\n");
  CHECK(harness.shell("rm -x f").status == 1);
  CHECK(harness.shell("rm -f /data/local/tmp/f && cat /data/local/tmp/f").status == 1);
}

TEST_CASE("command substitution: quoted, unquoted, nested, trailing newlines stripped",
          "[vdevice][android][sync]") {
  Harness harness;
  SyncClient client = open_sync(harness);
  client.session->on_input(push_request("/data/local/tmp/w", "a  b\n\n\n"));
  CHECK(harness.shell("echo \"[$(cat /data/local/tmp/w)]\"").out == "[a  b]\n");
  CHECK(harness.shell("echo [$(cat /data/local/tmp/w)]").out == "[a b]\n");
  CHECK(harness.shell("echo \"$(echo \"$(echo inner)\")\"").out == "inner\n");
  CHECK(harness.shell("x=$(echo set); echo $x").out == "set\n");
  CHECK(harness.shell("echo \"$(cat /data/local/tmp/none)\"; echo $?").out == "\n0\n");
  CHECK(harness.shell("echo \"$(cat /data/local/tmp/none)\"").err ==
        "cat: /data/local/tmp/none: No such file or directory\n");
  CHECK(harness.shell("echo \"$(nosuch)\"").err == "/system/bin/sh: nosuch: not found\n");
  const ShellResult running = harness.shell("echo \"$(logcat)\"");
  CHECK(running.err.find("keeps running") != std::string::npos);
  CHECK(harness.shell("echo \"$(echo a\"").status == 1);
}

TEST_CASE("a payload pushed to a file reaches the Operator byte for byte",
          "[vdevice][android][sync]") {
  Harness harness;
  const std::string text = large_payload_text();
  SyncClient client = open_sync(harness);
  client.session->on_input(push_request("/data/local/tmp/clawperator-payload-big.json", text));
  REQUIRE(client.output->out == okay());
  ResultCapture capture(harness, "big", "big");
  const ShellResult sent = harness.shell(
      "am broadcast -a app.clawperator.operator.ACTION_AGENT_COMMAND -p com.clawperator.operator "
      "--es payload \"$(cat /data/local/tmp/clawperator-payload-big.json)\" "
      "--receiver-foreground; rm -f /data/local/tmp/clawperator-payload-big.json");
  CHECK(sent.status == 0);
  CHECK(sent.out.find("Broadcast completed: result=0") != std::string::npos);
  CHECK(capture.complete().envelope.status == "success");
  // Trailing newlines go, as the shell strips them; every other byte arrives.
  std::string expected = text;
  while (expected.back() == '\n') expected.pop_back();
  const std::string log = harness.shell("logcat -d -s TaskScopeDefault").out;
  CHECK(log.find("(" + std::to_string(expected.size()) + " bytes, sha256 " +
                 transport::sha256_hex(expected) + ")") != std::string::npos);
  CHECK(harness.shell("cat /data/local/tmp/clawperator-payload-big.json").status == 1);
}
