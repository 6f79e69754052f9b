// clawperator::parse_json and clawperator::dump_json against nlohmann, the reference they must
// equal: the same documents accepted, equal values of the same types, byte-identical text.
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/json.hpp"

using clawperator::Json;

namespace {

// Equal values of the same JSON types: nlohmann's == would call 1, 1u and 1.0 equal.
bool same_json(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Json::value_t::object: {
      const auto& left = a.get_ref<const Json::object_t&>();
      const auto& right = b.get_ref<const Json::object_t&>();
      if (left.size() != right.size()) return false;
      for (auto l = left.begin(), r = right.begin(); l != left.end(); ++l, ++r) {
        if (l->first != r->first || !same_json(l->second, r->second)) return false;
      }
      return true;
    }
    case Json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!same_json(a[i], b[i])) return false;
      }
      return true;
    }
    case Json::value_t::number_float:
      return std::bit_cast<std::uint64_t>(a.get<double>()) ==
             std::bit_cast<std::uint64_t>(b.get<double>());
    default:
      return a == b;
  }
}

// Whether both parsers agree on text; on disagreement, says how (for the failure message).
std::string parse_disagreement(std::string_view text) {
  const Json fast = clawperator::parse_json(text);
  const Json reference = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (fast.is_discarded() != reference.is_discarded()) {
    return std::string("accepted by ") +
           (fast.is_discarded() ? "nlohmann only" : "parse_json only");
  }
  if (!reference.is_discarded() && !same_json(fast, reference)) return "different values";
  return {};
}

std::string dump_disagreement(const Json& value) {
  for (const int indent : {-1, 2}) {
    const std::string expected = value.dump(indent, ' ', false, Json::error_handler_t::replace);
    if (clawperator::dump_json(value, indent == 2) != expected) {
      return indent == 2 ? "pretty output differs" : "compact output differs";
    }
  }
  return {};
}

std::string printable(std::string_view bytes) {
  static constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7F && byte != '\\') {
      out += c;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0x0F];
    }
  }
  return out;
}

#define CHECK_PARSE_AGREES(text)                             \
  do {                                                       \
    const std::string parse_text_ = (text);                  \
    INFO("text: " << printable(parse_text_));                \
    CHECK(parse_disagreement(parse_text_) == std::string()); \
  } while (false)

// Writes random JSON text directly (not through a serializer), so that every spelling occurs:
// whitespace, escapes of all kinds, raw UTF-8, number forms, and now and then something
// invalid.
class JsonTextGenerator {
 public:
  explicit JsonTextGenerator(std::uint64_t seed) : random_(seed) {}

  std::string document() {
    std::string text;
    if (chance(0.02)) text += "\xEF\xBB\xBF";
    text += whitespace();
    value(text, 0);
    text += whitespace();
    return text;
  }

  void value(std::string& out, int depth) {
    const int kind = depth >= 6 ? static_cast<int>(pick(5)) : static_cast<int>(pick(8));
    switch (kind) {
      case 0:
        out += one_of({"true", "false", "null"});
        break;
      case 1:
      case 2:
        number(out);
        break;
      case 3:
      case 4:
        string(out);
        break;
      case 5:
      case 6:
        object(out, depth);
        break;
      default:
        array(out, depth);
        break;
    }
  }

  void string(std::string& out) {
    out += '"';
    const std::size_t pieces = chance(0.02) ? pick(300) : pick(8);
    for (std::size_t i = 0; i < pieces; ++i) string_piece(out);
    out += '"';
  }

  bool chance(double probability) { return std::bernoulli_distribution(probability)(random_); }
  std::size_t pick(std::size_t bound) {
    return std::uniform_int_distribution<std::size_t>(0, bound - 1)(random_);
  }
  char random_byte() { return static_cast<char>(pick(256)); }
  std::mt19937_64& engine() { return random_; }

 private:
  std::string one_of(std::initializer_list<const char*> choices) {
    return *(choices.begin() + pick(choices.size()));
  }

  std::string whitespace() {
    if (!chance(0.2)) return {};
    std::string out;
    for (std::size_t i = pick(4); i > 0; --i) out += " \t\n\r"[pick(4)];
    return out;
  }

  void object(std::string& out, int depth) {
    out += '{';
    out += whitespace();
    // Some objects are large, so that duplicate keys are found through the hash index too.
    const std::size_t members = chance(0.1) ? 10 + pick(40) : pick(5);
    for (std::size_t i = 0; i < members; ++i) {
      if (i > 0) out += ',';
      out += whitespace();
      if (chance(0.7)) {
        out += "\"k" + std::to_string(pick(members + 2)) + '"';  // repeats happen
      } else {
        string(out);
      }
      out += whitespace() + ':' + whitespace();
      value(out, depth + 1);
      out += whitespace();
    }
    out += '}';
  }

  void array(std::string& out, int depth) {
    out += '[';
    out += whitespace();
    const std::size_t elements = pick(6);
    for (std::size_t i = 0; i < elements; ++i) {
      if (i > 0) out += ',';
      out += whitespace();
      value(out, depth + 1);
      out += whitespace();
    }
    out += ']';
  }

  void number(std::string& out) {
    if (chance(0.3)) {
      out += one_of({"0",
                     "-0",
                     "0.0",
                     "-0.0",
                     "1",
                     "-1",
                     "01",
                     "-01",
                     "1.",
                     ".5",
                     "-",
                     "+1",
                     "1e5",
                     "1E+5",
                     "1e-5",
                     "1e",
                     "1e+",
                     "2.5e-3",
                     "1e400",
                     "-1e400",
                     "1e-400",
                     "4.9e-324",
                     "2.2250738585072014e-308",
                     "1.7976931348623157e308",
                     "18446744073709551615",
                     "18446744073709551616",
                     "9223372036854775807",
                     "9223372036854775808",
                     "-9223372036854775808",
                     "-9223372036854775809",
                     "123456789012345678901234567890",
                     "0.1",
                     "3.14159265358979323846",
                     "1.0000000000000002",
                     "100000000000000000000000e-3",
                     "0e0",
                     "-0e-0",
                     "1.5E2",
                     "0x10",
                     "Infinity",
                     "NaN",
                     "1_000"});
      return;
    }
    if (chance(0.3)) out += '-';
    const std::size_t digits = 1 + pick(chance(0.1) ? 25 : 6);
    for (std::size_t i = 0; i < digits; ++i) {
      out += static_cast<char>('0' + (i == 0 && digits > 1 ? 1 + pick(9) : pick(10)));
    }
    if (chance(0.3)) {
      out += '.';
      for (std::size_t i = 1 + pick(8); i > 0; --i) out += static_cast<char>('0' + pick(10));
    }
    if (chance(0.2)) {
      out += chance(0.5) ? 'e' : 'E';
      if (chance(0.5)) out += chance(0.5) ? '+' : '-';
      for (std::size_t i = 1 + pick(3); i > 0; --i) out += static_cast<char>('0' + pick(10));
    }
  }

  void string_piece(std::string& out) {
    switch (pick(12)) {
      case 0:
      case 1:
      case 2: {  // printable ASCII, sometimes long (SIMD blocks, staging, reserve paths)
        const std::size_t length = chance(0.005) ? pick(20000) : pick(40);
        for (std::size_t i = 0; i < length; ++i) {
          char c = static_cast<char>(0x20 + pick(0x5F));
          if (c == '"' || c == '\\') c = 'x';
          out += c;
        }
        break;
      }
      case 3:
      case 4:
        out += one_of({"\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"});
        break;
      case 5: {  // \u escapes, mostly valid
        static constexpr std::string_view kHex = "0123456789abcdefABCDEF";
        if (chance(0.7)) {
          const auto codepoint = static_cast<unsigned>(pick(0x10000));
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, chance(0.5) ? "\\u%04x" : "\\u%04X", codepoint);
          out += buffer;
        } else {
          out += one_of({"\\ud83d\\ude00", "\\uD83D\\uDE00", "\\udbff\\udfff", "\\ud800\\udc00",
                         "\\ud800", "\\udc00", "\\ud800x", "\\ud800\\u0041", "\\ud800\\",
                         "\\ud800\\ud800", "\\u00", "\\u12g4", "\\u0000", "\\uDFFF"});
          if (chance(0.2)) out += kHex[pick(kHex.size())];
        }
        break;
      }
      case 6:
      case 7:  // valid multi-byte UTF-8
        out += one_of({"\xC3\xA9", "\xC3\x9F", "\xE2\x82\xAC", "\xE6\xBC\xA2\xE5\xAD\x97",
                       "\xF0\x9F\x99\x82", "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBF", "\xC2\x80",
                       "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80", "\xF0\x90\x80\x80"});
        break;
      case 8:
        if (chance(0.3)) {  // invalid UTF-8 or raw control bytes
          out += one_of({"\x80",
                         "\xBF",
                         "\xC0\x80",
                         "\xC1\xBF",
                         "\xC2",
                         "\xE0\x80\x80",
                         "\xE0\x9F\xBF",
                         "\xED\xA0\x80",
                         "\xED\xBF\xBF",
                         "\xF0\x80\x80\x80",
                         "\xF0\x8F\xBF\xBF",
                         "\xF4\x90\x80\x80",
                         "\xF5\x80\x80\x80",
                         "\xFF",
                         "\xE2\x82",
                         "\xF0\x9F\x99",
                         "\x01",
                         "\x1F",
                         "\t",
                         "\n"});
        } else {
          out += "\x7F";
        }
        break;
      default:
        if (chance(0.02)) {  // a bad escape
          out += one_of({"\\a", "\\x41", "\\'", "\\U0041", "\\0", "\\"});
        } else {
          out += "abc";
        }
        break;
    }
  }

  std::mt19937_64 random_;
};

std::string mutate(std::string text, JsonTextGenerator& generator) {
  const std::size_t mutations = 1 + generator.pick(3);
  for (std::size_t m = 0; m < mutations && !text.empty(); ++m) {
    const std::size_t at = generator.pick(text.size());
    switch (generator.pick(6)) {
      case 0:
        text[at] = generator.random_byte();
        break;
      case 1: {
        static constexpr std::string_view kSpecial = "\"\\{}[],:-+.eE0 \t\n\x80\xC3\xFFu/";
        text.insert(at, 1, kSpecial[generator.pick(kSpecial.size())]);
        break;
      }
      case 2:
        text.erase(at, 1);
        break;
      case 3:
        text.resize(at);
        break;
      case 4:
        text.insert(at, text.substr(generator.pick(text.size()), generator.pick(8)));
        break;
      default:
        text += generator.chance(0.5) ? " x" : ",";
        break;
    }
  }
  return text;
}

}  // namespace

TEST_CASE("parse_json: random documents agree with nlohmann", "[transport][json]") {
  JsonTextGenerator generator(0xC1A3);
  std::size_t accepted = 0;
  std::size_t rejected = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::string text = generator.document();
    CHECK_PARSE_AGREES(text);
    (Json::parse(text, nullptr, false).is_discarded() ? rejected : accepted) += 1;
    CHECK_PARSE_AGREES(mutate(text, generator));
  }
  // Both sides of every decision are exercised.
  CHECK(accepted > 1000);
  CHECK(rejected > 200);
}

TEST_CASE("parse_json: numbers get nlohmann's types and values", "[transport][json]") {
  for (const char* number : {"0",
                             "-0",
                             "0.0",
                             "-0.0",
                             "7",
                             "-7",
                             "1e2",
                             "1E2",
                             "1e+2",
                             "1e-2",
                             "1.5",
                             "-1.5",
                             "18446744073709551615",
                             "18446744073709551616",
                             "9223372036854775807",
                             "9223372036854775808",
                             "-9223372036854775808",
                             "-9223372036854775809",
                             "1e308",
                             "1e309",
                             "-1e309",
                             "1e-320",
                             "1e-400",
                             "-1e-400",
                             "0.30000000000000004",
                             "123456789e-15",
                             "00",
                             "01",
                             "-",
                             "--1",
                             "1.",
                             "1.e5",
                             ".1",
                             "1e",
                             "1e+",
                             "+1",
                             "1.5.5",
                             "0x1",
                             "1 2"}) {
    CHECK_PARSE_AGREES(number);
    CHECK_PARSE_AGREES(std::string("[") + number + "]");
    CHECK_PARSE_AGREES(std::string("{\"n\":") + number + "}");
  }
}

TEST_CASE("parse_json: framing, literals and BOM", "[transport][json]") {
  for (const char* text : {"",
                           " ",
                           "\xEF\xBB\xBF",
                           "\xEF\xBB\xBF{}",
                           "\xEF\xBB{}",
                           "\xEF{}",
                           " \xEF\xBB\xBF{}",
                           "\xEF\xBB\xBF\xEF\xBB\xBF{}",
                           "{}",
                           "[]",
                           "{} ",
                           "{}x",
                           "{},",
                           "[1,]",
                           "[,1]",
                           "{\"a\"}",
                           "{\"a\":}",
                           "{\"a\":1,}",
                           "{,}",
                           "{\"a\" : 1 , \"b\" : [ 1 , 2 ] }",
                           "true",
                           "tru",
                           "truex",
                           "nul",
                           "null null",
                           "\"x\"",
                           "\"x",
                           "'x'",
                           "[\"a\"\"b\"]",
                           "{1:2}",
                           "[1 2]",
                           "\t\r\n[\t\r\n]\t\r\n",
                           "\v[]",
                           "[]\f"}) {
    CHECK_PARSE_AGREES(text);
  }
  CHECK_PARSE_AGREES(std::string("[\0]", 3));
  CHECK_PARSE_AGREES(std::string("[1]\0", 4));
  // nlohmann stops reading at a NUL byte outside strings.
  CHECK_PARSE_AGREES(std::string("[1] \0 garbage", 14));
  CHECK_PARSE_AGREES(std::string("12\0x", 4));
  CHECK_PARSE_AGREES(std::string("[1\0]", 4));
  CHECK_PARSE_AGREES(std::string("\0", 1));
  CHECK_PARSE_AGREES(std::string(" \0[]", 4));
  CHECK_PARSE_AGREES(std::string("tr\0ue", 6));
  CHECK_PARSE_AGREES(std::string("\"a\0b\"", 5));
}

TEST_CASE("parse_json: every one- and two-byte string body", "[transport][json]") {
  for (int first = 0; first < 256; ++first) {
    const char a = static_cast<char>(first);
    CHECK_PARSE_AGREES(std::string("\"") + a + "\"");
    for (int second = 0; second < 256; ++second) {
      const std::string text = std::string("\"") + a + static_cast<char>(second) + "\"";
      // Fails only on disagreement; a CHECK per case would be 65536 assertions.
      if (!parse_disagreement(text).empty()) CHECK_PARSE_AGREES(text);
    }
  }
}

TEST_CASE("parse_json: three- and four-byte sequences around every boundary", "[transport][json]") {
  std::vector<std::string> disagreements;
  const std::vector<int> continuation = {0x00, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x81, 0x8F,
                                         0x90, 0x9F, 0xA0, 0xA1, 0xBF, 0xC0, 0xC1, 0xC2,
                                         0xDF, 0xE0, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  for (int lead = 0xC0; lead < 0x100; ++lead) {
    for (const int b2 : continuation) {
      for (const int b3 : continuation) {
        for (const int b4 : {0x41, 0x80, 0xBF, 0xC0}) {
          const std::string text{'"',
                                 static_cast<char>(lead),
                                 static_cast<char>(b2),
                                 static_cast<char>(b3),
                                 static_cast<char>(b4),
                                 '"'};
          if (!parse_disagreement(text).empty()) disagreements.push_back(text);
          const std::string cut = text.substr(0, 4) + '"';
          if (!parse_disagreement(cut).empty()) disagreements.push_back(cut);
        }
      }
    }
  }
  // One assertion for ~190k cases; the first disagreement, if any, says what differs.
  for (std::size_t i = 0; i < std::min<std::size_t>(disagreements.size(), 3); ++i) {
    CHECK_PARSE_AGREES(disagreements[i]);
  }
  CHECK(disagreements.empty());
}

TEST_CASE("parse_json: long strings, with and without escapes", "[transport][json]") {
  JsonTextGenerator generator(77);
  for (const std::size_t length : {15, 16, 17, 31, 32, 33, 4095, 4096, 4097, 70000, 300000}) {
    std::string plain(length, 'a');
    CHECK_PARSE_AGREES('"' + plain + '"');
    // Escapes at every distance from the block and staging boundaries.
    std::string escaped;
    for (std::size_t i = 0; i < length; ++i) {
      escaped += generator.chance(0.1) ? "\\\"" : generator.chance(0.02) ? "é" : "x";
    }
    CHECK_PARSE_AGREES('"' + escaped + '"');
    CHECK_PARSE_AGREES("[\"" + escaped + "\", \"" + plain + "\"]");
    // A long string followed by far more input (the reserve-then-shrink path).
    CHECK_PARSE_AGREES("[\"" + escaped + "\", \"" + plain + plain + plain + "\"]");
    // Broken near the end, where the vector loop hands over to the byte loop.
    for (const char* tail : {"\x01", "\xC3", "\\", "\\u12", "\\ud800"}) {
      CHECK_PARSE_AGREES('"' + escaped + tail + '"');
      CHECK_PARSE_AGREES('"' + escaped + tail);
    }
  }
}

TEST_CASE("parse_json: nesting deeper than the recursion limit still agrees", "[transport][json]") {
  for (const std::size_t depth : {100, 511, 512, 513, 600, 5000}) {
    const std::string arrays = std::string(depth, '[') + std::string(depth, ']');
    CHECK_PARSE_AGREES(arrays);
    CHECK_PARSE_AGREES(arrays.substr(0, arrays.size() - 1));
    std::string objects;
    for (std::size_t i = 0; i < depth; ++i) objects += "{\"a\":";
    objects += "1" + std::string(depth, '}');
    CHECK_PARSE_AGREES(objects);
    CHECK_PARSE_AGREES(objects + "x");
  }
}

TEST_CASE("parse_json: duplicate keys keep their first place and their last value",
          "[transport][json]") {
  CHECK_PARSE_AGREES(R"({"a":1,"b":2,"a":3})");
  CHECK_PARSE_AGREES(R"({"a":{"x":1},"a":[1],"a":{"y":2}})");
  std::string large = "{";
  for (int i = 0; i < 100; ++i)
    large += "\"k" + std::to_string(i % 37) + "\":" + std::to_string(i) + ",";
  large += "\"k\\u0030\":\"escaped key\"}";
  CHECK_PARSE_AGREES(large);
  const Json parsed = clawperator::parse_json(large);
  REQUIRE(parsed.is_object());
  CHECK(parsed.size() == 37);  // k0 to k36: "k\u0030" is k0 again
  CHECK(parsed["k0"] == "escaped key");
  CHECK(parsed["k1"] == 75);
}

TEST_CASE("dump_json: random documents print as nlohmann prints them", "[transport][json]") {
  JsonTextGenerator generator(0xD0);
  int compared = 0;
  for (int i = 0; i < 3000; ++i) {
    const Json value = Json::parse(generator.document(), nullptr, false);
    if (value.is_discarded()) continue;
    ++compared;
    INFO("document: " << printable(value.dump(-1, ' ', false, Json::error_handler_t::replace)));
    CHECK(dump_disagreement(value) == std::string());
  }
  CHECK(compared > 1000);
}

TEST_CASE("dump_json: strings of arbitrary bytes are replaced as nlohmann replaces them",
          "[transport][json]") {
  std::size_t mismatches = 0;  // one assertion for all the cases
  const auto note_mismatch = [&](const std::string& what) {
    if (++mismatches <= 3) WARN("differs for " << what);
  };
  const auto agrees = [](const std::string& bytes) {
    return dump_disagreement(Json(bytes)).empty();
  };
  // Also as a key, and inside containers in both layouts.
  const auto agrees_nested = [](const std::string& bytes) {
    return dump_disagreement(Json{{bytes, Json::array({bytes, 1})}}).empty();
  };
  for (int first = 0; first < 256; ++first) {
    for (int second = 0; second < 256; ++second) {
      const std::string bytes{static_cast<char>(first), static_cast<char>(second)};
      if (!agrees(bytes)) FAIL("differs for " << printable(bytes));
      if (second == 0 && !agrees(bytes.substr(0, 1))) FAIL("differs for " << printable(bytes));
    }
  }
  const std::vector<int> alphabet = {0x00, 0x08, 0x0A, 0x1F, 0x20, 0x22, 0x41, 0x5C,
                                     0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0,
                                     0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
                                     0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
  for (const int a : alphabet) {
    for (const int b : alphabet) {
      for (const int c : alphabet) {
        const std::string three{static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)};
        if (!agrees(three)) note_mismatch(printable(three));
        for (const int d : {0x41, 0x80, 0xC0}) {
          const std::string four = three + static_cast<char>(d);
          if (!agrees(four)) note_mismatch(printable(four));
        }
      }
    }
  }
  JsonTextGenerator generator(5);
  for (int i = 0; i < 3000; ++i) {
    std::string bytes;
    const std::size_t length = generator.chance(0.02) ? generator.pick(80000) : generator.pick(64);
    for (std::size_t j = 0; j < length; ++j) {
      bytes += generator.chance(0.8) ? static_cast<char>('a' + generator.pick(26))
                                     : generator.random_byte();
    }
    if (!agrees(bytes) || !agrees_nested(bytes)) {
      note_mismatch(printable(bytes.substr(0, 200)));
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("dump_json: scalars, empty containers and nesting in both layouts", "[transport][json]") {
  const Json value = {
      {"null", nullptr},
      {"bools", {true, false}},
      {"ints",
       {0, -1, std::numeric_limits<std::int64_t>::min(),
        std::numeric_limits<std::uint64_t>::max()}},
      {"floats",
       {0.0, -0.0, 1.0, 0.1, 1e100, -2.5e-300, 123456.789, std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN()}},
      {"empty", {{"object", Json::object()}, {"array", Json::array()}, {"string", ""}}},
      {"nested", {{{"a", {{"b", {1, {2, {3}}}}}}}}},
      {"keys with \"quotes\" and \xFF", "value\n\t\x01"}};
  CHECK(dump_disagreement(value) == std::string());
  CHECK(dump_disagreement(Json::object()) == std::string());
  CHECK(dump_disagreement(Json::array()) == std::string());
  CHECK(dump_disagreement(Json(nullptr)) == std::string());
  CHECK(dump_disagreement(Json(Json::value_t::discarded)) == std::string());
  // Binary values only nlohmann writes: dump_json hands the document over whole.
  Json with_binary = {{"a", 1}, {"bin", Json::binary({1, 2, 3}, 42)}, {"c", {Json::binary({})}}};
  CHECK(dump_disagreement(with_binary) == std::string());
}

TEST_CASE("dump_json_to hands over the same text in pieces", "[json]") {
  std::string big;
  for (int i = 0; big.size() < (std::size_t{3} << 20); ++i) {
    big += "<node text=\"caf\xC3\xA9 \\ line\n\" index=\"" + std::to_string(i) + "\"/>\t";
  }
  Json document = Json::object();
  document["ok"] = true;
  document["envelope"] = Json{{"stepResults", Json::array({Json{{"data", Json{{"text", big}}}}})}};
  Json many = Json::array();
  for (int i = 0; i < 100000; ++i) many.push_back(Json{{"i", i}, {"s", "x\"y"}});
  document["many"] = std::move(many);
  for (const bool pretty : {false, true}) {
    std::string streamed;
    std::size_t pieces = 0;
    std::size_t largest = 0;
    clawperator::dump_json_to(document, pretty, [&](std::string_view piece) {
      streamed.append(piece);
      ++pieces;
      largest = std::max(largest, piece.size());
    });
    CHECK(streamed == clawperator::dump_json(document, pretty));
    CHECK(pieces > 3);
    // No piece is much larger than the flush size: the text is never held whole.
    CHECK(largest < (std::size_t{1} << 20) + 8192);
  }
  std::string small;
  clawperator::dump_json_to(Json{{"a", 1}}, false, [&](std::string_view piece) { small += piece; });
  CHECK(small == R"({"a":1})");
}

// Not for the file after this one in a unity batch (cmake/ClawperatorUnity.cmake).
#undef CHECK_PARSE_AGREES
