// The ZIP container as far as virtual APKs need it: writing an archive of "stored"
// (uncompressed) entries that unzip, jar and zipinfo accept, and reading one stored entry back
// from untrusted bytes. No compression, no ZIP64, no encryption.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "clawperator/transport/expected.hpp"

namespace clawperator::vdevice::android {

struct ZipEntry {
  std::string name;  // '/'-separated path inside the archive
  std::string data;
};

// Local headers, data, central directory and end record, each entry with its CRC-32 and a
// fixed timestamp so that the same entries always give the same bytes. Throws
// std::length_error past the classic format's 4 GiB / 65535-entry limits.
std::string write_stored_zip(const std::vector<ZipEntry>& entries);

// True when the bytes begin like a ZIP archive (a local file header).
bool looks_like_zip(std::string_view archive);

enum class ZipReadError {
  NotAZip,          // no end-of-central-directory record, or one pointing outside the bytes
  EntryMissing,     // the archive has no entry of that name
  EntryUnreadable,  // compressed, encrypted, truncated or failing its CRC
};

struct ZipReadFailure {
  ZipReadError error;
  std::string detail;
};

// The data of entry `name`, found through the central directory as unzip does.
transport::Expected<std::string, ZipReadFailure> read_stored_entry(std::string_view archive,
                                                                   std::string_view name);

}  // namespace clawperator::vdevice::android
