#include "vdevice/android/formats/virtual_apk.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vdevice/android/formats/zip_archive.hpp"

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

constexpr std::size_t kLimit = std::size_t{1} << 20;

ZipReadErrorKind read_error(std::string_view archive, std::string_view name,
                            std::size_t limit = kLimit) {
  const auto entry = read_zip_entry(archive, name, limit);
  REQUIRE_FALSE(entry);
  return entry.error().error;
}

ApkReadError apk_failure(std::string_view bytes) {
  const auto manifest = read_virtual_apk(bytes);
  REQUIRE_FALSE(manifest);
  return manifest.error();
}

std::string apk_with_manifest(std::string manifest_text) {
  return write_zip({{std::string(kVirtualApkManifestEntry), std::move(manifest_text)}});
}

// Sets the compression method of the only entry, in its local and its central header.
void set_method(std::string& archive, std::uint16_t method) {
  const std::size_t directory = u32_at(archive, archive.size() - 22 + 16);
  REQUIRE(u32_at(archive, directory) == 0x02014b50);
  set_u16(archive, 8, method);
  set_u16(archive, directory + 10, method);
}

}  // namespace

TEST_CASE("a zip has the layout unzip expects, the same bytes for the same entries",
          "[vdevice][android][apk]") {
  const std::vector<ZipEntry> entries = {{"a.txt", "123456789", false},
                                         {"dir/b.bin", "", false},
                                         {"c.txt", std::string(5000, 'c'), true}};
  const std::string archive = write_zip(entries);
  CHECK(u32_at(archive, 0) == 0x04034b50);   // a local file header first
  CHECK(u16_at(archive, 8) == 0);            // stored
  CHECK(u32_at(archive, 14) == 0xCBF43926);  // the CRC-32 check value of "123456789"
  CHECK(archive.substr(30, 5) == "a.txt");
  // The end record closes the file and counts the entries.
  const std::size_t end = archive.size() - 22;
  CHECK(u32_at(archive, end) == 0x06054b50);
  CHECK(u16_at(archive, end + 10) == 3);
  // The deflated entry takes far less room than its text.
  CHECK(archive.size() < 1000);
  CHECK(write_zip(entries) == archive);
}

TEST_CASE("entries read back, stored or deflated", "[vdevice][android][apk]") {
  std::string binary;
  for (int i = 0; i < 70000; ++i) binary.push_back(static_cast<char>(i * 7 % 256));
  const std::string archive =
      write_zip({{"first", "one", false}, {"second", binary, true}, {"third", binary, false}});
  const auto first = read_zip_entry(archive, "first", kLimit);
  REQUIRE(first);
  CHECK(*first == "one");
  const auto second = read_zip_entry(archive, "second", kLimit);
  REQUIRE(second);
  CHECK(*second == binary);
  const auto third = read_zip_entry(archive, "third", kLimit);
  REQUIRE(third);
  CHECK(*third == binary);
  CHECK(read_error(archive, "fourth") == ZipReadErrorKind::EntryMissing);
  CHECK(read_error(archive, std::string("first\0x", 7)) == ZipReadErrorKind::EntryMissing);
  CHECK(read_error(write_zip({{"only", "x", false}}), "first") == ZipReadErrorKind::EntryMissing);
}

TEST_CASE("damaged archives are refused, never read past their end", "[vdevice][android][apk]") {
  const std::string archive = write_zip({{"entry", "some data", false}});
  SECTION("not a zip at all") {
    CHECK(read_error("hello, this is not an archive", "entry") == ZipReadErrorKind::NotAZip);
    CHECK(read_error("", "entry") == ZipReadErrorKind::NotAZip);
  }
  SECTION("cut short: the end record is gone") {
    CHECK(read_error(archive.substr(0, archive.size() - 5), "entry") == ZipReadErrorKind::NotAZip);
  }
  SECTION("a flipped data byte fails the CRC") {
    std::string damaged = archive;
    const std::size_t data = damaged.find("some data");
    REQUIRE(data != std::string::npos);
    damaged[data] ^= 0x20;
    const auto entry = read_zip_entry(damaged, "entry", kLimit);
    REQUIRE_FALSE(entry);
    CHECK(entry.error().error == ZipReadErrorKind::EntryUnreadable);
    CHECK(entry.error().detail.find("CRC") != std::string::npos);
  }
  SECTION("an unknown compression method is not read") {
    std::string odd = archive;
    set_method(odd, 99);
    // libzip's consistency check refuses the whole archive ("Zip archive inconsistent").
    CHECK(read_error(odd, "entry") == ZipReadErrorKind::NotAZip);
  }
  SECTION("an entry larger than the reader allows") {
    CHECK(read_error(archive, "entry", 8) == ZipReadErrorKind::EntryUnreadable);
    const auto exact = read_zip_entry(archive, "entry", 9);
    REQUIRE(exact);
    CHECK(*exact == "some data");
  }
  SECTION("a directory pointing outside the file") {
    std::string wild = archive;
    wild[wild.size() - 22 + 19] = '\x7f';
    CHECK(read_error(wild, "entry") == ZipReadErrorKind::NotAZip);
  }
  SECTION("every truncation fails cleanly") {
    for (std::size_t size = 0; size < archive.size(); ++size) {
      const auto entry = read_zip_entry(std::string_view(archive).substr(0, size), "entry", kLimit);
      CHECK_FALSE(entry);
    }
  }
  SECTION("random bytes after a zip signature never crash the reader") {
    std::uint64_t state = 0x2545F4914F6CDD1DULL;
    for (int round = 0; round < 200; ++round) {
      std::string noise = archive;
      for (int flips = 0; flips < 4; ++flips) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        noise[state % noise.size()] = static_cast<char>(state >> 56);
      }
      const auto entry = read_zip_entry(noise, "entry", kLimit);
      // Whatever libzip makes of it: bounded data, or a failure that says why.
      if (entry) {
        CHECK(entry->size() <= kLimit);
      } else {
        CHECK_FALSE(entry.error().detail.empty());
      }
    }
  }
}

TEST_CASE("a virtual APK round-trips its manifest", "[vdevice][android][apk]") {
  const VirtualApkManifest written{"com.clawperator.operator", "0.6.0-rc.1", 600};
  const std::string apk = make_virtual_apk(written);
  CHECK(make_virtual_apk(written) == apk);
  const auto manifest_entry = read_zip_entry(apk, kVirtualApkManifestEntry, kLimit);
  REQUIRE(manifest_entry);
  CHECK(manifest_entry->find("\"package\": \"com.clawperator.operator\"") != std::string::npos);
  const auto read = read_virtual_apk(apk);
  REQUIRE(read);
  CHECK(read->package == written.package);
  CHECK(read->version_name == written.version_name);
  CHECK(read->version_code == written.version_code);

  const std::string large = make_virtual_apk(written, std::size_t{3} << 20);
  CHECK(large.size() > (std::size_t{3} << 20));
  const auto filler = read_zip_entry(large, "assets/filler.bin", std::size_t{4} << 20);
  REQUIRE(filler);
  CHECK(filler->size() == std::size_t{3} << 20);
  REQUIRE(read_virtual_apk(large));
  CHECK(read_virtual_apk(large)->version_code == 600);
}

TEST_CASE("what is not a virtual APK says why", "[vdevice][android][apk]") {
  CHECK(apk_failure("\x7f"
                    "ELF not a zip")
            .problem == ApkReadErrorKind::NotAnApk);
  CHECK(apk_failure("").problem == ApkReadErrorKind::NotAnApk);
  CHECK(apk_failure(write_zip({{"AndroidManifest.xml", "binary xml"}})).problem ==
        ApkReadErrorKind::ManifestMalformed);
  CHECK(apk_failure(apk_with_manifest("not json")).problem == ApkReadErrorKind::ManifestMalformed);
  // A manifest too large to be one is refused before it is read whole.
  CHECK(apk_failure(apk_with_manifest(std::string(std::size_t{1} << 20, ' '))).detail ==
        "entry vdevice-manifest.json is larger than 65536 bytes");
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
  CHECK(check_package_name("com.example.app"));
  CHECK(check_package_name("a.b_2"));
  const auto problem_of = [](std::string_view name) {
    const auto checked = check_package_name(name);
    return checked ? std::string("(none)") : checked.error().message;
  };
  CHECK(problem_of("") == "is empty");
  CHECK(problem_of("single") == "must have at least one '.' separator");
  CHECK(problem_of("com..x") == "has an empty segment");
  CHECK(problem_of("com.1x") == "has a segment that does not start with a letter");
  CHECK(problem_of("com.ex-ample") == "contains the character '-'");
}
