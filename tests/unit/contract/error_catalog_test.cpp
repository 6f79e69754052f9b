#include "clawperator/contract/error_catalog.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "test_locations.hpp"

using namespace clawperator::contract;

TEST_CASE("the catalog holds every public code once", "[contract][catalog]") {
  const auto rows = error_catalog();
  CHECK(rows.size() >= 123);
  std::set<std::string_view> seen;
  for (const CatalogEntry& row : rows) {
    CAPTURE(row.code);
    CHECK(seen.insert(row.code).second);
    CHECK_FALSE(row.family.empty());
    CHECK_FALSE(row.meaning.empty());
    CHECK_FALSE(row.recovery.empty());
    CHECK((row.exit_code == 1 || row.exit_code == 2 || row.exit_code == 3 || row.exit_code == 4 ||
           row.exit_code == 70));
    // Usage codes are never sent; a code with a plan must be safe to retry.
    if (row.exit_code == 2) CHECK(row.delivery == Delivery::NotDelivered);
    if (row.strategy != RecoveryStrategy::None) CHECK(row.delivery == Delivery::NotDelivered);
  }
  for (const char* code : {"SERVICE_UNAVAILABLE", "USAGE", "UNKNOWN_COMMAND", "MISSING_SELECTOR",
                           "INTERNAL_ERROR", "NODE_NOT_FOUND", "RESULT_TRANSPORT_SPAWN_FAILED"}) {
    CAPTURE(code);
    CHECK(find_error(code) != nullptr);
  }
  CHECK(find_error("NOPE") == nullptr);
}

TEST_CASE("the catalog covers the original's public error contract", "[contract][catalog]") {
  // tests/data keeps the original's list of codes, so that every clone checks all of them.
  std::ifstream list(std::string(CLAWPERATOR_SOURCE_DIR) + "/tests/data/original-error-codes.txt");
  REQUIRE(list.good());
  std::set<std::string> codes;
  for (std::string line; std::getline(list, line);) {
    if (line.empty() || line.front() == '#') continue;
    CAPTURE(line);
    CHECK(std::regex_match(line, std::regex("[A-Z0-9_]+")));
    CHECK(codes.insert(line).second);
    CHECK(find_error(line) != nullptr);
  }
  CHECK(codes.size() == 119);
}

TEST_CASE("labels derive from codes", "[contract][catalog]") {
  CHECK(derived_label("MULTIPLE_DEVICES_DEVICE_ID_REQUIRED") ==
        "Multiple devices device id required");
  CHECK(derived_label("UI_TREE_UNAVAILABLE") == "Ui tree unavailable");
  CHECK(derived_label("") == "");
}

TEST_CASE("docs/errors.md is generated from the catalog table", "[contract][catalog]") {
  std::ifstream file(std::string(CLAWPERATOR_SOURCE_DIR) + "/docs/errors.md", std::ios::binary);
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  INFO("regenerate with: cmake --build build --target docs");
  CHECK(text.str() == render_error_catalog_markdown());
}

TEST_CASE("every code has an HTTP status, and only INTERNAL_ERROR is 500", "[contract][catalog]") {
  std::size_t rows = 0;
  for (const CatalogEntry& row : error_catalog()) {
    ++rows;
    CAPTURE(row.code);
    CHECK(row.http_status >= 200);
    CHECK(row.http_status <= 599);
    CHECK((row.http_status == 500) == (row.code == "INTERNAL_ERROR"));
    // A request a caller must change is 4xx, never the server's fault. POLICY_INVALID is the
    // CLI user's own --policy (exit 2) but a server's policy over HTTP, never the request's.
    if (row.exit_code == 2 && row.code != "POLICY_INVALID") {
      CHECK((row.http_status >= 400 && row.http_status < 500));
    }
  }
  CHECK(rows > 160);
}
