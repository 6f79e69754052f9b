// The downloads directory without a server: a copy that matches the checksum is reused and
// nothing is fetched; a directory others may write is refused as the state directory would
// be; a fetch that fails leaves no partial file. (The fetches themselves, over HTTP and HTTPS:
// tests/integration/operator_install_test.cpp.)
#include "clawperator/download/operator_release.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "clawperator/transport/sha256.hpp"
#include "test_files.hpp"

using namespace clawperator;
using clawperator::testing::TemporaryDirectory;
using clawperator::testing::write_file;

namespace {

// A release whose addresses lead nowhere: port 9 (discard) on this host answers nothing.
download::Release unreachable_release(const std::string& sha256) {
  download::Release release;
  release.metadata_url = "http://127.0.0.1:9/latest.json";
  release.metadata.version = "0.5.3";
  release.metadata.apk_url = "http://127.0.0.1:9/v0.5.3/operator-v0.5.3.apk";
  release.metadata.sha256 = sha256;
  return release;
}

download::ReleaseRequest quick_request() {
  download::ReleaseRequest request;
  request.stall_timeout = std::chrono::milliseconds(2000);
  return request;
}

std::size_t entries_in(const std::filesystem::path& directory) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(directory)) {
    ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("a copy in the downloads directory that matches is reused, nothing fetched",
          "[download][cache]") {
  const TemporaryDirectory home("downloads");
  const std::filesystem::path downloads = home.path() / ".clawperator" / "downloads";
  const std::string apk = "PK\x03\x04 the operator";
  const download::Release release = unreachable_release(transport::sha256_hex(apk));

  SECTION("the directory is made private when missing; no copy: the fetch fails, nothing kept") {
    const auto fetched = download::fetch_apk(release, quick_request(), downloads);
    REQUIRE_FALSE(fetched);
    CHECK(fetched.error().code == "OPERATOR_DOWNLOAD_FAILED");
    CHECK(fetched.error().details["resource"] == "apk");
    CHECK(fetched.error().details["reason"] == "network");
    CHECK(testing::mode_of(downloads) == 0700);
    CHECK(entries_in(downloads) == 0);
  }
  SECTION("a matching copy") {
    std::filesystem::create_directories(downloads);
    write_file(downloads / "operator-v0.5.3.apk", apk);
    const auto fetched = download::fetch_apk(release, quick_request(), downloads);
    INFO((fetched ? std::string() : fetched.error().message));
    REQUIRE(fetched);
    CHECK(fetched->reused);
    CHECK(fetched->bytes == apk.size());
    CHECK(fetched->checksum_source == "inline");
    CHECK(fetched->file_name == "operator-v0.5.3.apk");
    CHECK(fetched->path == downloads / "operator-v0.5.3.apk");
  }
  SECTION("a copy that does not match is fetched again (and here the fetch fails)") {
    std::filesystem::create_directories(downloads);
    write_file(downloads / "operator-v0.5.3.apk", apk + "tampered");
    const auto fetched = download::fetch_apk(release, quick_request(), downloads);
    REQUIRE_FALSE(fetched);
    CHECK(fetched.error().code == "OPERATOR_DOWNLOAD_FAILED");
  }
  SECTION("a directory others may write is refused") {
    std::filesystem::create_directories(downloads);
    write_file(downloads / "operator-v0.5.3.apk", apk);
    REQUIRE(::chmod(downloads.c_str(), 0777) == 0);
    const auto fetched = download::fetch_apk(release, quick_request(), downloads);
    REQUIRE_FALSE(fetched);
    CHECK(fetched.error().code == "OPERATOR_DOWNLOAD_FAILED");
    CHECK(fetched.error().details["reason"] == "storage");
    CHECK(fetched.error().details["problem"] == "mode 0777");
  }
}

TEST_CASE("the downloads directory is under the home", "[download][cache]") {
  io::StateEnvironment environment;
  environment.variable = [](const char* name) -> const char* {
    return std::string_view(name) == "HOME" ? "/home/ada" : nullptr;
  };
  CHECK(download::downloads_directory(environment) ==
        std::filesystem::path("/home/ada/.clawperator/downloads"));
  environment.variable = [](const char*) -> const char* { return nullptr; };
  environment.passwd_home = [] { return std::optional<std::string>("/var/lib/ci"); };
  CHECK(download::downloads_directory(environment) ==
        std::filesystem::path("/var/lib/ci/.clawperator/downloads"));
  environment.passwd_home = [] { return std::optional<std::string>(); };
  CHECK_FALSE(download::downloads_directory(environment));
}
