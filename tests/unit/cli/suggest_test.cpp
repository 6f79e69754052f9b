#include "clawperator/suggest.hpp"

#include <catch2/catch.hpp>

using namespace clawperator;

TEST_CASE("edit distance", "[cli][suggest]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("exec", "exec") == 0);
  CHECK(edit_distance("exce", "exec") == 2);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
}

TEST_CASE("command suggestions stay within max(2, len/2) edits", "[cli][suggest]") {
  const std::vector<std::string> commands = {"exec", "errors", "execute"};
  CHECK(suggest_command("exce", commands) == "exec");
  CHECK(suggest_command("erors", commands) == "errors");
  CHECK_FALSE(suggest_command("zzzzzzzz", commands));
  // Ties go to the earlier (primary) candidate.
  CHECK(suggest_command("exe", commands) == "exec");
}

TEST_CASE("flag suggestions need similarity above 0.75", "[cli][suggest]") {
  const std::vector<std::string> flags = {"--validate-only", "--dry-run", "--device"};
  CHECK(suggest_flag("--valdate-only", flags) == "--validate-only");
  CHECK(suggest_flag("--dry-rn", flags) == "--dry-run");
  CHECK_FALSE(suggest_flag("--xyz", flags));
}
