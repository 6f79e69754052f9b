#include "vdevice/adb/sync_protocol.hpp"

#include "vdevice/buffer_compaction.hpp"

namespace clawperator::vdevice::adb {
namespace {

void put32(std::string& out, std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8)
    out.push_back(static_cast<char>((value >> shift) & 0xffU));
}

void put64(std::string& out, std::uint64_t value) {
  for (int shift = 0; shift < 64; shift += 8)
    out.push_back(static_cast<char>((value >> shift) & 0xffU));
}

std::uint32_t get32(std::string_view bytes, std::size_t at) noexcept {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  }
  return value;
}

bool carries_path(std::uint32_t id) noexcept {
  return id == kSyncStat || id == kSyncLstat || id == kSyncStat2 || id == kSyncLstat2 ||
         id == kSyncList || id == kSyncList2 || id == kSyncSend || id == kSyncRecv;
}

// The 4-byte fields of the v1 answers hold the low 32 bits, as adbd's do.
std::uint32_t low32(std::uint64_t value) noexcept {
  return static_cast<std::uint32_t>(value & 0xffffffffU);
}

}  // namespace

void SyncRequestDecoder::feed(std::string_view bytes) {
  if (error()) return;
  if (head_ > 0 && (head_ == buffer_.size() || head_ >= kCompactThreshold)) {
    buffer_.erase(0, head_);
    head_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<SyncRequest> SyncRequestDecoder::next() {
  if (error()) return std::nullopt;
  const std::string_view pending = std::string_view(buffer_).substr(head_);
  if (pending.size() < kSyncHeaderSize) return std::nullopt;
  SyncRequest request;
  request.id = get32(pending, 0);
  request.length = get32(pending, 4);
  std::size_t body = 0;
  if (carries_path(request.id)) {
    if (request.length > kSyncMaxPath) {
      error_ = "path too long";
      return std::nullopt;
    }
    body = request.length;
  } else if (request.id == kSyncData) {
    if (request.length > kSyncMaxData) {
      error_ = "data chunk too large";
      return std::nullopt;
    }
    body = request.length;
  } else if (request.id != kSyncDone && request.id != kSyncQuit) {
    error_ = "unknown command";
    return std::nullopt;
  }
  if (pending.size() - kSyncHeaderSize < body) return std::nullopt;
  request.data.assign(pending.substr(kSyncHeaderSize, body));
  head_ += kSyncHeaderSize + body;
  return request;
}

void append_stat_v1(std::string& out, std::uint32_t id, const SyncStat& stat) {
  put32(out, id);
  put32(out, stat.error == 0 ? stat.mode : 0);
  put32(out, stat.error == 0 ? low32(stat.size) : 0);
  put32(out, stat.error == 0 ? low32(static_cast<std::uint64_t>(stat.mtime)) : 0);
}

void append_stat_v2(std::string& out, std::uint32_t id, const SyncStat& stat) {
  // A failed stat carries only its errno: the rest stays zero, as adbd leaves it.
  const SyncStat empty;
  const SyncStat& fields = stat.error == 0 ? stat : empty;
  put32(out, id);
  put32(out, stat.error);
  put64(out, fields.dev);
  put64(out, fields.ino);
  put32(out, fields.mode);
  put32(out, fields.nlink);
  put32(out, fields.uid);
  put32(out, fields.gid);
  put64(out, fields.size);
  put64(out, static_cast<std::uint64_t>(fields.atime));
  put64(out, static_cast<std::uint64_t>(fields.mtime));
  put64(out, static_cast<std::uint64_t>(fields.ctime));
}

void append_dent_v1(std::string& out, std::uint32_t id, const SyncStat& stat,
                    std::string_view name) {
  append_stat_v1(out, id, stat);
  put32(out, static_cast<std::uint32_t>(name.size()));
  out.append(name);
}

void append_dent_v2(std::string& out, std::uint32_t id, const SyncStat& stat,
                    std::string_view name) {
  append_stat_v2(out, id, stat);
  put32(out, static_cast<std::uint32_t>(name.size()));
  out.append(name);
}

void append_sync_header(std::string& out, std::uint32_t id, std::uint32_t length) {
  put32(out, id);
  put32(out, length);
}

void append_sync_data(std::string& out, std::string_view bytes) {
  append_sync_header(out, kSyncData, static_cast<std::uint32_t>(bytes.size()));
  out.append(bytes);
}

void append_sync_fail(std::string& out, std::string_view message) {
  append_sync_header(out, kSyncFail, static_cast<std::uint32_t>(message.size()));
  out.append(message);
}

}  // namespace clawperator::vdevice::adb
