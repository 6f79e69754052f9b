// What every test of the built binary checks about its output: exactly one
// JSON document on stdout, and for refusals the code, exit code and a
// not-delivered, safe-to-retry disposition. Include after <catch2/catch.hpp>.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "run_binary.hpp"

namespace clawperator::testing {

// stdout must be exactly one JSON object followed by one newline.
inline nlohmann::json single_document(const RunResult& result) {
  INFO("stdout: " << result.out.substr(0, 2000) << "\nstderr: " << result.err.substr(0, 2000));
  REQUIRE(result.signal == 0);
  REQUIRE(!result.out.empty());
  REQUIRE(result.out.back() == '\n');
  REQUIRE(result.out.find('\n') == result.out.size() - 1);
  const nlohmann::json document = nlohmann::json::parse(result.out, nullptr, false);
  REQUIRE_FALSE(document.is_discarded());
  REQUIRE(document.is_object());
  return document;
}

// A refusal before anything reached a device.
inline nlohmann::json expect_error(const RunResult& result, const std::string& code,
                                   int exit_code) {
  const nlohmann::json document = single_document(result);
  CHECK(document.value("ok", true) == false);
  REQUIRE(document.value("code", "") == code);
  CHECK(result.exit_code == exit_code);
  CHECK(document["disposition"]["delivery"] == "not_delivered");
  CHECK(document["disposition"]["retry"] == "safe");
  return document;
}

}  // namespace clawperator::testing
