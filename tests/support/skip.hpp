// A test that cannot run here says so: a skip is reported as a skip, never as a pass.
//
// Catch2 v2 has no skip of its own. SKIP_TEST(reason) records the skip and ends the running case;
// note_skip(reason) records that a part of it was not checked and lets it go on. The one main
// (tests/unit/main.cpp) then exits with kSkipExitCode when a case skipped and none failed, which
// each ctest test of a case that may skip takes as "Skipped" (SKIP_RETURN_CODE). Only a case
// tagged [may-skip] may skip: those are registered one ctest test each, so that a skip never
// hides the other cases of a shard; a skip in any other case fails the run.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace clawperator::testing {

// Automake's and ctest's conventional "skipped" exit status.
constexpr int kSkipExitCode = 77;

// The tag a case carries when it may skip.
constexpr const char* kMaySkipTag = "may-skip";

struct Skip {
  std::string test_case;
  std::string reason;
  bool may_skip = false;  // the case carries [may-skip]
};

// Every skip of this run, in order.
inline std::vector<Skip>& skips() {
  static std::vector<Skip> all;
  return all;
}

// The case running now (set by the main's listener), or null.
inline const Catch::TestCaseInfo*& running_case() {
  static const Catch::TestCaseInfo* info = nullptr;
  return info;
}

// Records that the running case did not check everything, for `reason`; it goes on.
inline void note_skip(const std::string& reason) {
  Skip skip;
  skip.reason = reason;
  if (const Catch::TestCaseInfo* info = running_case()) {
    skip.test_case = info->name;
    for (const std::string& tag : info->tags) skip.may_skip |= tag == kMaySkipTag;
  }
  skips().push_back(skip);
  WARN("skipped: " << reason);
  // The skip's own rules, checked where it happens (they also give a case that skips before its
  // first check an assertion, which --warn NoAssertions asks for): only a case tagged
  // [may-skip] may skip, and it says why.
  INFO("a skip in '" << skip.test_case << "': tag the case [may-skip] and give a reason");
  CHECK(skip.may_skip);
  CHECK_FALSE(reason.empty());
}

}  // namespace clawperator::testing

// Records the skip and ends the running case (a return from the TEST_CASE's body).
#define SKIP_TEST(reason)                      \
  do {                                         \
    ::clawperator::testing::note_skip(reason); \
    return;                                    \
  } while (false)
