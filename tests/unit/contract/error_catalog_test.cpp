#include "clawperator/contract/error_catalog.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

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

#ifdef CLAWPERATOR_SHARED_DIR
TEST_CASE("the catalog covers the original's public error contract", "[contract][catalog]") {
  std::ifstream doc(CLAWPERATOR_SHARED_DIR "/reference/clawperator-errors.txt");
  REQUIRE(doc.good());
  std::stringstream text;
  text << doc.rdbuf();
  const std::string all = text.str();
  const auto start = all.find("Public Error Codes");
  const auto end = all.find("Fast Triage", start);
  REQUIRE(start != std::string::npos);
  const std::string table = all.substr(start, end - start);
  const std::regex code_line("\n`([A-Z0-9_]+)`\t");
  std::size_t count = 0;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), code_line);
       it != std::sregex_iterator(); ++it) {
    const std::string code = (*it)[1];
    CAPTURE(code);
    CHECK(find_error(code) != nullptr);
    ++count;
  }
  CHECK(count == 119);
}
#endif

TEST_CASE("labels derive from codes", "[contract][catalog]") {
  CHECK(derived_label("MULTIPLE_DEVICES_DEVICE_ID_REQUIRED") ==
        "Multiple devices device id required");
  CHECK(derived_label("UI_TREE_UNAVAILABLE") == "Ui tree unavailable");
  CHECK(derived_label("") == "");
}

TEST_CASE("docs/errors.md is generated from the catalog table", "[contract][catalog]") {
  std::ifstream file(CLAWPERATOR_SOURCE_DIR "/docs/errors.md", std::ios::binary);
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  INFO("regenerate with: cmake --build build --target docs");
  CHECK(text.str() == render_error_catalog_markdown());
}
