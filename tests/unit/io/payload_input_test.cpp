#include "clawperator/io/payload_input.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <random>

#include "../scripted_device.hpp"
#include "clawperator/contract/limits.hpp"
#include "clawperator/json.hpp"
#include "clawperator/utf8.hpp"

using clawperator::find_invalid_utf8;
using clawperator::Json;
using clawperator::contract::HostError;
using clawperator::testing::TemporaryDirectory;
namespace contract = clawperator::contract;
namespace io = clawperator::io;

namespace {

const std::string kPayloadHead =
    R"({"commandId":"c1","taskId":"t1","source":"test","expectedFormat":"android-ui-automator",)"
    R"("timeoutMs":5000,"actions":[{"id":"a1","type":"enter_text","params":{"matcher":)"
    R"({"resourceId":"q"},"text":")";
const std::string kPayloadTail = R"("}}]})";

// The refusal of a payload whose first bad byte is `byte` at `offset`.
void check_refused(const contract::Outcome<Json>& loaded, const std::string& source, unsigned byte,
                   std::size_t offset) {
  REQUIRE_FALSE(loaded.has_value());
  const HostError& error = loaded.error();
  CHECK(error.code == "EXECUTION_VALIDATION_FAILED");
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", byte);
  CHECK(error.message == "Payload is not valid UTF-8 (byte " + std::string(hex) + " at offset " +
                             std::to_string(offset) + ")");
  CHECK(error.details["source"] == source);
  CHECK(error.details["path"] == "");
  CHECK(error.details["byteOffset"] == offset);
  CHECK(contract::exit_code_of(error) == 2);
  const contract::Disposition disposition = contract::disposition_of(error);
  CHECK(disposition.delivery == contract::Delivery::NotDelivered);
  CHECK(disposition.retry == contract::Retry::Safe);
  CHECK(contract::to_json(error)["details"]["phase"] == "validation");
}

}  // namespace

TEST_CASE("find_invalid_utf8: where text stops being UTF-8", "[io][utf8]") {
  SECTION("well-formed") {
    CHECK_FALSE(find_invalid_utf8(""));
    CHECK_FALSE(find_invalid_utf8("plain ASCII"));
    CHECK_FALSE(find_invalid_utf8("é € 漢字 🙂"));
    CHECK_FALSE(find_invalid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF, the last code point
    CHECK_FALSE(find_invalid_utf8(std::string(1000, 'a') + "\xC3\xA9" + std::string(70, 'b')));
  }
  SECTION("a bad first byte") {
    CHECK(find_invalid_utf8("\xFF") == 0u);
    CHECK(find_invalid_utf8("\x80 a lone continuation") == 0u);
    CHECK(find_invalid_utf8("\xF5\x80\x80\x80") == 0u);  // no lead byte above 0xF4
  }
  SECTION("a sequence cut short, by the end or by the next character") {
    CHECK(find_invalid_utf8("ab\xE2\x82") == 2u);
    CHECK(find_invalid_utf8("ab\xF0\x9F\x99") == 2u);
    CHECK(find_invalid_utf8("\xC3") == 0u);
    CHECK(find_invalid_utf8("x\xE2\x82y") == 1u);
  }
  SECTION("overlong forms") {
    CHECK(find_invalid_utf8("a\xC0\xAF") == 1u);             // '/' in two bytes
    CHECK(find_invalid_utf8("ab\xC1\xBF") == 2u);            //
    CHECK(find_invalid_utf8("abc\xE0\x80\xAF") == 3u);       // '/' in three bytes
    CHECK(find_invalid_utf8("abcd\xF0\x80\x80\xAF") == 4u);  // '/' in four bytes
  }
  SECTION("surrogates and beyond U+10FFFF") {
    CHECK(find_invalid_utf8("ok \xED\xA0\x80") == 3u);   // U+D800 encoded
    CHECK(find_invalid_utf8("\xED\xBF\xBF") == 0u);      // U+DFFF encoded
    CHECK_FALSE(find_invalid_utf8("\xED\x9F\xBF"));      // U+D7FF is fine
    CHECK(find_invalid_utf8("\xF4\x90\x80\x80") == 0u);  // U+110000
  }
  SECTION("offsets past the fast path's windows") {
    for (const std::size_t at : {15u, 16u, 63u, 64u, 65u, 127u, 200u, 4096u}) {
      CAPTURE(at);
      std::string text(at + 100, 'a');
      text[at] = '\xFF';
      CHECK(find_invalid_utf8(text) == at);
      text[at] = '\xC3';  // a lead byte followed by ASCII
      CHECK(find_invalid_utf8(text) == at);
      text.replace(at, 2, "\xC3\xA9");
      CHECK_FALSE(find_invalid_utf8(text));
    }
  }
  CHECK(clawperator::describe_invalid_utf8("ab\xFF", 2) == "byte 0xFF at offset 2");
}

TEST_CASE("find_invalid_utf8_string: the first string of a document that is not UTF-8",
          "[io][utf8]") {
  using clawperator::find_invalid_utf8_string;
  Json document = {{"commandId", "c-1"},
                   {"actions",
                    {{{"id", "a"}, {"type", "click"}, {"params", {{"text", "fine é"}}}},
                     {{"id", "b"}, {"params", {{"n", 3}, {"text", "ok"}}}}}}};
  CHECK_FALSE(find_invalid_utf8_string(document));
  CHECK_FALSE(find_invalid_utf8_string(Json()));

  document["actions"][1]["params"]["text"] = "ok\xED\xA0\x80";  // U+D800 encoded
  auto found = find_invalid_utf8_string(document);
  REQUIRE(found);
  CHECK(found->path == "actions.1.params.text");
  CHECK(found->offset == 2u);
  CHECK(found->description == "byte 0xED at offset 2");

  // The first in document order wins.
  document["actions"][0]["params"]["text"] = "\xFF";
  found = find_invalid_utf8_string(document);
  REQUIRE(found);
  CHECK(found->path == "actions.0.params.text");
  CHECK(found->offset == 0u);

  found = find_invalid_utf8_string(Json("a\xC3"));  // cut short at the end
  REQUIRE(found);
  CHECK(found->path.empty());
  CHECK(found->offset == 1u);
}

TEST_CASE("find_invalid_utf8 agrees with the JSON reader on every string", "[io][utf8]") {
  // Bytes a JSON string may hold unescaped, with the non-ASCII ones weighted up.
  std::mt19937 random(20261201);
  std::vector<char> alphabet = {'a', ' ', '~'};
  for (int byte = 0x80; byte <= 0xFF; ++byte) alphabet.push_back(static_cast<char>(byte));
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<std::size_t> length(0, 12);
  for (int round = 0; round < 20000; ++round) {
    std::string text(length(random), ' ');
    for (char& c : text) c = alphabet[pick(random)];
    const auto offset = find_invalid_utf8(text);
    const bool parsed = !clawperator::parse_json("\"" + text + "\"").is_discarded();
    CAPTURE(Json(text).dump(-1, ' ', true, Json::error_handler_t::replace));
    CHECK(parsed == !offset.has_value());
    if (offset) {
      CHECK_FALSE(find_invalid_utf8(text.substr(0, *offset)));
    }
  }
}

TEST_CASE("payloads that are not UTF-8 are refused with the byte's offset", "[io][utf8]") {
  TemporaryDirectory dir("payload-utf8");
  const std::string payload = kPayloadHead + "caf\xFF" + kPayloadTail;
  const std::size_t offset = kPayloadHead.size() + 3;

  SECTION("a file with 0xFF inside a string") {
    const std::string path = (dir.path() / "bad.json").string();
    std::ofstream(path, std::ios::binary) << payload;
    const auto loaded = io::load_payload(path);
    check_refused(loaded, "file", 0xFF, offset);
    CHECK(loaded.error().details["file"] == path);
  }
  SECTION("stdin") {
    const std::string path = (dir.path() / "stdin.json").string();
    std::ofstream(path, std::ios::binary) << payload;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    check_refused(io::load_payload("-", fd), "stdin", 0xFF, offset);
    ::close(fd);
  }
  SECTION("inline: the offset counts from the argument as given") {
    check_refused(io::load_payload("  \n" + payload), "inline", 0xFF, offset + 3);
    check_refused(io::load_payload("[\xED\xA0\x80]"), "inline", 0xED, 1);
  }
  SECTION("a surrogate in a file") {
    const std::string path = (dir.path() / "surrogate.json").string();
    std::ofstream(path, std::ios::binary) << kPayloadHead + "\xED\xA0\x80" + kPayloadTail;
    check_refused(io::load_payload(path), "file", 0xED, kPayloadHead.size());
  }
  SECTION("the same payload in UTF-8 is read") {
    const std::string path = (dir.path() / "good.json").string();
    std::ofstream(path, std::ios::binary) << kPayloadHead + "caf\xC3\xA9" + kPayloadTail;
    const auto loaded = io::load_payload(path);
    REQUIRE(loaded.has_value());
    CHECK((*loaded)["actions"][0]["params"]["text"] == "caf\xC3\xA9");
  }
}

TEST_CASE("JSON nested past the limit is JSON_TOO_DEEP, not too large and not invalid",
          "[io][payload][depth]") {
  using clawperator::json_nesting_depth;
  namespace limits = clawperator::contract::limits;
  CHECK(json_nesting_depth("{}", 64) == 1);
  CHECK(json_nesting_depth(R"({"a":[{"b":[]}]})", 64) == 4);
  // Brackets inside strings, escaped quotes included, are text.
  CHECK(json_nesting_depth(R"({"a":"[[[{{{\"[[["})", 64) == 1);
  CHECK(json_nesting_depth(std::string(10000, '[') + std::string(10000, ']'), 64) == 65);
  // The parser stops at a NUL byte, and so does the count.
  CHECK(json_nesting_depth(std::string("[1]\0[[[[", 8), 64) == 1);

  const auto nested = [](std::size_t depth) {
    std::string text = kPayloadHead + "x" + kPayloadTail;
    text.pop_back();  // the closing brace: a member nested `depth` deep goes before it
    std::string deep;
    for (std::size_t i = 0; i < depth; ++i) deep += '[';
    for (std::size_t i = 0; i < depth; ++i) deep += ']';
    return text + R"(,"extra":)" + deep + "}";
  };
  // Exactly at the limit (the payload object is the first level): parsed, then judged by the
  // validator as any other payload.
  CHECK(io::load_payload(nested(limits::kMaxJsonDepth - 1)).has_value());
  // One past it, and 7,000 deep in 14 KB: this code, this message, exit 2.
  for (const std::size_t depth : {limits::kMaxJsonDepth, std::size_t{7000}}) {
    const auto loaded = io::load_payload(nested(depth));
    REQUIRE_FALSE(loaded);
    const HostError& error = loaded.error();
    CHECK(error.code == "JSON_TOO_DEEP");
    CHECK(error.message == "The payload (inline) nests deeper than 64 levels");
    CHECK(error.details["maxDepth"] == 64);
    CHECK(contract::exit_code_of(error) == 2);
  }
}
