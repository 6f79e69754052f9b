// The Operator's release metadata read (pure): which addresses may be fetched, the metadata
// document and each field it can get wrong, the .sha256 file's text, a version's addresses by
// the project's layout, and what the flags and the environment ask for.
#include "clawperator/download/release.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "clawperator/download/operator_release.hpp"

using namespace clawperator::download;

namespace {

const std::string kHex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

// The field and problem of a refused document.
std::pair<std::string, std::string> refusal(const std::string& body) {
  const auto parsed = parse_release_metadata(body);
  REQUIRE_FALSE(parsed);
  return {parsed.error().field, parsed.error().problem};
}

}  // namespace

TEST_CASE("addresses: https anywhere, plain http only to this host", "[download][release]") {
  CHECK(check_url("https://downloads.clawperator.com/operator/latest.json"));
  CHECK(check_url("HTTPS://Mirror.Example:8443/op/latest.json?x=1#y"));
  CHECK(check_url("http://127.0.0.1:8080/latest.json"));
  CHECK(check_url("http://127.2.3.4/latest.json"));
  CHECK(check_url("http://localhost:1234/x"));
  CHECK(check_url("http://[::1]:8080/latest.json"));
  CHECK(check_url("http://example.com/latest.json").error().message ==
        "not https (plain http only to this host: localhost, 127.0.0.0/8, ::1)");
  CHECK_FALSE(check_url("http://128.0.0.1/latest.json"));
  CHECK_FALSE(check_url("http://127.0.0.1.example.com/latest.json"));
  CHECK_FALSE(check_url("http://127.0.0/latest.json"));
  CHECK_FALSE(check_url("http://[::2]/latest.json"));
  CHECK(check_url("ftp://example.com/latest.json").error().message == "not https (ftp)");
  CHECK_FALSE(check_url("file:///etc/passwd"));
  for (const char* bad : {"", "latest.json", "//example.com/x", "https://", "https:///x",
                          "https://a b/x", "https://user:secret@example.com/x",
                          "https://example.com:/x", "https://example.com:99999x/", "https://[::1/x",
                          "https://exa\tmple.com/", "https://ex\xc3\xa4mple.com/"}) {
    CAPTURE(bad);
    CHECK(check_url(bad).error().message == "not an absolute http(s) address without credentials");
  }
  const auto parts = parse_url("HTTPS://[::1]:8443/x");
  REQUIRE(parts);
  CHECK(parts->scheme == "https");
  CHECK(parts->host == "::1");
  CHECK(is_loopback_host("LOCALHOST"));
  CHECK(is_loopback_host("127.255.255.255"));
  CHECK_FALSE(is_loopback_host("127.256.0.1"));
  CHECK_FALSE(is_loopback_host("127.0.0.01"));
  CHECK_FALSE(is_loopback_host("127.0.0.1."));
}

TEST_CASE("release metadata: the original's document, checksum inline or by address",
          "[download][release]") {
  SECTION("with both, the inline checksum is the one used") {
    const auto parsed = parse_release_metadata(
        R"({"version": " 0.5.3 ", "apk_url": "https://d.example/v0.5.3/operator-v0.5.3.apk",
            "sha256_url": "https://d.example/v0.5.3/operator-v0.5.3.apk.sha256",
            "sha256": ")" +
        std::string("9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08") +
        R"(", "notes": "ignored"})");
    REQUIRE(parsed);
    CHECK(parsed->version == "0.5.3");
    CHECK(parsed->apk_url == "https://d.example/v0.5.3/operator-v0.5.3.apk");
    CHECK(parsed->sha256 == kHex);  // lower-cased
    CHECK(parsed->sha256_url == "https://d.example/v0.5.3/operator-v0.5.3.apk.sha256");
  }
  SECTION("by address only") {
    const auto parsed = parse_release_metadata(
        R"({"version": "1.2.3", "apk_url": "http://127.0.0.1:9/a.apk",
            "sha256_url": "http://127.0.0.1:9/a.apk.sha256", "sha256": null})");
    REQUIRE(parsed);
    CHECK_FALSE(parsed->sha256);
    CHECK(parsed->sha256_url == "http://127.0.0.1:9/a.apk.sha256");
  }
  SECTION("inline only") {
    const auto parsed = parse_release_metadata(
        R"({"version": "1.2.3", "apk_url": "https://d.example/a.apk", "sha256": ")" + kHex +
        R"("})");
    REQUIRE(parsed);
    CHECK_FALSE(parsed->sha256_url);
  }
}

TEST_CASE("release metadata: every field that can be wrong, named", "[download][release]") {
  const std::string apk = R"("apk_url": "https://d.example/a.apk")";
  const std::string sums = R"("sha256_url": "https://d.example/a.apk.sha256")";
  using Refusal = std::pair<std::string, std::string>;
  CHECK(refusal("") == Refusal{"", "not a JSON object"});
  CHECK(refusal("[1]") == Refusal{"", "not a JSON object"});
  CHECK(refusal("{\"version\": \"1.0.0\",") == Refusal{"", "not a JSON object"});
  CHECK(refusal("{" + apk + "," + sums + "}") == Refusal{"version", "missing"});
  CHECK(refusal(R"({"version": 5,)" + apk + "," + sums + "}") ==
        Refusal{"version", "not a string"});
  CHECK(refusal(R"({"version": "  ",)" + apk + "," + sums + "}") == Refusal{"version", "blank"});
  for (const char* version : {"1.0", "v1.0.0", "1.0.0-beta", "1.0.0.1", "1.0.0-d", "../1.0.0"}) {
    CAPTURE(version);
    CHECK(refusal(R"({"version": ")" + std::string(version) + "\"," + apk + "," + sums + "}") ==
          Refusal{"version", "not a release version (X.Y.Z)"});
  }
  CHECK(refusal(R"({"version": "1.0.0",)" + sums + "}") == Refusal{"apk_url", "missing"});
  CHECK(refusal(R"({"version": "1.0.0", "apk_url": "",)" + sums + "}") ==
        Refusal{"apk_url", "blank"});
  CHECK(
      refusal(R"({"version": "1.0.0", "apk_url": "http://d.example/a.apk",)" + sums + "}") ==
      Refusal{"apk_url", "not https (plain http only to this host: localhost, 127.0.0.0/8, ::1)"});
  CHECK(refusal(R"({"version": "1.0.0",)" + apk + "}") ==
        Refusal{"sha256_url", "missing, and no inline sha256"});
  CHECK(refusal(R"({"version": "1.0.0",)" + apk + R"(, "sha256_url": "ftp://d.example/s"})") ==
        Refusal{"sha256_url", "not https (ftp)"});
  CHECK(refusal(R"({"version": "1.0.0",)" + apk + R"(, "sha256": "abc"})") ==
        Refusal{"sha256", "not 64 hex digits"});
  CHECK(refusal(R"({"version": "1.0.0",)" + apk + R"(, "sha256": ")" + kHex.substr(1) + "g\"}") ==
        Refusal{"sha256", "not 64 hex digits"});
}

TEST_CASE("a .sha256 file: its first word, 64 hex digits", "[download][release]") {
  CHECK(parse_sha256_text(kHex) == kHex);
  CHECK(parse_sha256_text("  " + kHex + "  operator-v0.5.3.apk\n") == kHex);
  CHECK(parse_sha256_text("9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08\n") ==
        kHex);
  CHECK_FALSE(parse_sha256_text(""));
  CHECK_FALSE(parse_sha256_text("operator-v0.5.3.apk " + kHex));
  CHECK_FALSE(parse_sha256_text(kHex + "0"));
  CHECK_FALSE(parse_sha256_text("<html>Not Found</html>"));
}

TEST_CASE("a version's addresses, beside the metadata", "[download][release]") {
  const auto release =
      versioned_release("https://downloads.clawperator.com/operator/latest.json?x=1", "0.5.3");
  REQUIRE(release);
  CHECK(release->version == "0.5.3");
  CHECK(release->apk_url ==
        "https://downloads.clawperator.com/operator/v0.5.3/operator-v0.5.3.apk");
  CHECK(release->sha256_url ==
        "https://downloads.clawperator.com/operator/v0.5.3/operator-v0.5.3.apk.sha256");
  CHECK_FALSE(release->sha256);
  const auto bare = versioned_release("http://127.0.0.1:8080", "1.0.0");
  REQUIRE(bare);
  CHECK(bare->apk_url == "http://127.0.0.1:8080/v1.0.0/operator-v1.0.0.apk");
  CHECK(versioned_release("https://d.example/latest.json", "1.0").error().field == "version");
  CHECK(apk_file_name("0.5.3") == "operator-v0.5.3.apk");
}

TEST_CASE("the request: flags over the environment over the project's metadata",
          "[download][release]") {
  std::map<std::string, std::string> environment;
  const auto variable = [&environment](const char* name) -> const char* {
    const auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
  };
  const auto read = [&](std::optional<std::string> url, std::optional<std::string> version = {}) {
    return read_release_request(url, version, variable);
  };
  auto request = read(std::nullopt);
  REQUIRE(request);
  CHECK(request->metadata_url == kDefaultMetadataUrl);
  CHECK(request->stall_timeout == kDefaultStallTimeout);
  CHECK(request->max_apk_bytes == kDefaultMaxApkBytes);
  CHECK_FALSE(request->version);

  environment["CLAWPERATOR_APK_METADATA_URL"] = "https://original.example/latest.json";
  CHECK(read(std::nullopt)->metadata_url == "https://original.example/latest.json");
  environment["CLAWPERATOR_OPERATOR_METADATA_URL"] = "https://mirror.example/latest.json";
  CHECK(read(std::nullopt)->metadata_url == "https://mirror.example/latest.json");
  CHECK(read("http://127.0.0.1:9/latest.json")->metadata_url == "http://127.0.0.1:9/latest.json");
  environment["CLAWPERATOR_OPERATOR_METADATA_URL"] = "";  // empty is unset
  CHECK(read(std::nullopt)->metadata_url == "https://original.example/latest.json");

  const auto refused = read("http://mirror.example/latest.json");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().source == "--metadata-url");
  CHECK(refused.error().message ==
        "The metadata address \"http://mirror.example/latest.json\" may not be fetched: not "
        "https (plain http only to this host: localhost, 127.0.0.0/8, ::1)");
  environment["CLAWPERATOR_APK_METADATA_URL"] = "http://mirror.example/latest.json";
  CHECK(read(std::nullopt).error().source == "CLAWPERATOR_APK_METADATA_URL");
  environment.erase("CLAWPERATOR_APK_METADATA_URL");

  CHECK(read(std::nullopt, "0.5.3")->version == "0.5.3");
  CHECK(read(std::nullopt, "latest").error().source == "--operator-version");

  environment["CLAWPERATOR_DOWNLOAD_STALL_MS"] = "1500";
  environment["CLAWPERATOR_DOWNLOAD_MAX_BYTES"] = "4096";
  request = read(std::nullopt);
  REQUIRE(request);
  CHECK(request->stall_timeout == std::chrono::milliseconds(1500));
  CHECK(request->max_apk_bytes == 4096);
  for (const char* bad : {"99", "600001", "1.5", "-1", "x", " 100"}) {
    CAPTURE(bad);
    environment["CLAWPERATOR_DOWNLOAD_STALL_MS"] = bad;
    CHECK(read(std::nullopt).error().source == "CLAWPERATOR_DOWNLOAD_STALL_MS");
  }
  environment.erase("CLAWPERATOR_DOWNLOAD_STALL_MS");
  for (const char* bad : {"0", "4294967297", "1e6"}) {
    CAPTURE(bad);
    environment["CLAWPERATOR_DOWNLOAD_MAX_BYTES"] = bad;
    CHECK(read(std::nullopt).error().source == "CLAWPERATOR_DOWNLOAD_MAX_BYTES");
  }
}
