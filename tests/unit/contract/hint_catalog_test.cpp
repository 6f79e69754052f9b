#include "clawperator/contract/hint_catalog.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>

#include "clawperator/contract/error_catalog.hpp"
#include "test_locations.hpp"

using namespace clawperator::contract;

TEST_CASE("every HintId has one row, in order, raised with catalog codes", "[contract][hints]") {
  const auto rows = hint_catalog();
  REQUIRE_FALSE(rows.empty());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const HintRow& row = rows[i];
    CAPTURE(i, row.text_template);
    CHECK(static_cast<std::size_t>(row.id) == i);
    CHECK(&hint_row(row.id) == &row);
    CHECK_FALSE(row.codes.front().empty());
    for (const std::string_view code : row.codes) {
      CAPTURE(code);
      if (!code.empty()) CHECK(find_error(code) != nullptr);
    }
  }
}

TEST_CASE("each row renders with the placeholders it declares and no brace left",
          "[contract][hints]") {
  for (const HintRow& row : hint_catalog()) {
    CAPTURE(row.text_template);
    std::vector<HintValue> values;
    for (const std::string_view name : hint_placeholders(row.id)) {
      CAPTURE(name);
      CHECK(std::regex_match(std::string(name), std::regex("[a-z][a-z_]*")));
      values.emplace_back(name, "X");
    }
    const std::string text = hint_text(row.id, values);
    CHECK(text.find('{') == std::string::npos);
    CHECK(text.find('}') == std::string::npos);
    CHECK_FALSE(text.empty());
  }
}

TEST_CASE("hints render the values where their placeholders stand", "[contract][hints]") {
  CHECK(hint_placeholders(HintId::ServiceUnavailableRepairOrReinstall) ==
        std::vector<std::string_view>{"serial"});
  CHECK(hint_text(HintId::ServiceUnavailableRepairOrReinstall, {{"serial", "emulator-5554"}}) ==
        "Accessibility service not running. Run 'clawperator doctor --fix --device "
        "emulator-5554' to diagnose and repair, or 'clawperator operator install --force "
        "--device emulator-5554' to reinstall.");
  CHECK(hint_text(HintId::ResultLinesPrunedByLogd, {{"lines", "12"}}) ==
        "logd dropped 12 of the Operator's log lines while the result was being logged (its "
        "chatty pruning), so the chunked result is incomplete. --result-transport direct (or "
        "auto) brings results over a socket instead of logcat and avoids this. Inspect device "
        "state with `clawperator snapshot` before repeating a mutating request.");
  CHECK(hint_text(HintId::NoCorrelatedLogLines,
                  {{"package", "com.clawperator.operator"}, {"serial", "R58M"}}) ==
        "No correlated Android log lines were captured. This often indicates an APK/CLI version "
        "mismatch or an accessibility service issue. Run 'clawperator doctor --device R58M "
        "--operator-package com.clawperator.operator' to diagnose.");
  CHECK(hint_text(HintId::EnableNotificationsInSettings) ==
        "Enable it on the device (Settings > Notifications), or rerun "
        "'clawperator grant-device-permissions'.");
  CHECK(hint_text(HintId::ChooseOperatorVariant,
                  {{"release_package", "com.clawperator.operator"},
                   {"debug_package", "com.clawperator.operator.dev"}}) ==
        "Pass --operator-package com.clawperator.operator or com.clawperator.operator.dev.");
  // A value is copied as it is, braces and all, and never read as a template.
  CHECK(hint_text(HintId::InstallOperatorWithCommand, {{"command", "run {serial}"}}) ==
        "Install it with: run {serial}");
}

TEST_CASE("a missing or unexpected hint value is a bug", "[contract][hints]") {
  CHECK_THROWS_AS(hint_text(HintId::InstallOperator), std::logic_error);
  CHECK_THROWS_AS(hint_text(HintId::InstallRequestedOperatorPackage, {{"serial", "R58M"}}),
                  std::logic_error);
  CHECK_THROWS_AS(hint_text(HintId::InstallRefusedAsDowngrade, {{"serial", "R58M"}}),
                  std::logic_error);
  CHECK_THROWS_AS(hint_text(HintId::InstallOperator, {{"serial", "R58M"}, {"device", "R58M"}}),
                  std::logic_error);
}

TEST_CASE("errors lists a code's situational hints", "[contract][hints]") {
  CHECK(situation_hints("NODE_NOT_FOUND").empty());
  CHECK(situation_hints("").empty());
  CHECK(situation_hints("OPERATOR_INSTALL_FAILED") ==
        std::vector<std::string_view>{hint_row(HintId::InstallRefusedAsDowngrade).text_template,
                                      hint_row(HintId::InstallFailedSeeAdbOutput).text_template});
  CHECK(situation_hints("RESULT_ENVELOPE_TIMEOUT").size() == 3);
}

// The rule of docs/architecture.md §2: a hint sentence lives in a table, never at the site
// that raises the error. An assignment to a hint names no string literal but a placeholder's
// name ({"serial", serial}) or a value it compares with (reason == "…").
TEST_CASE("no source composes a hint from string literals", "[contract][hints]") {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(CLAWPERATOR_SOURCE_DIR) / "src";
  const std::regex assignment(R"((\.hint|->hint|\["hint"\])\s*=[^=][^;]*;)");
  const std::regex placeholder_name(R"re(\{"[a-z_]+",)re");
  const std::regex compared(R"re(==\s*"[^"]*")re");
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    const fs::path relative = entry.path().lexically_relative(src);
    if (!entry.is_regular_file() || entry.path().extension() != ".cpp" ||
        *relative.begin() == "vdevice") {
      continue;
    }
    ++files;
    std::ifstream file(entry.path(), std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    const std::string source = text.str();
    for (std::sregex_iterator it(source.begin(), source.end(), assignment), end; it != end; ++it) {
      const std::string statement = it->str();
      std::string value = statement.substr(statement.find('=') + 1);
      value = std::regex_replace(std::regex_replace(value, placeholder_name, "{"), compared, "");
      CAPTURE(relative.string(), statement);
      CHECK(value.find('"') == std::string::npos);
    }
  }
  CHECK(files > 100);
}
