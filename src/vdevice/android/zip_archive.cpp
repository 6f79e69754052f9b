#include "clawperator/vdevice/android/zip_archive.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "clawperator/vdevice/android/png.hpp"  // crc32: ZIP uses zlib's CRC-32

namespace clawperator::vdevice::android {
namespace {

using Failure = transport::Unexpected<ZipReadFailure>;

constexpr std::uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr std::uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr std::uint32_t kEndRecordSignature = 0x06054b50;
constexpr std::size_t kLocalHeaderSize = 30;
constexpr std::size_t kCentralHeaderSize = 46;
constexpr std::size_t kEndRecordSize = 22;
constexpr std::size_t kMaxCommentSize = 0xFFFF;

// 1.0: stored entries need nothing newer.
constexpr std::uint16_t kVersionNeeded = 10;
// Made by Unix (3), spec 3.0, so that unzip honours the permission bits below.
constexpr std::uint16_t kVersionMadeBy = (3 << 8) | 30;
constexpr std::uint32_t kRegularFileMode = 0100644;
constexpr std::uint16_t kFlagEncrypted = 0x0001;
constexpr std::uint16_t kFlagUtf8Names = 0x0800;
constexpr std::uint16_t kMethodStored = 0;
// 1981-01-01 00:00:00, the timestamp Android's reproducible builds give every entry.
constexpr std::uint16_t kDosTime = 0;
constexpr std::uint16_t kDosDate = ((1981 - 1980) << 9) | (1 << 5) | 1;

void put16(std::string& out, std::uint16_t value) {
  out += static_cast<char>(value & 0xFFU);
  out += static_cast<char>((value >> 8) & 0xFFU);
}

void put32(std::string& out, std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) out += static_cast<char>((value >> shift) & 0xFFU);
}

std::uint16_t get16(std::string_view bytes, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[at]) |
                                    (static_cast<unsigned char>(bytes[at + 1]) << 8));
}

std::uint32_t get32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  }
  return value;
}

std::uint32_t narrow32(std::size_t value, const char* what) {
  if (value > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error(std::string("zip: ") + what + " over 4 GiB");
  }
  return static_cast<std::uint32_t>(value);
}

std::uint16_t narrow16(std::size_t value, const char* what) {
  if (value > std::numeric_limits<std::uint16_t>::max()) {
    throw std::length_error(std::string("zip: too many ") + what);
  }
  return static_cast<std::uint16_t>(value);
}

bool is_ascii(std::string_view text) {
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0x80U) != 0) return false;
  }
  return true;
}

// Fields shared by the local and the central header, from the version-needed field on.
void put_common_fields(std::string& out, const ZipEntry& entry, std::uint32_t crc) {
  put16(out, kVersionNeeded);
  put16(out, is_ascii(entry.name) ? 0 : kFlagUtf8Names);
  put16(out, kMethodStored);
  put16(out, kDosTime);
  put16(out, kDosDate);
  put32(out, crc);
  put32(out, narrow32(entry.data.size(), "entry"));  // compressed = uncompressed: stored
  put32(out, narrow32(entry.data.size(), "entry"));
  put16(out, narrow16(entry.name.size(), "name bytes"));
  put16(out, 0);  // extra field length
}

ZipReadFailure failure(ZipReadError error, std::string detail) {
  return ZipReadFailure{error, std::move(detail)};
}

// The end-of-central-directory record: the last one whose comment fits the bytes.
std::optional<std::size_t> find_end_record(std::string_view archive) {
  if (archive.size() < kEndRecordSize) return std::nullopt;
  const std::size_t last = archive.size() - kEndRecordSize;
  const std::size_t first = last > kMaxCommentSize ? last - kMaxCommentSize : 0;
  for (std::size_t at = last + 1; at-- > first;) {
    if (get32(archive, at) != kEndRecordSignature) continue;
    if (at + kEndRecordSize + get16(archive, at + 20) <= archive.size()) return at;
  }
  return std::nullopt;
}

}  // namespace

std::string write_stored_zip(const std::vector<ZipEntry>& entries) {
  std::string out;
  std::string directory;
  const std::uint16_t count = narrow16(entries.size(), "entries");
  for (const ZipEntry& entry : entries) {
    const std::uint32_t crc = crc32(entry.data);
    const std::uint32_t offset = narrow32(out.size(), "archive");
    put32(out, kLocalHeaderSignature);
    put_common_fields(out, entry, crc);
    out += entry.name;
    out += entry.data;

    put32(directory, kCentralHeaderSignature);
    put16(directory, kVersionMadeBy);
    put_common_fields(directory, entry, crc);
    put16(directory, 0);  // comment length
    put16(directory, 0);  // disk number
    put16(directory, 0);  // internal attributes
    put32(directory, kRegularFileMode << 16);
    put32(directory, offset);
    directory += entry.name;
  }
  const std::uint32_t directory_offset = narrow32(out.size(), "archive");
  out += directory;
  put32(out, kEndRecordSignature);
  put16(out, 0);  // this disk
  put16(out, 0);  // the disk holding the central directory
  put16(out, count);
  put16(out, count);
  put32(out, narrow32(directory.size(), "central directory"));
  put32(out, directory_offset);
  put16(out, 0);  // comment length
  return out;
}

bool looks_like_zip(std::string_view archive) {
  return archive.size() >= 4 && get32(archive, 0) == kLocalHeaderSignature;
}

transport::Expected<std::string, ZipReadFailure> read_stored_entry(std::string_view archive,
                                                                   std::string_view name) {
  const std::optional<std::size_t> end = find_end_record(archive);
  if (!end) return Failure{failure(ZipReadError::NotAZip, "no end of central directory record")};
  const std::size_t entry_count = get16(archive, *end + 10);
  const std::size_t directory_size = get32(archive, *end + 12);
  const std::size_t directory_offset = get32(archive, *end + 16);
  if (directory_offset > *end || directory_size > *end - directory_offset) {
    return Failure{failure(ZipReadError::NotAZip, "the central directory lies outside the file")};
  }
  const std::size_t directory_end = directory_offset + directory_size;
  std::size_t at = directory_offset;
  for (std::size_t index = 0; index < entry_count; ++index) {
    if (directory_end - at < kCentralHeaderSize || get32(archive, at) != kCentralHeaderSignature) {
      return Failure{failure(ZipReadError::NotAZip, "a central directory entry is damaged")};
    }
    const std::uint16_t flags = get16(archive, at + 8);
    const std::uint16_t method = get16(archive, at + 10);
    const std::uint32_t crc = get32(archive, at + 16);
    const std::size_t compressed_size = get32(archive, at + 20);
    const std::size_t size = get32(archive, at + 24);
    const std::size_t name_size = get16(archive, at + 28);
    const std::size_t trailer_size = std::size_t{get16(archive, at + 30)} + get16(archive, at + 32);
    const std::size_t local_offset = get32(archive, at + 42);
    if (directory_end - at - kCentralHeaderSize < name_size + trailer_size) {
      return Failure{failure(ZipReadError::NotAZip, "a central directory entry is damaged")};
    }
    const std::string_view entry_name = archive.substr(at + kCentralHeaderSize, name_size);
    at += kCentralHeaderSize + name_size + trailer_size;
    if (entry_name != name) continue;

    const std::string what = "entry " + std::string(name);
    if ((flags & kFlagEncrypted) != 0) {
      return Failure{failure(ZipReadError::EntryUnreadable, what + " is encrypted")};
    }
    if (method != kMethodStored || compressed_size != size) {
      return Failure{failure(ZipReadError::EntryUnreadable, what + " is compressed (method " +
                                                                std::to_string(method) +
                                                                "); only stored entries are read")};
    }
    if (local_offset > directory_offset || directory_offset - local_offset < kLocalHeaderSize ||
        get32(archive, local_offset) != kLocalHeaderSignature) {
      return Failure{failure(ZipReadError::EntryUnreadable, what + ": bad local header offset")};
    }
    const std::size_t data_offset = local_offset + kLocalHeaderSize +
                                    get16(archive, local_offset + 26) +
                                    get16(archive, local_offset + 28);
    if (data_offset > directory_offset || directory_offset - data_offset < size) {
      return Failure{failure(ZipReadError::EntryUnreadable, what + " is truncated")};
    }
    std::string data(archive.substr(data_offset, size));
    if (crc32(data) != crc) {
      return Failure{failure(ZipReadError::EntryUnreadable, what + " fails its CRC-32 check")};
    }
    return data;
  }
  return Failure{failure(ZipReadError::EntryMissing, "no entry " + std::string(name))};
}

}  // namespace clawperator::vdevice::android
