#include "clawperator/adb/shell_quote.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include "run_binary.hpp"

using namespace clawperator::adb;

TEST_CASE("single quotes are closed, escaped and reopened", "[adb][quote]") {
  CHECK(quote_for_device_shell("") == "''");
  CHECK(quote_for_device_shell("abc") == "'abc'");
  CHECK(quote_for_device_shell("it's") == "'it'\"'\"'s'");
  CHECK(broadcast_command("com.x", R"({"a":"b"})") ==
        "am broadcast -a 'app.clawperator.operator.ACTION_AGENT_COMMAND' -p 'com.x' --es "
        "'payload' '{\"a\":\"b\"}' --receiver-foreground");
  CHECK(redacted_broadcast_command("com.x").find("[REDACTED]") != std::string::npos);
}

// The device's sh must get back every payload byte for byte: 10,000 random strings
// full of shell metacharacters, decoded by a real POSIX sh in one run.
TEST_CASE("quoting round-trips through a real POSIX sh", "[adb][quote][property]") {
  const std::string alphabet_ascii = "abcXYZ019 '\"\\$`!*?[]{}()<>|&;#~=%^\n\t-";
  const std::vector<std::string> multibyte = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                              "\xE6\x97\xA5"};
  std::mt19937 random(20261130);
  std::vector<std::string> samples;
  samples.reserve(10000);
  for (int i = 0; i < 10000; ++i) {
    const int length = static_cast<int>(random() % 40);
    std::string sample;
    for (int j = 0; j < length; ++j) {
      if (random() % 8 == 0) {
        sample += multibyte[random() % multibyte.size()];
      } else {
        sample += alphabet_ascii[random() % alphabet_ascii.size()];
      }
    }
    samples.push_back(std::move(sample));
  }
  samples.push_back(R"({"commandId":"c'1","text":"it's $HOME `id` \"q\" \\n"})");

  const auto dir =
      std::filesystem::temp_directory_path() / ("clawperator-quote-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto script = dir / "decode.sh";
  {
    std::ofstream out(script, std::ios::binary);
    // \001 separates samples: it is in none of them.
    for (const std::string& sample : samples) {
      out << "printf '%s\\001' " << quote_for_device_shell(sample) << "\n";
    }
  }
  const auto result = clawperator::testing::run_binary("/bin/sh", {script.string()});
  std::filesystem::remove_all(dir);
  REQUIRE(result.exit_code == 0);
  std::vector<std::string> decoded;
  std::string current;
  for (const char c : result.out) {
    if (c == '\001') {
      decoded.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  REQUIRE(decoded.size() == samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (decoded[i] != samples[i]) {
      FAIL("sample " << i << " did not round-trip: " << samples[i]);
    }
  }
}
