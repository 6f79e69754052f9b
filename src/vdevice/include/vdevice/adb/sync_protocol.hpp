// The file sync protocol (`sync:`, AOSP adb/SYNC.TXT and file_sync_protocol.h) as the device
// side speaks it: requests from the host reassembled from stream bytes, and the responses.
// Little-endian throughout; every request is an 8-byte header (4-byte id, 4-byte length),
// followed by `length` bytes of path or data except for DONE (length = mtime) and QUIT.
// Pure framing, no I/O and no file system.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace clawperator::vdevice::adb {

// Ids are the four ASCII letters read as a little-endian integer.
constexpr std::uint32_t sync_id(const char (&name)[5]) noexcept {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(name[0])) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(name[1])) << 8) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(name[2])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(name[3])) << 24);
}

inline constexpr std::uint32_t kSyncStat = sync_id("STAT");   // v1 stat (follows links)
inline constexpr std::uint32_t kSyncLstat = sync_id("LSTA");  // v1 lstat
inline constexpr std::uint32_t kSyncStat2 = sync_id("STA2");  // stat_v2
inline constexpr std::uint32_t kSyncLstat2 = sync_id("LST2");
inline constexpr std::uint32_t kSyncList = sync_id("LIST");
inline constexpr std::uint32_t kSyncList2 = sync_id("LIS2");
inline constexpr std::uint32_t kSyncDent = sync_id("DENT");
inline constexpr std::uint32_t kSyncDent2 = sync_id("DNT2");
inline constexpr std::uint32_t kSyncSend = sync_id("SEND");
inline constexpr std::uint32_t kSyncRecv = sync_id("RECV");
inline constexpr std::uint32_t kSyncData = sync_id("DATA");
inline constexpr std::uint32_t kSyncDone = sync_id("DONE");
inline constexpr std::uint32_t kSyncOkay = sync_id("OKAY");
inline constexpr std::uint32_t kSyncFail = sync_id("FAIL");
inline constexpr std::uint32_t kSyncQuit = sync_id("QUIT");

inline constexpr std::size_t kSyncHeaderSize = 8;
inline constexpr std::size_t kSyncMaxPath = 1024;
inline constexpr std::size_t kSyncMaxData = std::size_t{64} << 10;

struct SyncRequest {
  std::uint32_t id = 0;
  std::uint32_t length = 0;  // DONE: the file's mtime
  std::string data;          // the path, or a DATA chunk
};

// Reassembles requests from bytes arriving in pieces of any size. A path over 1024 bytes, a
// DATA chunk over 64 KiB or an unknown id is final (error()): adbd closes such a session.
class SyncRequestDecoder {
 public:
  void feed(std::string_view bytes);
  std::optional<SyncRequest> next();
  bool error() const noexcept { return !error_.empty(); }
  // What went wrong, for the FAIL message.
  const std::string& error_text() const noexcept { return error_; }

 private:
  std::string buffer_;
  std::size_t head_ = 0;
  std::string error_;
};

// File facts as the responses carry them.
struct SyncStat {
  std::uint32_t error = 0;  // a Linux errno (STA2/LST2); 0: the fields below are valid
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  std::uint32_t mode = 0;  // type and permission bits (S_IFREG | 0644 …)
  std::uint32_t nlink = 0;
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::uint64_t size = 0;
  std::int64_t atime = 0;
  std::int64_t mtime = 0;
  std::int64_t ctime = 0;
};

// STAT / LSTA answer: id, mode, size, mtime (all zero for a missing file).
void append_stat_v1(std::string& out, std::uint32_t id, const SyncStat& stat);
// STA2 / LST2 answer (and DNT2 entries, followed by the name): the 72-byte sync_stat_v2.
void append_stat_v2(std::string& out, std::uint32_t id, const SyncStat& stat);
// An entry of LIST (DENT: mode, size, mtime, name length, name) or LIS2 (DNT2: the stat_v2
// fields, name length, name). The listing ends with an entry of id DONE and no name.
void append_dent_v1(std::string& out, std::uint32_t id, const SyncStat& stat,
                    std::string_view name);
void append_dent_v2(std::string& out, std::uint32_t id, const SyncStat& stat,
                    std::string_view name);
// A bare header: OKAY, DONE (length 0), or DATA followed by its bytes.
void append_sync_header(std::string& out, std::uint32_t id, std::uint32_t length);
void append_sync_data(std::string& out, std::string_view bytes);
// FAIL with its message.
void append_sync_fail(std::string& out, std::string_view message);

}  // namespace clawperator::vdevice::adb
