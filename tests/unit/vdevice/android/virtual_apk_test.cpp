#include "clawperator/vdevice/android/virtual_apk.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "clawperator/vdevice/android/png.hpp"
#include "clawperator/vdevice/android/zip_archive.hpp"

using namespace clawperator::vdevice::android;

namespace {

std::uint32_t u32_at(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes.at(at + i))) << (8 * i);
  }
  return value;
}

std::uint16_t u16_at(std::string_view bytes, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(bytes.at(at)) |
                                    (static_cast<unsigned char>(bytes.at(at + 1)) << 8));
}

void set_u16(std::string& bytes, std::size_t at, std::uint16_t value) {
  bytes.at(at) = static_cast<char>(value & 0xFFU);
  bytes.at(at + 1) = static_cast<char>(value >> 8);
}

ZipReadError read_error(std::string_view archive, std::string_view name) {
  const auto entry = read_stored_entry(archive, name);
  REQUIRE_FALSE(entry);
  return entry.error().error;
}

ApkReadFailure apk_failure(std::string_view bytes) {
  const auto manifest = read_virtual_apk(bytes);
  REQUIRE_FALSE(manifest);
  return manifest.error();
}

std::string apk_with_manifest(std::string manifest_text) {
  return write_stored_zip({{std::string(kVirtualApkManifestEntry), std::move(manifest_text)}});
}

}  // namespace

TEST_CASE("a stored zip has the layout unzip expects, with each entry's CRC-32",
          "[vdevice][android][apk]") {
  const std::string archive = write_stored_zip({{"a.txt", "123456789"}, {"dir/b.bin", ""}});
  // Local header of the first entry: signature, version 1.0, stored, CRC, sizes, name.
  CHECK(u32_at(archive, 0) == 0x04034b50);
  CHECK(u16_at(archive, 4) == 10);
  CHECK(u16_at(archive, 8) == 0);
  CHECK(u32_at(archive, 14) == 0xCBF43926);  // the CRC-32 check value of "123456789"
  CHECK(u32_at(archive, 18) == 9);
  CHECK(u32_at(archive, 22) == 9);
  CHECK(archive.substr(30, 5) == "a.txt");
  CHECK(archive.substr(35, 9) == "123456789");
  // The end record closes the file and points at the central directory.
  const std::size_t end = archive.size() - 22;
  CHECK(u32_at(archive, end) == 0x06054b50);
  CHECK(u16_at(archive, end + 8) == 2);
  CHECK(u16_at(archive, end + 10) == 2);
  const std::size_t directory = u32_at(archive, end + 16);
  CHECK(directory + u32_at(archive, end + 12) == end);
  CHECK(u32_at(archive, directory) == 0x02014b50);
  CHECK(u32_at(archive, directory + 16) == crc32("123456789"));
  CHECK(u32_at(archive, directory + 42) == 0);  // the local header's offset
  // The same entries give the same bytes.
  CHECK(write_stored_zip({{"a.txt", "123456789"}, {"dir/b.bin", ""}}) == archive);
}

TEST_CASE("stored entries read back through the central directory", "[vdevice][android][apk]") {
  std::string binary;
  for (int i = 0; i < 70000; ++i) binary.push_back(static_cast<char>(i * 7 % 256));
  const std::string archive = write_stored_zip({{"first", "one"}, {"second", binary}});
  const auto first = read_stored_entry(archive, "first");
  REQUIRE(first);
  CHECK(*first == "one");
  const auto second = read_stored_entry(archive, "second");
  REQUIRE(second);
  CHECK(*second == binary);
  CHECK(looks_like_zip(archive));
  CHECK(read_error(archive, "third") == ZipReadError::EntryMissing);
  CHECK(read_error(write_stored_zip({}), "first") == ZipReadError::EntryMissing);
}

TEST_CASE("damaged archives are refused, never read past their end", "[vdevice][android][apk]") {
  const std::string archive = write_stored_zip({{"entry", "some data"}});
  SECTION("not a zip at all") {
    CHECK_FALSE(looks_like_zip("hello"));
    CHECK(read_error("hello, this is not an archive", "entry") == ZipReadError::NotAZip);
    CHECK(read_error("", "entry") == ZipReadError::NotAZip);
  }
  SECTION("cut short: the end record is gone") {
    CHECK(read_error(archive.substr(0, archive.size() - 5), "entry") == ZipReadError::NotAZip);
  }
  SECTION("a flipped data byte fails the CRC") {
    std::string damaged = archive;
    damaged[30 + 5] ^= 0x20;
    const auto entry = read_stored_entry(damaged, "entry");
    REQUIRE_FALSE(entry);
    CHECK(entry.error().error == ZipReadError::EntryUnreadable);
    CHECK(entry.error().detail.find("CRC") != std::string::npos);
  }
  SECTION("a compressed entry is not read") {
    std::string deflated = archive;
    const std::size_t directory = u32_at(deflated, deflated.size() - 22 + 16);
    set_u16(deflated, 8, 8);
    set_u16(deflated, directory + 10, 8);
    CHECK(read_error(deflated, "entry") == ZipReadError::EntryUnreadable);
  }
  SECTION("a directory pointing outside the file") {
    std::string wild = archive;
    wild[wild.size() - 22 + 19] = '\x7f';
    CHECK(read_error(wild, "entry") == ZipReadError::NotAZip);
  }
  SECTION("every truncation fails cleanly") {
    for (std::size_t size = 0; size < archive.size(); ++size) {
      const auto entry = read_stored_entry(std::string_view(archive).substr(0, size), "entry");
      CHECK_FALSE(entry);
    }
  }
}

TEST_CASE("a virtual APK round-trips its manifest", "[vdevice][android][apk]") {
  const VirtualApkManifest written{"com.clawperator.operator", "0.6.0-rc.1", 600};
  const std::string apk = make_virtual_apk(written);
  const auto manifest_entry = read_stored_entry(apk, kVirtualApkManifestEntry);
  REQUIRE(manifest_entry);
  CHECK(manifest_entry->find("\"package\": \"com.clawperator.operator\"") != std::string::npos);
  const auto read = read_virtual_apk(apk);
  REQUIRE(read);
  CHECK(read->package == written.package);
  CHECK(read->version_name == written.version_name);
  CHECK(read->version_code == written.version_code);

  const std::string large = make_virtual_apk(written, std::size_t{3} << 20);
  CHECK(large.size() > (std::size_t{3} << 20));
  const auto filler = read_stored_entry(large, "assets/filler.bin");
  REQUIRE(filler);
  CHECK(filler->size() == std::size_t{3} << 20);
  REQUIRE(read_virtual_apk(large));
  CHECK(read_virtual_apk(large)->version_code == 600);
}

TEST_CASE("what is not a virtual APK says why", "[vdevice][android][apk]") {
  CHECK(apk_failure("\x7f"
                    "ELF not a zip")
            .problem == ApkProblem::NotAnApk);
  CHECK(apk_failure(write_stored_zip({{"AndroidManifest.xml", "binary xml"}})).problem ==
        ApkProblem::ManifestMalformed);
  CHECK(apk_failure(apk_with_manifest("not json")).problem == ApkProblem::ManifestMalformed);
  CHECK(apk_failure(apk_with_manifest(R"({"versionName": "1", "versionCode": 1})")).detail ==
        "no \"package\" string");
  CHECK(
      apk_failure(apk_with_manifest(R"({"package": "app", "versionName": "1", "versionCode": 1})"))
          .detail == "bad package name \"app\": must have at least one '.' separator");
  CHECK(
      apk_failure(apk_with_manifest(R"({"package": "a.b", "versionName": "1", "versionCode": -1})"))
          .detail == "\"versionCode\" must be a non-negative integer");
  CHECK(apk_failure(apk_with_manifest(R"({"package": "a.b", "versionCode": 1})")).detail ==
        "no \"versionName\" string");
}

TEST_CASE("package names follow Android's rule", "[vdevice][android][apk]") {
  CHECK_FALSE(package_name_problem("com.example.app"));
  CHECK_FALSE(package_name_problem("a.b_2"));
  CHECK(package_name_problem("") == std::optional<std::string>("is empty"));
  CHECK(package_name_problem("single") ==
        std::optional<std::string>("must have at least one '.' separator"));
  CHECK(package_name_problem("com..x") == std::optional<std::string>("has an empty segment"));
  CHECK(package_name_problem("com.1x") ==
        std::optional<std::string>("has a segment that does not start with a letter"));
  CHECK(package_name_problem("com.ex-ample") ==
        std::optional<std::string>("contains the character '-'"));
}
