#include "vdevice/android/system/sync_service.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>
#include <utility>

#include "vdevice/adb/sync_protocol.hpp"

namespace clawperator::vdevice::android {
namespace {

constexpr std::uint32_t kTypeMask = 0170000;
constexpr std::uint32_t kSymlinkType = 0120000;
constexpr std::uint32_t kShellUid = 2000;

adb::SyncStat to_sync_stat(const Expected<FileInfo, int>& info) {
  adb::SyncStat stat;
  if (!info) {
    stat.error = static_cast<std::uint32_t>(info.error());
    return stat;
  }
  stat.dev = 0xfd00;
  stat.ino = info->inode;
  stat.mode = info->mode;
  stat.nlink = info->directory ? 2 : 1;
  stat.uid = stat.gid = kShellUid;
  stat.size = info->size;
  stat.atime = stat.mtime = stat.ctime = info->mtime;
  return stat;
}

class SyncSession : public ServiceSession {
 public:
  SyncSession(std::weak_ptr<AndroidSystem> system, ServiceOutput& out)
      : system_(std::move(system)), out_(&out) {}

  void on_input(std::string_view bytes) override {
    if (done_) return;
    decoder_.feed(bytes);
    while (!done_) {
      std::optional<adb::SyncRequest> request = decoder_.next();
      if (!request) break;
      handle(*request);
    }
    if (!done_ && decoder_.error()) fail(decoder_.error_text());
  }

  void on_host_close() override { done_ = true; }

 private:
  void handle(const adb::SyncRequest& request) {
    const auto system = system_.lock();
    if (!system) return finish();
    FileSystem& files = system->files();
    std::string reply;
    switch (request.id) {
      case adb::kSyncStat:
      case adb::kSyncLstat:
        if (receiving_) return fail("unexpected request during SEND");
        adb::append_stat_v1(reply, request.id, to_sync_stat(files.stat(request.data)));
        break;
      case adb::kSyncStat2:
      case adb::kSyncLstat2:
        if (receiving_) return fail("unexpected request during SEND");
        adb::append_stat_v2(reply, request.id, to_sync_stat(files.stat(request.data)));
        break;
      case adb::kSyncList:
      case adb::kSyncList2:
        if (receiving_) return fail("unexpected request during SEND");
        list(files, request, reply);
        break;
      case adb::kSyncRecv:
        if (receiving_) return fail("unexpected request during SEND");
        if (!send_file(files, request.data, reply)) return;
        break;
      case adb::kSyncSend:
        if (receiving_) return fail("unexpected request during SEND");
        return begin_receive(request.data);
      case adb::kSyncData:
        if (!receiving_) return fail("unknown command");
        // Past the capacity the bytes are counted, not kept: the write fails at DONE.
        received_ += request.data.size();
        if (received_ <= FileSystem::kCapacityBytes) data_ += request.data;
        return;
      case adb::kSyncDone:
        if (!receiving_) return fail("unknown command");
        return end_receive(files, static_cast<std::int64_t>(request.length));
      case adb::kSyncQuit:
        return finish();
      default:
        return fail("unknown command");
    }
    out_->write_stdout(reply);
  }

  void list(const FileSystem& files, const adb::SyncRequest& request, std::string& reply) {
    const bool v2 = request.id == adb::kSyncList2;
    const auto names = files.list(request.data);
    if (names) {
      const std::string directory = FileSystem::normalize(request.data);
      for (const std::string& name : *names) {
        const adb::SyncStat stat =
            to_sync_stat(files.stat(directory == "/" ? "/" + name : directory + "/" + name));
        if (v2) {
          adb::append_dent_v2(reply, adb::kSyncDent2, stat, name);
        } else {
          adb::append_dent_v1(reply, adb::kSyncDent, stat, name);
        }
      }
    }
    // An unreadable directory lists as empty, as adbd's opendir() failure does.
    if (v2) {
      adb::append_dent_v2(reply, adb::kSyncDone, adb::SyncStat{}, "");
    } else {
      adb::append_dent_v1(reply, adb::kSyncDone, adb::SyncStat{}, "");
    }
  }

  bool send_file(const FileSystem& files, const std::string& path, std::string& reply) {
    const auto data = files.read(path);
    if (!data) {
      fail(std::string("open failed: ") + std::strerror(data.error()));
      return false;
    }
    std::string_view rest = *data;
    while (!rest.empty()) {
      const std::size_t size = std::min(rest.size(), adb::kSyncMaxData);
      adb::append_sync_data(reply, rest.substr(0, size));
      rest.remove_prefix(size);
    }
    adb::append_sync_header(reply, adb::kSyncDone, 0);
    return true;
  }

  // SEND's argument is "PATH,MODE" (the mode in decimal, split at the last comma).
  void begin_receive(const std::string& argument) {
    const std::size_t comma = argument.rfind(',');
    std::uint32_t mode = 0;
    const char* digits = comma == std::string::npos ? nullptr : argument.data() + comma + 1;
    const char* end = argument.data() + argument.size();
    if (digits == nullptr || std::from_chars(digits, end, mode).ptr != end || digits == end) {
      return fail("missing file mode");
    }
    if ((mode & kTypeMask) == kSymlinkType) {
      return fail("symlinks are not supported by the virtual device");
    }
    receiving_ = true;
    target_ = argument.substr(0, comma);
    mode_ = mode;
    data_.clear();
    received_ = 0;
  }

  void end_receive(FileSystem& files, std::int64_t mtime) {
    receiving_ = false;
    const int error = received_ > FileSystem::kCapacityBytes
                          ? ENOSPC
                          : files.write(target_, std::move(data_), mode_, mtime);
    data_.clear();
    if (error == ENOSPC) return fail(std::string("write failed: ") + std::strerror(error));
    if (error != 0) return fail(std::string("couldn't create file: ") + std::strerror(error));
    std::string reply;
    adb::append_sync_header(reply, adb::kSyncOkay, 0);
    out_->write_stdout(reply);
  }

  // adbd ends the sync session after a failure.
  void fail(const std::string& message) {
    std::string reply;
    adb::append_sync_fail(reply, message);
    out_->write_stdout(reply);
    finish();
  }

  void finish() {
    if (done_) return;
    done_ = true;
    out_->exit(0);
  }

  std::weak_ptr<AndroidSystem> system_;
  ServiceOutput* out_;
  adb::SyncRequestDecoder decoder_;
  bool done_ = false;
  bool receiving_ = false;
  std::string target_;
  std::uint32_t mode_ = 0;
  std::string data_;
  std::size_t received_ = 0;
};

}  // namespace

std::unique_ptr<ServiceSession> start_sync_session(const std::shared_ptr<AndroidSystem>& system,
                                                   ServiceOutput& out) {
  return std::make_unique<SyncSession>(system, out);
}

}  // namespace clawperator::vdevice::android
