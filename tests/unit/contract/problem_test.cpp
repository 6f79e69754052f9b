// Problem (problem.hpp): the string error with its place, and the one text it is rendered as.
#include "clawperator/problem.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <type_traits>

#include "clawperator/expected.hpp"

using clawperator::Expected;
using clawperator::Problem;
using clawperator::Unexpected;

namespace {

Expected<int, Problem> positive(int value) {
  if (value <= 0) return Unexpected(Problem{"value", "must be positive"});
  return value;
}

Expected<int, Problem> doubled(int value) {
  CLAWPERATOR_TRY_ASSIGN(const int checked, positive(value));
  return checked * 2;
}

}  // namespace

TEST_CASE("a problem reads as path: message, or the message alone", "[problem]") {
  CHECK(Problem{"checkpoints[0].id", "expected a string"}.text() ==
        "checkpoints[0].id: expected a string");
  CHECK(Problem{"", "scenario is not valid JSON"}.text() == "scenario is not valid JSON");
  // The parts stay apart for a caller that reports them apart (a `details` field).
  const Problem problem{"faults.direct", "unknown fault \"x\""};
  CHECK(problem.path == "faults.direct");
  CHECK(problem.message == "unknown fault \"x\"");
  CHECK(Problem{}.text().empty());
}

TEST_CASE("a bare message never becomes a problem's path", "[problem]") {
  STATIC_REQUIRE_FALSE(std::is_constructible_v<Problem, std::string>);
  STATIC_REQUIRE_FALSE(std::is_constructible_v<Problem, const char*>);
  STATIC_REQUIRE_FALSE(std::is_constructible_v<Expected<int, Problem>, Unexpected<std::string>>);
}

TEST_CASE("a problem propagates unchanged through CLAWPERATOR_TRY_ASSIGN", "[problem]") {
  CHECK(doubled(2).value() == 4);
  const auto failed = doubled(0);
  REQUIRE_FALSE(failed);
  CHECK(failed.error() == Problem{"value", "must be positive"});
}
