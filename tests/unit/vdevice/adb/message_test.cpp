#include "vdevice/adb/message.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {

using namespace clawperator::vdevice::adb;

std::vector<Message> decode_in_pieces(const std::string& wire, std::size_t piece) {
  MessageDecoder decoder;
  std::vector<Message> messages;
  for (std::size_t at = 0; at < wire.size(); at += piece) {
    decoder.feed(std::string_view(wire).substr(at, piece));
    while (std::optional<Message> message = decoder.next()) messages.push_back(*message);
  }
  CHECK(decoder.error() == MessageDecoder::Error::None);
  CHECK(decoder.buffered_bytes() == 0);
  return messages;
}

}  // namespace

TEST_CASE("command words spell their names in little-endian order", "[vdevice][adb]") {
  CHECK(command_name(kCnxn) == "CNXN");
  CHECK(command_name(kAuth) == "AUTH");
  CHECK(command_name(kOpen) == "OPEN");
  CHECK(command_name(kOkay) == "OKAY");
  CHECK(command_name(kClse) == "CLSE");
  CHECK(command_name(kWrte) == "WRTE");
  CHECK(command_name(0x12345678) == "0x12345678");
}

TEST_CASE("a message encodes as a little-endian header and its payload", "[vdevice][adb]") {
  const std::string wire = encode_message(Message{kWrte, 0x01020304, 7, "ab\xff"});
  REQUIRE(wire.size() == kHeaderSize + 3);
  const std::string expected_header = std::string("WRTE") + std::string("\x04\x03\x02\x01", 4) +
                                      std::string("\x07\0\0\0", 4) + std::string("\x03\0\0\0", 4) +
                                      // 'a' + 'b' + 0xff = 0x61 + 0x62 + 0xff = 0x1c2
                                      std::string("\xc2\x01\0\0", 4) +
                                      std::string("\xa8\xad\xab\xba", 4);
  CHECK(wire.substr(0, kHeaderSize) == expected_header);
  CHECK(wire.substr(kHeaderSize) == "ab\xff");
  CHECK(payload_checksum("") == 0);
  CHECK(payload_checksum(std::string(1000, '\xff')) == 255000);
}

TEST_CASE("the decoder reassembles messages from pieces of any size", "[vdevice][adb]") {
  std::string wire;
  append_message(wire, kCnxn, kProtocolVersion, kMaxPayload, "host::features=shell_v2");
  append_message(wire, kOkay, 1, 2);
  append_message(wire, kWrte, 3, 4, std::string(70000, 'x'));
  append_message(wire, kClse, 0, 9, std::string("\0\0", 2));
  for (const std::size_t piece :
       {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{23}, std::size_t{24},
        std::size_t{25}, std::size_t{4096}, wire.size()}) {
    INFO("piece " << piece);
    const std::vector<Message> messages = decode_in_pieces(wire, piece);
    REQUIRE(messages.size() == 4);
    CHECK(messages[0].command == kCnxn);
    CHECK(messages[0].arg0 == kProtocolVersion);
    CHECK(messages[0].arg1 == kMaxPayload);
    CHECK(messages[0].payload == "host::features=shell_v2");
    CHECK(messages[1].command == kOkay);
    CHECK(messages[1].arg0 == 1);
    CHECK(messages[1].arg1 == 2);
    CHECK(messages[1].payload.empty());
    CHECK(messages[2].payload == std::string(70000, 'x'));
    CHECK(messages[3].command == kClse);
    CHECK(messages[3].payload == std::string("\0\0", 2));
  }
}

TEST_CASE("the decoder ignores data_check, as adb 29 does", "[vdevice][adb]") {
  std::string wire = encode_message(Message{kWrte, 1, 2, "abc"});
  wire[16] = 0;  // a 0x01000001 host sends 0 here
  MessageDecoder decoder;
  decoder.feed(wire);
  const std::optional<Message> message = decoder.next();
  REQUIRE(message);
  CHECK(message->payload == "abc");
}

TEST_CASE("the decoder rejects a bad magic for good", "[vdevice][adb]") {
  std::string wire = encode_message(Message{kOkay, 1, 2, {}});
  wire[20] ^= 1;
  MessageDecoder decoder;
  // The header is judged as soon as it is complete, before any payload arrives.
  decoder.feed(wire.substr(0, 23));
  CHECK_FALSE(decoder.next());
  CHECK(decoder.error() == MessageDecoder::Error::None);
  decoder.feed(wire.substr(23));
  CHECK_FALSE(decoder.next());
  CHECK(decoder.error() == MessageDecoder::Error::BadMagic);
  CHECK(to_string(decoder.error()) == "bad magic");
  decoder.feed(encode_message(Message{kOkay, 1, 2, {}}));
  CHECK_FALSE(decoder.next());
}

TEST_CASE("the decoder rejects a payload over the negotiated limit", "[vdevice][adb]") {
  MessageDecoder decoder(4096);
  decoder.feed(encode_message(Message{kWrte, 1, 2, std::string(4096, 'a')}));
  CHECK(decoder.next());
  std::string wire = encode_message(Message{kWrte, 1, 2, std::string(4097, 'a')});
  decoder.feed(wire.substr(0, kHeaderSize));  // the length alone condemns it
  CHECK_FALSE(decoder.next());
  CHECK(decoder.error() == MessageDecoder::Error::PayloadTooLarge);

  MessageDecoder default_limit;
  CHECK(default_limit.max_payload() == kMaxPayload);
  std::string huge;
  append_message(huge, kWrte, 1, 2, {});
  huge[12] = '\x01';
  huge[14] = '\x10';  // 0x00100001 = 1 MiB + 1
  default_limit.feed(huge);
  CHECK_FALSE(default_limit.next());
  CHECK(default_limit.error() == MessageDecoder::Error::PayloadTooLarge);
}

TEST_CASE("the decoder waits for the whole payload", "[vdevice][adb]") {
  const std::string wire = encode_message(Message{kWrte, 5, 6, "hello"});
  MessageDecoder decoder;
  decoder.feed(wire.substr(0, wire.size() - 1));
  CHECK_FALSE(decoder.next());
  CHECK(decoder.buffered_bytes() == wire.size() - 1);
  decoder.feed(wire.substr(wire.size() - 1));
  const std::optional<Message> message = decoder.next();
  REQUIRE(message);
  CHECK(message->payload == "hello");
  CHECK_FALSE(decoder.next());
}
