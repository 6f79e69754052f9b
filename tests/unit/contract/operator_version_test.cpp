#include "clawperator/contract/operator_version.hpp"

#include <catch2/catch.hpp>

using namespace clawperator::contract;

TEST_CASE("Operator versions are plain releases, debug suffix ignored", "[contract][version]") {
  CHECK(normalize_version("  0.5.3-d \n") == "0.5.3");
  CHECK(normalize_version("0.5.3-d-d") == "0.5.3-d");
  CHECK(normalize_version("-d") == "-d");
  CHECK(parse_release_version("0.5.3") == ReleaseVersion{0, 5, 3});
  CHECK(parse_release_version("10.20.30") == ReleaseVersion{10, 20, 30});
  for (const char* bad : {"", "1", "1.2", "1.2.3.4", "1.2.3-beta", "v1.2.3", "1..3", "1.2.x",
                          "+1.2.3", "-1.2.3", "1.2.3 ", "99999999999.0.0"}) {
    INFO(bad);
    CHECK_FALSE(parse_release_version(bad));
  }
  CHECK(to_string(ReleaseVersion{0, 5, 0}) == "0.5.0");
  CHECK(supported_operator_range() == ">=0.5.0");
}

TEST_CASE("Operator compatibility is a range from 0.5.0 up", "[contract][version]") {
  CHECK(operator_compatibility("0.5.0") == Compatibility::Compatible);
  CHECK(operator_compatibility("0.5.3-d") == Compatibility::Compatible);
  CHECK(operator_compatibility("1.0.0") == Compatibility::Compatible);
  CHECK(operator_compatibility("0.4.99") == Compatibility::TooOld);
  CHECK(operator_compatibility("0.0.1") == Compatibility::TooOld);
  CHECK(operator_compatibility("0.6.0-rc1") == Compatibility::Invalid);
  CHECK(operator_compatibility("") == Compatibility::Invalid);
}
