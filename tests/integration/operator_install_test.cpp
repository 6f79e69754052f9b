// `clawperator operator install` through the real adb against virtual devices, from a release
// served on this host: over HTTPS with a certificate authority the test makes (trusted through
// CURL_CA_BUNDLE) and over plain HTTP to 127.0.0.1. The checksum inline and by address, the
// cache reused (the server's log shows one download), a device already up to date left alone
// and --force, --download-only and --operator-version; and each failure with its code, exit code
// and disposition, nothing installed and no file left behind (docs/operator.md).
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "clawperator/transport/sha256.hpp"
#include "farm_fixture.hpp"
#include "release_server.hpp"
#include "vdevice/android/formats/virtual_apk.hpp"

namespace {

namespace fs = std::filesystem;
using clawperator::testing::expect_error;
using clawperator::testing::Farm;
using clawperator::testing::ReleaseServer;
using clawperator::testing::RunOptions;
using clawperator::testing::RunResult;
using clawperator::testing::single_document;
using clawperator::testing::TemporaryDirectory;
using clawperator::vdevice::android::make_virtual_apk;
using nlohmann::json;

const std::string kPackage = "com.clawperator.operator";

std::string apk_bytes(const std::string& version, int code) {
  return make_virtual_apk({kPackage, version, code}, 64 * 1024);
}

std::string sha256_of(const std::string& bytes) {
  return clawperator::transport::sha256_hex(bytes);
}

// A certificate authority and a certificate for 127.0.0.1 it signed, made with openssl.
struct TestCa {
  std::string ca_file;
  ReleaseServer::Tls server;
};

TestCa make_test_ca(const TemporaryDirectory& dir) {
  const auto openssl = [](const std::vector<std::string>& args) {
    const RunResult result = clawperator::testing::run_binary("openssl", args);
    INFO("openssl " << args.front() << ": " << result.err);
    REQUIRE(result.exit_code == 0);
  };
  const std::string ca_key = dir / "ca.key";
  const std::string ca = dir / "ca.pem";
  const std::string key = dir / "server.key";
  const std::string request = dir / "server.csr";
  const std::string certificate = dir / "server.pem";
  const std::string extensions =
      dir.file("server.ext",
               "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
               "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n");
  openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
           "-keyout", ca_key, "-out", ca, "-days", "2", "-subj", "/CN=clawperator test CA",
           "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
           "keyUsage=critical,keyCertSign,cRLSign"});
  openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
           key, "-out", request, "-subj", "/CN=127.0.0.1"});
  openssl({"x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out",
           certificate, "-days", "2", "-extfile", extensions});
  return TestCa{ca, ReleaseServer::Tls{certificate, key}};
}

// A release on `server`: the APK at /operator/vV/operator-vV.apk, its .sha256 beside it, and
// /operator/latest.json naming them with the checksum inline or by address.
struct Published {
  std::string version;
  std::string apk;
  std::string apk_path;
};

enum class Checksum { Inline, External };

Published publish(ReleaseServer& server, const std::string& version, int code, Checksum checksum) {
  Published release{version, apk_bytes(version, code),
                    "/operator/v" + version + "/operator-v" + version + ".apk"};
  server.route(release.apk_path, {200, release.apk, std::nullopt});
  server.route(release.apk_path + ".sha256",
               {200, sha256_of(release.apk) + "  operator-v" + version + ".apk\n", std::nullopt});
  json metadata = {{"version", version}, {"apk_url", server.url(release.apk_path)}};
  if (checksum == Checksum::Inline) {
    metadata["sha256"] = sha256_of(release.apk);
  } else {
    metadata["sha256_url"] = server.url(release.apk_path + ".sha256");
  }
  server.route("/operator/latest.json", {200, metadata.dump(), std::nullopt});
  return release;
}

// A farm whose runs have a HOME of their own (the downloads directory) and read the release
// metadata from `server`.
struct InstallFixture {
  explicit InstallFixture(const std::string& scenario, std::optional<ReleaseServer::Tls> tls = {})
      : farm({scenario}), server(std::move(tls)) {
    farm.set_env("HOME", home.path().string());
    farm.set_env("CLAWPERATOR_OPERATOR_METADATA_URL", server.url("/operator/latest.json"));
    farm.set_env("CLAWPERATOR_APK_METADATA_URL", "");
    farm.set_env("CURL_CA_BUNDLE", "");
    farm.set_env("SSL_CERT_FILE", "");
    farm.set_env("CLAWPERATOR_DOWNLOAD_STALL_MS", "");
    farm.set_env("CLAWPERATOR_DOWNLOAD_MAX_BYTES", "");
    for (const char* proxy :
         {"http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"}) {
      farm.set_env(proxy, "");
    }
  }

  fs::path downloads() const { return home.path() / ".clawperator" / "downloads"; }
  // The names in the downloads directory (none when it does not exist).
  std::vector<std::string> downloaded() const {
    std::vector<std::string> names;
    if (!fs::exists(downloads())) return names;
    for (const auto& entry : fs::directory_iterator(downloads())) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  RunResult install(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"operator", "install"};
    args.insert(args.end(), extra.begin(), extra.end());
    return farm.clawperator(args);
  }
  // The Operator's versionName on the device, "" when it is not installed.
  std::string version_on_device() const {
    const std::string dump =
        farm.adb({"-s", farm.serials().front(), "shell", "dumpsys", "package", kPackage}).out;
    const auto at = dump.find("versionName=");
    if (at == std::string::npos) return "";
    return dump.substr(at + 12, dump.find('\n', at) - at - 12);
  }

  TemporaryDirectory home{"operator-home"};
  Farm farm;
  ReleaseServer server;
};

json installed(const RunResult& result) {
  const json document = single_document(result);
  INFO(document.dump(2));
  CHECK(result.exit_code == 0);
  CHECK(document["ok"] == true);
  CHECK(document["disposition"] == json{{"delivery", "delivered_verified"}, {"retry", "safe"}});
  return document;
}

}  // namespace

TEST_CASE(
    "operator install over HTTPS: a test CA trusted through CURL_CA_BUNDLE, the cache "
    "reused, an up-to-date device left alone, --force",
    "[integration][operator-install]") {
  const TemporaryDirectory certificates("operator-ca");
  const TestCa ca = make_test_ca(certificates);
  InstallFixture fixture("fresh-phone", ca.server);
  const Published release = publish(fixture.server, "0.5.4", 504, Checksum::Inline);

  // Without the test CA the server is not trusted: TLS verification is on.
  const json untrusted = expect_error(fixture.install(), "OPERATOR_DOWNLOAD_FAILED", 3);
  CHECK(untrusted["details"]["resource"] == "metadata");
  CHECK(untrusted["details"]["reason"] == "network");
  CHECK(fixture.server.count("/operator/latest.json") == 0);  // no request got through TLS

  fixture.farm.set_env("CURL_CA_BUNDLE", ca.ca_file);
  const json first = installed(fixture.install());
  CHECK(first["deviceId"] == fixture.farm.serials().front());
  CHECK(first["operatorPackage"] == kPackage);
  CHECK(first["operatorVersion"] == "0.5.4");
  CHECK(first["previousVersion"].is_null());
  CHECK(first["metadataUrl"] == fixture.server.url("/operator/latest.json"));
  CHECK(first["apkUrl"] == fixture.server.url(release.apk_path));
  CHECK_FALSE(first.contains("sha256Url"));
  CHECK(first["sha256"] == sha256_of(release.apk));
  CHECK(first["checksumSource"] == "inline");
  CHECK(first["apkFile"] == "operator-v0.5.4.apk");
  CHECK(first["reused"] == false);
  CHECK(first["bytes"] == release.apk.size());
  CHECK(first["installed"] == true);
  CHECK_FALSE(first.contains("localPath"));  // the APK is on the device now
  CHECK(first["install"]["ok"] == true);
  CHECK(first["permissions"]["accessibility"]["ok"] == true);
  CHECK(first["verification"]["packageInstalled"] == true);
  CHECK(fixture.version_on_device() == "0.5.4");
  CHECK(fixture.downloaded() == std::vector<std::string>{"operator-v0.5.4.apk"});
  CHECK(clawperator::testing::mode_of(fixture.downloads()) == 0700);
  CHECK(clawperator::testing::read_file((fixture.downloads() / "operator-v0.5.4.apk").string()) ==
        release.apk);
  const RunResult doctor = fixture.farm.clawperator({"doctor"});
  INFO(doctor.out);
  CHECK(doctor.exit_code == 0);

  // The device has this release: left alone, nothing downloaded.
  const json again = installed(fixture.install());
  CHECK(again["installed"] == false);
  CHECK(again["skipped"] == "up_to_date");
  CHECK(again["previousVersion"] == "0.5.4");
  CHECK_FALSE(again.contains("install"));
  CHECK_FALSE(again.contains("reused"));

  // --force installs it again, from the cache: the server's log shows one download in all.
  const json forced = installed(fixture.install({"--force"}));
  CHECK(forced["installed"] == true);
  CHECK(forced["reused"] == true);
  CHECK(forced["previousVersion"] == "0.5.4");
  CHECK(fixture.server.count(release.apk_path) == 1);
  CHECK(fixture.server.count("/operator/latest.json") == 3);

  // `operator setup` without --apk is the same command.
  const json setup = installed(fixture.farm.clawperator({"operator", "setup", "--force"}));
  CHECK(setup["reused"] == true);
  CHECK(fixture.server.count(release.apk_path) == 1);
}

TEST_CASE("operator install: the checksum from sha256_url, an update over an older Operator",
          "[integration][operator-install]") {
  InstallFixture fixture("default");  // the Operator 0.5.3 is installed
  const Published release = publish(fixture.server, "0.5.4", 504, Checksum::External);
  const json document = installed(fixture.install());
  CHECK(document["previousVersion"] == "0.5.3");
  CHECK(document["installed"] == true);
  CHECK(document["checksumSource"] == "external");
  CHECK(document["sha256Url"] == fixture.server.url(release.apk_path + ".sha256"));
  CHECK(document["sha256"] == sha256_of(release.apk));
  CHECK(fixture.version_on_device() == "0.5.4");
  CHECK(fixture.server.requests() == std::vector<std::string>{"/operator/latest.json",
                                                              release.apk_path + ".sha256",
                                                              release.apk_path});
}

TEST_CASE("operator install: a device with the release or a newer one is left alone",
          "[integration][operator-install]") {
  InstallFixture fixture("default");  // the Operator 0.5.3 is installed
  SECTION("the same release; --force installs it again") {
    const Published release = publish(fixture.server, "0.5.3", 503, Checksum::Inline);
    const json same = installed(fixture.install());
    CHECK(same["installed"] == false);
    CHECK(same["skipped"] == "up_to_date");
    CHECK(same["message"] ==
          "Operator 0.5.3 is installed on " + fixture.farm.serials().front() +
              " (the release is 0.5.3); nothing was changed. --force installs the release again.");
    CHECK(fixture.server.count(release.apk_path) == 0);
    const json forced = installed(fixture.install({"--force"}));
    CHECK(forced["installed"] == true);
    CHECK(forced["reused"] == false);
    CHECK(fixture.server.count(release.apk_path) == 1);
  }
  SECTION("an older release") {
    const Published release = publish(fixture.server, "0.5.2", 502, Checksum::Inline);
    const json older = installed(fixture.install());
    CHECK(older["installed"] == false);
    CHECK(older["previousVersion"] == "0.5.3");
    CHECK(fixture.server.count(release.apk_path) == 0);
    CHECK(fixture.version_on_device() == "0.5.3");
  }
}

TEST_CASE("operator install --download-only and --operator-version",
          "[integration][operator-install]") {
  InstallFixture fixture("fresh-phone");
  const Published latest = publish(fixture.server, "0.5.4", 504, Checksum::Inline);
  const Published older = publish(fixture.server, "0.5.3", 503, Checksum::External);
  // publish() made latest.json name the last one; name 0.5.4 again.
  fixture.server.route("/operator/latest.json",
                       {200,
                        json{{"version", "0.5.4"},
                             {"apk_url", fixture.server.url(latest.apk_path)},
                             {"sha256", sha256_of(latest.apk)}}
                            .dump(),
                        std::nullopt});

  const json only = installed(fixture.install({"--download-only"}));
  CHECK(only["installed"] == false);
  CHECK(only["skipped"] == "download_only");
  CHECK_FALSE(only.contains("deviceId"));
  CHECK_FALSE(only.contains("previousVersion"));
  const std::string local = (fixture.downloads() / "operator-v0.5.4.apk").string();
  CHECK(only["localPath"] == local);  // the file is what was asked for
  CHECK(clawperator::testing::read_file(local) == latest.apk);
  CHECK(fixture.version_on_device().empty());

  // A version by the layout beside the metadata: vX.Y.Z/operator-vX.Y.Z.apk and its .sha256.
  const json pinned = installed(fixture.install({"--operator-version", "0.5.3"}));
  CHECK(pinned["operatorVersion"] == "0.5.3");
  CHECK(pinned["apkUrl"] == fixture.server.url(older.apk_path));
  CHECK(pinned["checksumSource"] == "external");
  CHECK(pinned["installed"] == true);
  CHECK(fixture.version_on_device() == "0.5.3");
  CHECK(fixture.downloaded() ==
        std::vector<std::string>{"operator-v0.5.3.apk", "operator-v0.5.4.apk"});
  CHECK(fixture.server.count("/operator/latest.json") == 1);  // --operator-version reads none
  expect_error(fixture.install({"--operator-version", "latest"}), "USAGE", 2);
}

TEST_CASE("operator install: a wrong checksum installs nothing and leaves no file",
          "[integration][operator-install]") {
  InstallFixture fixture("fresh-phone");
  SECTION("inline") {
    const Published release = publish(fixture.server, "0.5.4", 504, Checksum::Inline);
    fixture.server.route("/operator/latest.json",
                         {200,
                          json{{"version", "0.5.4"},
                               {"apk_url", fixture.server.url(release.apk_path)},
                               {"sha256", sha256_of("another APK")}}
                              .dump(),
                          std::nullopt});
    const json refused = expect_error(fixture.install(), "OPERATOR_CHECKSUM_FAILED", 3);
    CHECK(refused["details"]["expectedSha256"] == sha256_of("another APK"));
    CHECK(refused["details"]["actualSha256"] == sha256_of(release.apk));
    CHECK(refused["details"]["checksumSource"] == "inline");
    CHECK(refused["operatorVersion"] == "0.5.4");
  }
  SECTION("by address") {
    const Published release = publish(fixture.server, "0.5.4", 504, Checksum::External);
    fixture.server.route(release.apk_path + ".sha256",
                         {200, sha256_of("another APK") + "  operator-v0.5.4.apk\n", std::nullopt});
    const json refused = expect_error(fixture.install(), "OPERATOR_CHECKSUM_FAILED", 3);
    CHECK(refused["details"]["checksumSource"] == "external");
    CHECK(refused["details"]["sha256Url"] == fixture.server.url(release.apk_path + ".sha256"));
  }
  CHECK(fixture.version_on_device().empty());
  CHECK(fixture.downloaded().empty());
}

TEST_CASE("operator install: metadata that is not a release", "[integration][operator-install]") {
  InstallFixture fixture("fresh-phone");
  const auto serve_metadata = [&fixture](const json& metadata) {
    fixture.server.route("/operator/latest.json", {200, metadata.dump(), std::nullopt});
  };
  SECTION("no apk_url") {
    serve_metadata({{"version", "0.5.4"}, {"sha256", sha256_of("x")}});
    const json refused = expect_error(fixture.install(), "OPERATOR_METADATA_INVALID", 3);
    CHECK(refused["details"]["field"] == "apk_url");
    CHECK(refused["details"]["problem"] == "missing");
    CHECK(refused["details"]["metadataUrl"] == fixture.server.url("/operator/latest.json"));
  }
  SECTION("an APK address in plain http to another host") {
    serve_metadata({{"version", "0.5.4"},
                    {"apk_url", "http://downloads.example/operator-v0.5.4.apk"},
                    {"sha256", sha256_of("x")}});
    const json refused = expect_error(fixture.install(), "OPERATOR_METADATA_INVALID", 3);
    CHECK(refused["details"]["field"] == "apk_url");
  }
  SECTION("a .sha256 file that holds no checksum") {
    const Published release = publish(fixture.server, "0.5.4", 504, Checksum::External);
    fixture.server.route(release.apk_path + ".sha256", {200, "<html>hi</html>", std::nullopt});
    const json refused = expect_error(fixture.install(), "OPERATOR_METADATA_INVALID", 3);
    CHECK(refused["details"]["field"] == "sha256_url");
    CHECK(fixture.server.count(release.apk_path) == 0);
  }
  SECTION("not JSON") {
    fixture.server.route("/operator/latest.json", {200, "<html>", std::nullopt});
    const json refused = expect_error(fixture.install(), "OPERATOR_METADATA_INVALID", 3);
    CHECK_FALSE(refused["details"].contains("field"));
  }
  CHECK(fixture.downloaded().empty());
}

TEST_CASE("operator install: a 404, a stalled server and an APK over the size bound",
          "[integration][operator-install]") {
  InstallFixture fixture("fresh-phone");
  SECTION("no metadata: 404") {
    const json refused = expect_error(fixture.install(), "OPERATOR_DOWNLOAD_FAILED", 3);
    CHECK(refused["details"]["resource"] == "metadata");
    CHECK(refused["details"]["reason"] == "http_status");
    CHECK(refused["details"]["httpStatus"] == 404);
  }
  SECTION("no APK: 404") {
    const Published release = publish(fixture.server, "0.5.4", 504, Checksum::Inline);
    fixture.server.route(release.apk_path, {404, "gone", std::nullopt});
    const json refused = expect_error(fixture.install(), "OPERATOR_DOWNLOAD_FAILED", 3);
    CHECK(refused["details"]["resource"] == "apk");
    CHECK(refused["details"]["httpStatus"] == 404);
    CHECK(refused["operatorVersion"] == "0.5.4");
  }
  SECTION("the server stops sending") {
    const Published release = publish(fixture.server, "0.5.4", 504, Checksum::Inline);
    fixture.server.route(release.apk_path, {200, release.apk, std::size_t{4096}});
    fixture.farm.set_env("CLAWPERATOR_DOWNLOAD_STALL_MS", "1000");
    const json refused = expect_error(fixture.install(), "OPERATOR_DOWNLOAD_FAILED", 3);
    CHECK(refused["details"]["reason"] == "stalled");
    CHECK(refused["details"]["stallTimeoutMs"] == 1000);
  }
  SECTION("an APK larger than the bound") {
    publish(fixture.server, "0.5.4", 504, Checksum::Inline);
    fixture.farm.set_env("CLAWPERATOR_DOWNLOAD_MAX_BYTES", "10000");
    const json refused = expect_error(fixture.install(), "OPERATOR_DOWNLOAD_FAILED", 3);
    CHECK(refused["details"]["reason"] == "too_large");
    CHECK(refused["details"]["maxBytes"] == 10000);
  }
  CHECK(fixture.version_on_device().empty());
  CHECK(fixture.downloaded().empty());
}

TEST_CASE("operator install refuses what it may not fetch or install",
          "[integration][operator-install]") {
  InstallFixture fixture("fresh-phone");
  SECTION("a metadata address in plain http to another host: the flag") {
    const json refused = expect_error(
        fixture.install({"--metadata-url", "http://downloads.example/operator/latest.json"}),
        "USAGE", 2);
    CHECK(refused["details"]["flag"] == "--metadata-url");
  }
  SECTION("the same from the environment, the original's variable") {
    fixture.farm.set_env("CLAWPERATOR_OPERATOR_METADATA_URL", "");
    fixture.farm.set_env("CLAWPERATOR_APK_METADATA_URL", "http://downloads.example/latest.json");
    const json refused = expect_error(fixture.install(), "USAGE", 2);
    CHECK(refused["details"]["variable"] == "CLAWPERATOR_APK_METADATA_URL");
  }
  SECTION("the debug variant is not published") {
    const json refused = expect_error(fixture.install({"--operator-package", kPackage + ".dev"}),
                                      "OPERATOR_DOWNLOAD_UNSUPPORTED", 3);
    CHECK(refused["hint"].get<std::string>().find("operator setup --apk") != std::string::npos);
  }
  SECTION("--apk takes none of the download's flags") {
    const json refused =
        expect_error(fixture.install({"--apk", "operator.apk", "--force"}), "USAGE", 2);
    CHECK(refused["details"]["flag"] == "--force");
  }
  CHECK(fixture.server.requests().empty());
  CHECK(fixture.downloaded().empty());
}
