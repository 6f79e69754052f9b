#include "clawperator/cli/selector_flags.hpp"

#include <catch2/catch.hpp>

using namespace clawperator;
using namespace clawperator::cli;

namespace {

// One value per flag, each typed once.
TypedFlags flags(std::initializer_list<std::pair<const char*, const char*>> values) {
  TypedFlags typed;
  for (const auto& [name, value] : values) typed[name].push_back({value});
  return typed;
}

std::string matcher_of(const SelectorResolution& resolution) {
  REQUIRE(resolution.has_value());
  const auto& matcher = *resolution;
  REQUIRE(matcher);
  return matcher->dump();
}

contract::HostError error_of(const SelectorResolution& resolution) {
  REQUIRE_FALSE(resolution.has_value());
  return resolution.error();
}

void check_flag_error(const SelectorResolution& resolution, const std::string& message,
                      const std::string& flag = "") {
  const contract::HostError error = error_of(resolution);
  CHECK(error.code == "EXECUTION_VALIDATION_FAILED");
  CHECK(error.message == message);
  CHECK(contract::exit_code_of(error) == 2);
  if (!flag.empty()) CHECK(error.details["flag"] == flag);
}

}  // namespace

TEST_CASE("no selector flag gives no matcher", "[cli][selector]") {
  const TypedFlags typed = flags({{"--app", "x"}});
  const auto resolution = resolve_selector(typed, SelectorScope::Element);
  REQUIRE(resolution.has_value());
  CHECK_FALSE(*resolution);
  CHECK_FALSE(has_selector_flag(typed, SelectorScope::Element));
  CHECK_FALSE(has_selector_flag(flags({{"--text", "a"}}), SelectorScope::Container));
  CHECK(has_selector_flag(flags({{"--container-role", "list"}}), SelectorScope::Container));
  // A flag typed without a value still counts as an attempt at a selector.
  TypedFlags valueless;
  valueless["--role"].push_back({});
  CHECK(has_selector_flag(valueless, SelectorScope::Element));
}

TEST_CASE("shorthands map to NodeMatcher keys and combine", "[cli][selector]") {
  CHECK(matcher_of(resolve_selector(flags({{"--text", "OK"}}), SelectorScope::Element)) ==
        R"({"textEquals":"OK"})");
  CHECK(matcher_of(resolve_selector(flags({{"--role", "button"},
                                           {"--desc-contains", "Wi"},
                                           {"--text-contains", "F"},
                                           {"--id", "a:id/b"},
                                           {"--desc", "Wi-Fi"},
                                           {"--text", "x"}}),
                                    SelectorScope::Element)) ==
        R"({"textEquals":"x","textContains":"F","resourceId":"a:id/b",)"
        R"("contentDescEquals":"Wi-Fi","contentDescContains":"Wi","role":"button"})");
  CHECK(matcher_of(resolve_selector(
            flags({{"--container-id", "list"}, {"--container-text", "T"}, {"--text", "E"}}),
            SelectorScope::Container)) == R"({"textEquals":"T","resourceId":"list"})");
  // Values are kept as typed, surrounding spaces included.
  CHECK(matcher_of(resolve_selector(flags({{"--text", " Wi Fi "}}), SelectorScope::Element)) ==
        R"({"textEquals":" Wi Fi "})");
}

TEST_CASE("--selector JSON is used as it is", "[cli][selector]") {
  CHECK(matcher_of(resolve_selector(flags({{"--selector", R"({"resourceId":"x","bogus":1})"}}),
                                    SelectorScope::Element)) == R"({"resourceId":"x","bogus":1})");
  CHECK(matcher_of(resolve_selector(flags({{"--container-selector", R"({"role":"list"})"}}),
                                    SelectorScope::Container)) == R"({"role":"list"})");
  CHECK(matcher_of(resolve_selector(flags({{"--selector", "{}"}}), SelectorScope::Element)) ==
        "{}");
}

TEST_CASE("each selector flag rule has the original's message", "[cli][selector]") {
  const auto element = [](const TypedFlags& typed) {
    return resolve_selector(typed, SelectorScope::Element);
  };
  SECTION("repeated") {
    TypedFlags typed = flags({{"--id", "a"}});
    typed["--id"].push_back({"b"});
    check_flag_error(element(typed), "--id must not appear more than once", "--id");
  }
  SECTION("no value, or a value that looks like a flag") {
    TypedFlags typed;
    typed["--desc"].push_back({});
    check_flag_error(element(typed), "--desc requires a value", "--desc");
    check_flag_error(element(flags({{"--text", "-5"}})), "--text requires a value", "--text");
  }
  SECTION("a missing value is reported before the --selector conflict") {
    TypedFlags typed = flags({{"--selector", "{}"}});
    typed["--role"].push_back({});
    check_flag_error(element(typed), "--role requires a value", "--role");
  }
  SECTION("--selector with a shorthand") {
    check_flag_error(element(flags({{"--selector", R"({"textEquals":"x"})"}, {"--role", "b"}})),
                     "use --selector OR the simple flags, not both");
    check_flag_error(
        resolve_selector(flags({{"--container-selector", "{}"}, {"--container-id", "l"}}),
                         SelectorScope::Container),
        "use --container-selector OR the --container-* flags, not both");
  }
  SECTION("--selector values") {
    check_flag_error(element(flags({{"--selector", "  "}})), "--selector value must not be blank",
                     "--selector");
    check_flag_error(element(flags({{"--selector", "{nope"}})), "--selector must be valid JSON",
                     "--selector");
    for (const char* value : {"[1]", "null", "3", R"("x")"}) {
      CAPTURE(value);
      check_flag_error(element(flags({{"--selector", value}})), "--selector must be a JSON object",
                       "--selector");
    }
    check_flag_error(
        resolve_selector(flags({{"--container-selector", "[]"}}), SelectorScope::Container),
        "--container-selector must be a JSON object", "--container-selector");
  }
  SECTION("blank shorthand values") {
    check_flag_error(element(flags({{"--text", "OK"}, {"--desc", " "}})),
                     "--desc value must not be blank", "--desc");
    check_flag_error(resolve_selector(flags({{"--container-text", ""}}), SelectorScope::Container),
                     "--container-text value must not be blank", "--container-text");
  }
}

TEST_CASE("--coordinate takes two non-negative integers, once", "[cli][selector]") {
  const auto coordinate = [](std::vector<FlagOccurrence> occurrences) {
    TypedFlags typed;
    typed["--coordinate"] = std::move(occurrences);
    return resolve_coordinate(typed);
  };
  const auto absent = resolve_coordinate(flags({{"--text", "a"}}));
  REQUIRE(absent.has_value());
  CHECK_FALSE(*absent);

  const auto point = coordinate({{"540", "1200"}});
  REQUIRE(point.has_value());
  CHECK(point->value().x == 540);
  CHECK(point->value().y == 1200);
  const auto scientific = coordinate({{"1e2", "0"}});
  CHECK(scientific->value().x == 100);
  CHECK(scientific->value().y == 0);

  const auto repeated = coordinate({{"1", "2"}, {"3", "4"}});
  REQUIRE_FALSE(repeated.has_value());
  CHECK(repeated.error().message == "--coordinate must not appear more than once");
  for (const FlagOccurrence& values :
       std::vector<FlagOccurrence>{{}, {"1"}, {"-1", "2"}, {"1", "2.5"}, {"x", "2"}, {"1", ""}}) {
    CAPTURE(values);
    const auto bad = coordinate({values});
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().code == "EXECUTION_VALIDATION_FAILED");
    CHECK(bad.error().message == "--coordinate requires two non-negative integers (x y)");
  }
}

TEST_CASE("MISSING_SELECTOR lists the flags the command takes", "[cli][selector]") {
  const contract::HostError standard = missing_selector("read", SelectorChoices::Standard);
  CHECK(standard.code == "MISSING_SELECTOR");
  CHECK(contract::exit_code_of(standard) == 2);
  CHECK(standard.message ==
        "read requires a selector.\n\nUse one of:\n"
        "  --text <text>           Exact visible text\n"
        "  --text-contains <text>  Partial text match\n"
        "  --id <resource-id>      Android resource ID\n"
        "  --desc <text>           Content description\n"
        "  --desc-contains <text>  Partial content description\n"
        "  --role <role>           Element role\n"
        "  --selector <json>       Raw JSON (advanced)\n\n"
        "Examples:\n  clawperator read --text \"Wi-Fi\"\n"
        "  clawperator read --id \"button_submit\"");
  const contract::HostError click = missing_selector("click", SelectorChoices::WithCoordinate);
  CHECK(click.message.find("  --coordinate <x> <y>    Exact coordinates (pixels)\n") !=
        std::string::npos);
  CHECK(standard.message.find("--coordinate") == std::string::npos);
  const contract::HostError type = missing_selector("type", SelectorChoices::TypeTarget);
  CHECK(type.message ==
        "type requires a selector.\nUse one of:\n"
        "  --id <resource-id>      Android resource ID\n"
        "  --desc <text>           Content description\n"
        "  --desc-contains <text>  Partial content description\n"
        "  --role <role>           Element role\n"
        "  --text-contains <text>  Partial text match\n"
        "  --selector <json>       Raw JSON (advanced)\n"
        "Example:\n  clawperator type \"hello\" --role textfield");
}

TEST_CASE("repeated_flag names the first flag typed twice", "[cli][selector]") {
  TypedFlags typed = flags({{"--app", "a"}, {"--key", "k"}});
  const std::array<std::string_view, 2> names = {"--app", "--key"};
  CHECK(repeated_flag(typed, names));
  typed["--key"].push_back({});
  const auto status = repeated_flag(typed, names);
  REQUIRE_FALSE(status);
  const auto& error = status.error();
  CHECK(error.message == "--key must not appear more than once");
  CHECK(error.details["flag"] == "--key");
  CHECK(contract::exit_code_of(invalid_flags("x")) == 2);
  CHECK(contract::to_json(invalid_flags("x"))["details"]["phase"] == "usage");
}
