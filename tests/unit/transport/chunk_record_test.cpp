// The chunk record fast path against nlohmann: whatever the scanner accepts, nlohmann reads as
// the same fields; and a reassembler decides every sequence the same whichever path its records
// take.
#include "clawperator/transport/chunk_record.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "clawperator/transport/chunk_reassembler.hpp"
#include "transport_test_support.hpp"

using namespace clawperator::transport;
using clawperator::transport::test::big_envelope_json;
using clawperator::transport::test::kCommandId;
using clawperator::transport::test::kTaskId;

namespace {

// A record as text: members in the given order, each value as raw JSON text.
using Members = std::vector<std::pair<std::string, std::string>>;

std::string record_text(const Members& members, const std::string& space) {
  std::string text = "{" + space;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (i > 0) text += "," + space;
    text += "\"" + members[i].first + "\"" + space + ":" + space + members[i].second + space;
  }
  return text + "}";
}

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

Members operator_members(std::string_view line, std::size_t index) {
  const std::size_t count = (line.size() + 1023) / 1024;
  return {{"commandId", quoted(kCommandId)},
          {"taskId", quoted(kTaskId)},
          {"index", std::to_string(index)},
          {"count", std::to_string(count)},
          {"byteLength", std::to_string(line.size())},
          {"sha256", quoted(sha256_hex(line))},
          {"data", quoted(encode_base64(line.substr(index * 1024, 1024)))}};
}

class RecordMutator {
 public:
  explicit RecordMutator(std::uint64_t seed) : random_(seed) {}

  bool chance(double probability) { return std::bernoulli_distribution(probability)(random_); }
  std::size_t pick(std::size_t bound) {
    return std::uniform_int_distribution<std::size_t>(0, bound - 1)(random_);
  }

  // Another spelling of a value, equal or not: what a faulty or unusual Operator might send.
  std::string replacement(const std::string& key, const std::string& value) {
    const bool is_string = !value.empty() && value.front() == '"';
    switch (pick(14)) {
      case 0:
        return one_of({"null", "true", "false", "{}", "[]", "[1]", "{\"a\":1}"});
      case 1:
        return one_of({"-1", "-0", "0", "1", "01", "1.0", "1e2", "-1.5", "18446744073709551615",
                       "18446744073709551616", "99999999999999999999", "9223372036854775808",
                       "65536", "65537", "67108864", "67108865"});
      case 2:
        return is_string ? value.substr(1, value.size() - 2) : quoted(value);  // type swapped
      case 3:
        if (!is_string || value.size() < 3) return value + "0";
        // The same text with one character escaped: equal meaning, the slow path's to read.
        return value.substr(0, 1) + "\\u00" + hex(static_cast<unsigned char>(value[1])) +
               value.substr(2);
      case 4:
        return is_string ? value.substr(0, value.size() - 1) + "\\/\"" : value;  // "…/"
      case 5:
        return is_string ? value.substr(0, value.size() - 1) + "é\"" : value;
      case 6:
        return is_string ? value.substr(0, value.size() - 1) + "\x01\"" : value;
      case 7:
        return quoted("");
      case 8:
        return quoted(std::string(129, 't'));
      case 9:
        return key == "sha256" ? quoted(sha256_hex("other")) : value;
      case 10:
        if (!is_digits(value)) return value;
        return std::to_string(std::stoull(value) + 1);
      case 11:
        if (!is_digits(value) || value == "0") return value;
        return std::to_string(std::stoull(value) - 1);
      case 12:
        return is_string ? value.substr(0, value.size() - 2) + "A\"" : value;  // one char off
      default:
        return value + " ";
    }
  }

  Members mutate(Members members) {
    switch (pick(10)) {
      case 0:
      case 1:
      case 2:
      case 3: {
        auto& member = members[pick(members.size())];
        member.second = replacement(member.first, member.second);
        break;
      }
      case 4:
        members.erase(members.begin() + static_cast<std::ptrdiff_t>(pick(members.size())));
        break;
      case 5:
        members.push_back(members[pick(members.size())]);  // a duplicate key
        break;
      case 6:
        members.emplace_back(one_of({"extra", "commandID", "index "}), "1");
        break;
      case 7:
        std::shuffle(members.begin(), members.end(), random_);
        break;
      case 8:
        members[pick(members.size())].first += chance(0.5) ? "\\u0041" : "";
        break;
      default:
        break;
    }
    return members;
  }

  std::string space() {
    if (!chance(0.1)) return {};
    return std::string(1, " \t\n\r"[pick(4)]);
  }

  std::string damage(std::string text) {
    if (!chance(0.1) || text.empty()) return text;
    const std::size_t at = pick(text.size());
    switch (pick(3)) {
      case 0:
        return text.substr(0, at);
      case 1:
        text[at] = static_cast<char>(pick(256));
        return text;
      default:
        return text + one_of({"x", ",", "}", " "});
    }
  }

  std::mt19937_64& engine() { return random_; }

 private:
  static bool is_digits(const std::string& value) {
    return !value.empty() && value.size() < 19 &&
           value.find_first_not_of("0123456789") == std::string::npos;
  }
  static std::string hex(unsigned char byte) {
    static constexpr std::string_view kHex = "0123456789abcdef";
    return {kHex[byte >> 4], kHex[byte & 0x0F]};
  }
  std::string one_of(std::initializer_list<const char*> choices) {
    return *(choices.begin() + pick(choices.size()));
  }

  std::mt19937_64 random_;
};

// The same record in a spelling the scanner always leaves to nlohmann, with the same meaning.
std::string through_nlohmann(const std::string& message) {
  if (!message.ends_with('}') || message.ends_with("{}")) return message;
  return message.substr(0, message.size() - 1) + ",\"zz-unknown\":0}";
}

}  // namespace

TEST_CASE("chunk records: the Operator's records take the fast path", "[transport][chunks]") {
  const std::string line =
      std::string(kResultPrefix) + big_envelope_json(kCommandId, kTaskId, 5000);
  for (const auto& record : test::chunk_records(line, kCommandId, kTaskId)) {
    const std::string text = record.message().substr(kChunkPrefix.size());
    const std::optional<ChunkRecordFields> fast = scan_chunk_record(text);
    REQUIRE(fast.has_value());
    const auto parsed = nlohmann::json::parse(text);
    CHECK(*fast == chunk_fields_from_json(parsed));
    CHECK(fast->index.kind == ChunkField::Kind::Unsigned);
    CHECK(fast->data.kind == ChunkField::Kind::String);
  }
  // Whitespace and any member order are plain JSON too.
  const Members members = operator_members(line, 0);
  for (const std::string space : {" ", "\n\t", "\r\n  "}) {
    Members reordered(members.rbegin(), members.rend());
    const std::string text = space + record_text(reordered, space) + space;
    const std::optional<ChunkRecordFields> fast = scan_chunk_record(text);
    REQUIRE(fast.has_value());
    CHECK(*fast == chunk_fields_from_json(nlohmann::json::parse(text)));
  }
}

TEST_CASE("chunk records: what the scanner accepts, nlohmann reads the same",
          "[transport][chunks]") {
  const std::string line =
      std::string(kResultPrefix) + big_envelope_json(kCommandId, kTaskId, 4000);
  RecordMutator mutator(1234);
  std::size_t fast = 0;
  std::size_t slow = 0;
  for (int i = 0; i < 20000; ++i) {
    Members members = operator_members(line, mutator.pick(4));
    for (std::size_t m = mutator.pick(3); m > 0; --m) members = mutator.mutate(std::move(members));
    const std::string text = mutator.damage(record_text(members, mutator.space()));
    const std::optional<ChunkRecordFields> scanned = scan_chunk_record(text);
    if (!scanned) {
      ++slow;
      continue;
    }
    ++fast;
    INFO("record: " << text);
    const auto parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    REQUIRE_FALSE(parsed.is_discarded());
    REQUIRE(parsed.is_object());
    REQUIRE(*scanned == chunk_fields_from_json(parsed));
  }
  CHECK(fast > 5000);
  CHECK(slow > 5000);
}

TEST_CASE("chunk records: either path gives every sequence the same outcome",
          "[transport][chunks]") {
  RecordMutator mutator(99);
  for (int trial = 0; trial < 1500; ++trial) {
    const std::string line = std::string(kResultPrefix) +
                             big_envelope_json(kCommandId, kTaskId, 2500 + mutator.pick(3000));
    const std::size_t count = (line.size() + 1023) / 1024;
    std::vector<std::string> messages;
    for (std::size_t index = 0; index < count; ++index) {
      Members members = operator_members(line, index);
      if (mutator.chance(0.15)) members = mutator.mutate(std::move(members));
      std::string text = record_text(members, mutator.space());
      if (mutator.chance(0.03)) text = mutator.damage(text);
      messages.push_back(std::string(kChunkPrefix) + " " + text);
      if (mutator.chance(0.03)) messages.push_back(messages.back());  // a repeat
    }
    if (mutator.chance(0.1)) std::shuffle(messages.begin(), messages.end(), mutator.engine());

    std::optional<std::string> expected_task;
    if (mutator.chance(0.3)) expected_task = mutator.chance(0.8) ? kTaskId : "task-other";
    ChunkReassembler fast(kCommandId, expected_task);
    ChunkReassembler slow(kCommandId, expected_task);
    for (const std::string& message : messages) {
      INFO("record: " << message);
      REQUIRE(fast.feed(message) == slow.feed(through_nlohmann(message)));
      REQUIRE(fast.diagnostics() == slow.diagnostics());
    }
    REQUIRE(fast.complete() == slow.complete());
    REQUIRE(fast.failure().has_value() == slow.failure().has_value());
    if (fast.failure()) {
      CHECK(fast.failure()->kind == slow.failure()->kind);
      CHECK(fast.failure()->reason == slow.failure()->reason);
      CHECK(fast.failure()->diagnostics == slow.failure()->diagnostics);
    }
    CHECK(fast.take_line() == slow.take_line());
  }
}
