// The ZIP container as far as virtual APKs need it, through libzip: writing an archive that
// unzip, jar and zipinfo accept, and reading one entry back from untrusted bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"

namespace clawperator::vdevice::android {

struct ZipEntry {
  std::string name;  // '/'-separated path inside the archive
  std::string data;
  bool deflate = false;  // compressed (deflate), else stored
};

// Entries in order, each with the timestamp Android's reproducible builds use and mode 0644,
// so that the same entries always give the same bytes. Throws std::runtime_error when libzip
// refuses (an entry name with a NUL byte, memory).
std::string write_zip(const std::vector<ZipEntry>& entries);

enum class ZipReadErrorKind {
  // No consistent central directory (garbage, truncated, empty), or one libzip's consistency
  // check refuses whole (local headers that disagree with it, an unknown compression method).
  NotAZip,
  EntryMissing,     // the archive has no entry of that name
  EntryUnreadable,  // encrypted, failing its CRC, or larger than allowed
};

struct ZipReadError {
  ZipReadErrorKind error;
  std::string detail;
};

// The data of entry `name`; more than `max_bytes` of it is EntryUnreadable, whatever the
// archive claims, so that a hostile archive cannot make the reader allocate without bound.
Expected<std::string, ZipReadError> read_zip_entry(std::string_view archive, std::string_view name,
                                                   std::size_t max_bytes);

}  // namespace clawperator::vdevice::android
