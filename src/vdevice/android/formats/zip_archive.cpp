#include "vdevice/android/formats/zip_archive.hpp"

#include <zip.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace clawperator::vdevice::android {
namespace {

using ZipFailure = Unexpected<ZipReadError>;

// 1981-01-01 00:00:00, the timestamp Android's reproducible builds give every entry.
constexpr std::uint16_t kDosTime = 0;
constexpr std::uint16_t kDosDate = ((1981 - 1980) << 9) | (1 << 5) | 1;
constexpr zip_uint32_t kRegularFileMode = 0100644;
constexpr zip_uint32_t kBestCompression = 9;

struct ArchiveCloser {
  void operator()(zip_t* archive) const noexcept { zip_discard(archive); }
};
struct FileCloser {
  void operator()(zip_file_t* file) const noexcept { zip_fclose(file); }
};
struct SourceFreer {
  void operator()(zip_source_t* source) const noexcept { zip_source_free(source); }
};
using Archive = std::unique_ptr<zip_t, ArchiveCloser>;
using File = std::unique_ptr<zip_file_t, FileCloser>;
using Source = std::unique_ptr<zip_source_t, SourceFreer>;

[[noreturn]] void refuse(const char* what, const char* detail) {
  throw std::runtime_error(std::string("zip: ") + what + ": " + detail);
}

// For an error of our own: its text is copied before the error is released.
[[noreturn]] void refuse(const char* what, zip_error_t* error) {
  const std::string detail = zip_error_strerror(error);
  zip_error_fini(error);
  refuse(what, detail.c_str());
}

[[noreturn]] void refuse(const char* what, zip_t* archive) {
  refuse(what, zip_strerror(archive));
}

void add_entry(zip_t* archive, const ZipEntry& entry) {
  if (entry.name.find('\0') != std::string::npos) {
    throw std::runtime_error("zip: an entry name holds a NUL byte");
  }
  // The bytes stay with the caller until zip_close(): no copy.
  zip_source_t* data = zip_source_buffer(archive, entry.data.data(), entry.data.size(), 0);
  if (data == nullptr) refuse("entry data", archive);
  const zip_int64_t index = zip_file_add(archive, entry.name.c_str(), data, ZIP_FL_ENC_UTF_8);
  if (index < 0) {
    zip_source_free(data);
    refuse("adding an entry", archive);
  }
  const auto at = static_cast<zip_uint64_t>(index);
  if (zip_set_file_compression(archive, at, entry.deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                               kBestCompression) != 0 ||
      zip_file_set_dostime(archive, at, kDosTime, kDosDate, 0) != 0 ||
      zip_file_set_external_attributes(archive, at, 0, ZIP_OPSYS_UNIX, kRegularFileMode << 16) !=
          0) {
    refuse("entry attributes", archive);
  }
}

// The bytes a buffer source holds once the archive written into it is closed.
std::string read_back(zip_source_t* buffer) {
  zip_stat_t stat;
  zip_stat_init(&stat);
  if (zip_source_stat(buffer, &stat) != 0 || (stat.valid & ZIP_STAT_SIZE) == 0 ||
      zip_source_open(buffer) != 0) {
    refuse("reading the archive back", zip_error_strerror(zip_source_error(buffer)));
  }
  std::string out(static_cast<std::size_t>(stat.size), '\0');
  const zip_int64_t read = zip_source_read(buffer, out.data(), out.size());
  zip_source_close(buffer);
  if (read < 0 || static_cast<zip_uint64_t>(read) != stat.size) {
    refuse("reading the archive back", zip_error_strerror(zip_source_error(buffer)));
  }
  return out;
}

ZipReadError failure(ZipReadErrorKind error, std::string detail) {
  return ZipReadError{error, std::move(detail)};
}

}  // namespace

std::string write_zip(const std::vector<ZipEntry>& entries) {
  zip_error_t error;
  zip_error_init(&error);
  const Source buffer(zip_source_buffer_create(nullptr, 0, 0, &error));
  if (!buffer) refuse("creating a buffer", &error);
  // The archive frees its source when closed; the buffer must outlive it to be read.
  zip_source_keep(buffer.get());
  Archive archive(zip_open_from_source(buffer.get(), ZIP_TRUNCATE, &error));
  if (!archive) {
    zip_source_free(buffer.get());  // the reference zip_open_from_source did not take
    refuse("opening the buffer", &error);
  }
  zip_error_fini(&error);
  for (const ZipEntry& entry : entries) add_entry(archive.get(), entry);
  if (zip_close(archive.get()) != 0) refuse("writing", archive.get());
  static_cast<void>(archive.release());  // zip_close freed it
  return read_back(buffer.get());
}

Expected<std::string, ZipReadError> read_zip_entry(std::string_view archive, std::string_view name,
                                                   std::size_t max_bytes) {
  // libzip takes an empty file for an empty archive; a package manager does not.
  if (archive.empty()) return ZipFailure{failure(ZipReadErrorKind::NotAZip, "the file is empty")};
  zip_error_t error;
  zip_error_init(&error);
  Source source(zip_source_buffer_create(archive.data(), archive.size(), 0, &error));
  if (!source) refuse("reading a buffer", &error);
  // ZIP_CHECKCONS: the local headers must agree with the central directory, as unzip -t wants.
  Archive zip(zip_open_from_source(source.get(), ZIP_RDONLY | ZIP_CHECKCONS, &error));
  if (!zip) {
    std::string detail = zip_error_strerror(&error);
    zip_error_fini(&error);
    return ZipFailure{failure(ZipReadErrorKind::NotAZip, std::move(detail))};
  }
  static_cast<void>(source.release());  // the archive owns it now
  zip_error_fini(&error);

  const std::string wanted(name);
  const std::string what = "entry " + wanted;
  const zip_int64_t index = wanted.find('\0') == std::string::npos
                                ? zip_name_locate(zip.get(), wanted.c_str(), ZIP_FL_ENC_RAW)
                                : -1;
  if (index < 0) return ZipFailure{failure(ZipReadErrorKind::EntryMissing, "no " + what)};
  const File file(zip_fopen_index(zip.get(), static_cast<zip_uint64_t>(index), 0));
  if (!file) {
    return ZipFailure{
        failure(ZipReadErrorKind::EntryUnreadable, what + ": " + zip_strerror(zip.get()))};
  }
  std::string data;
  char block[65536];
  for (;;) {
    const zip_int64_t read = zip_fread(file.get(), block, sizeof block);
    if (read < 0) {
      return ZipFailure{
          failure(ZipReadErrorKind::EntryUnreadable, what + ": " + zip_file_strerror(file.get()))};
    }
    if (read == 0) break;
    if (static_cast<zip_uint64_t>(read) > max_bytes - data.size()) {
      return ZipFailure{failure(ZipReadErrorKind::EntryUnreadable,
                                what + " is larger than " + std::to_string(max_bytes) + " bytes")};
    }
    data.append(block, static_cast<std::size_t>(read));
  }
  return data;
}

}  // namespace clawperator::vdevice::android
