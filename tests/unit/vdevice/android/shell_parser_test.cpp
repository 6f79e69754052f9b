#include "vdevice/android/shell/shell_parser.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "android_test_support.hpp"
#include "clawperator/adb/shell_quote.hpp"

using namespace clawperator::vdevice::android;
using clawperator::vdevice::android::test::Harness;

namespace {

std::vector<std::string> argv_of(const std::string& text, const ShellVariables& variables = {}) {
  auto script = parse_script(text);
  REQUIRE(script);
  REQUIRE(script->commands.size() == 1);
  return expand_words(script->commands[0].words, variables);
}

}  // namespace

TEST_CASE("shell words: quotes, escapes and blanks", "[vdevice][android]") {
  CHECK(argv_of("echo  a\tb") == std::vector<std::string>{"echo", "a", "b"});
  CHECK(argv_of("echo 'a  b' \"c  d\"") == std::vector<std::string>{"echo", "a  b", "c  d"});
  CHECK(argv_of("echo '' \"\"") == std::vector<std::string>{"echo", "", ""});
  CHECK(argv_of("echo a'b'\"c\"d") == std::vector<std::string>{"echo", "abcd"});
  CHECK(argv_of(R"(echo \a\ b \'x\')") == std::vector<std::string>{"echo", "a b", "'x'"});
  // Inside double quotes only \\ \" \$ \` and a newline are escapes.
  CHECK(argv_of(R"(echo "\\ \" \$ \` \n \a")") ==
        std::vector<std::string>{"echo", R"(\ " $ ` \n \a)"});
  // Everything is literal inside single quotes, newlines and backslashes included.
  CHECK(argv_of("echo 'a\\nb\n$HOME `x` \"q\"'") ==
        std::vector<std::string>{"echo", "a\\nb\n$HOME `x` \"q\""});
  CHECK(argv_of("echo a\\\nb") == std::vector<std::string>{"echo", "ab"});
  CHECK(argv_of("echo # not a comment#x") == std::vector<std::string>{"echo"});
  CHECK(argv_of("echo a#b") == std::vector<std::string>{"echo", "a#b"});
}

TEST_CASE("shell expansion: parameters, $? and field splitting", "[vdevice][android]") {
  ShellVariables variables;
  variables.values["NAME"] = "two words";
  variables.values["EMPTY"] = "";
  variables.last_status = 7;
  CHECK(argv_of("echo $NAME \"$NAME\" ${NAME}x", variables) ==
        std::vector<std::string>{"echo", "two", "words", "two words", "two", "wordsx"});
  CHECK(argv_of("echo $? \"$?\" x$?y", variables) ==
        std::vector<std::string>{"echo", "7", "7", "x7y"});
  CHECK(argv_of("echo $EMPTY \"$EMPTY\" $UNSET end", variables) ==
        std::vector<std::string>{"echo", "", "end"});
  CHECK(argv_of("echo $ a$ '$NAME' \\$NAME", variables) ==
        std::vector<std::string>{"echo", "$", "a$", "$NAME", "$NAME"});
}

TEST_CASE("shell sequencing: ; && || and newlines", "[vdevice][android]") {
  auto script = parse_script("a; b && c || d\ne\n\n");
  REQUIRE(script);
  REQUIRE(script->commands.size() == 5);
  CHECK(script->commands[0].connector == Connector::Sequence);
  CHECK(script->commands[1].connector == Connector::Sequence);
  CHECK(script->commands[2].connector == Connector::And);
  CHECK(script->commands[3].connector == Connector::Or);
  CHECK(script->commands[4].connector == Connector::Sequence);
  CHECK(parse_script("a &&\nb")->commands.size() == 2);
}

TEST_CASE("shell syntax errors and unsupported syntax are refused", "[vdevice][android]") {
  for (const char* text :
       {"echo 'open", "echo \"open", "; echo", "echo a;;", "echo a &&", "echo ${a b}"}) {
    INFO(text);
    CHECK_FALSE(parse_script(text));
  }
  for (const char* text : {"echo a | cat", "echo a > f", "echo $((1 + 2))", "echo `id`",
                           "echo \"`id`\"", "sleep 1 &"}) {
    INFO(text);
    const auto script = parse_script(text);
    REQUIRE_FALSE(script);
    CHECK(script.error().status == 2);
    CHECK(script.error().message.find("not supported") != std::string::npos);
  }
}

TEST_CASE("shell: command substitution parses its body as a script", "[vdevice][android]") {
  auto script = parse_script("echo \"$(cat '/a b' \")\" \"x)\")\" $(echo $(id)) tail");
  REQUIRE(script);
  REQUIRE(script->commands.size() == 1);
  const auto& words = script->commands[0].words;
  REQUIRE(words.size() == 4);
  REQUIRE(words[1].parts.size() == 2);  // the empty "" literal, then the substitution
  CHECK(words[1].parts[1].kind == WordPart::Kind::Command);
  CHECK(words[1].parts[1].text == "cat '/a b' \")\" \"x)\"");
  CHECK(words[1].parts[1].quoted);
  CHECK(words[2].parts[0].text == "echo $(id)");
  CHECK_FALSE(words[2].parts[0].quoted);
  std::vector<std::string> scripts;
  const CommandSubstitution record = [&](const std::string& body) {
    scripts.push_back(body);
    return std::string("out  put\n\n");
  };
  CHECK(expand_words(words, {}, record) ==
        std::vector<std::string>{"echo", "out  put", "out", "put", "tail"});
  CHECK(scripts == std::vector<std::string>{"cat '/a b' \")\" \"x)\"", "echo $(id)"});
  // Without a way to run it, a substitution expands to nothing.
  CHECK(expand_words(words, {}) == std::vector<std::string>{"echo", "", "tail"});
  for (const char* text :
       {"echo $(", "echo \"$(echo a\"", "echo $(echo 'a)", "echo $(;)", "echo $(a &&)"}) {
    INFO(text);
    CHECK_FALSE(parse_script(text));
  }
  // Nesting is bounded: hostile text cannot recurse without limit.
  std::string deep;
  for (int i = 0; i < 17; ++i) deep += "$(";
  CHECK(parse_script("echo " + deep).error().message.find("not supported") != std::string::npos);
  std::string nested = "x";
  for (int i = 0; i < 16; ++i) nested = "$(echo " + nested + ")";
  CHECK(parse_script("echo " + nested));
}

TEST_CASE("shell: assignments before a command", "[vdevice][android]") {
  auto script = parse_script("A=1 B=\"x y\" cmd");
  REQUIRE(script);
  const auto& words = script->commands[0].words;
  ShellVariables variables;
  const auto a = as_assignment(words[0], variables);
  const auto b = as_assignment(words[1], variables);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->name == "A");
  CHECK(a->value == "1");
  CHECK(b->value == "x y");
  CHECK_FALSE(as_assignment(words[2], variables));
  CHECK_FALSE(as_assignment(parse_script("'A=1'")->commands[0].words[0], variables));
}

TEST_CASE("shell: quoted payloads round-trip byte for byte", "[vdevice][android]") {
  std::vector<std::string> samples = {
      "",
      "plain",
      "it's",
      "'''",
      R"({"text":"wi-fi 'home' $HOME `x` \"q\" \\ \n"})",
      "line1\nline2\r\n\ttab",
      "$? $$ ${x} $(id) `id` ; && || | > < & # ~ * ?",
      "\xc3\xa9\xe2\x98\x95 \xf0\x9f\x98\x80 \xe6\x97\xa5\xe6\x9c\xac",
      "\\'\\\"\\\\",
  };
  std::mt19937 random(42);
  for (int i = 0; i < 200; ++i) {
    std::string bytes;
    const int length = static_cast<int>(random() % 64);
    for (int j = 0; j < length; ++j) bytes += static_cast<char>(1 + random() % 255);
    samples.push_back(bytes);
  }
  for (const std::string& sample : samples) {
    const std::string command = "echo " + clawperator::adb::quote_for_device_shell(sample);
    INFO(command);
    const auto argv = argv_of(command);
    REQUIRE(argv.size() == 2);
    CHECK(argv[1] == sample);
  }
}

TEST_CASE("device shell: status, $?, exports and unknown commands", "[vdevice][android]") {
  Harness harness;
  auto result = harness.shell("false; echo clawperator-exit:$?");
  CHECK(result.out == "clawperator-exit:1\n");
  CHECK(result.status == 0);

  result = harness.shell("true && echo yes || echo no; false && echo yes || echo no");
  CHECK(result.out == "yes\nno\n");

  result = harness.shell("false");
  CHECK(result.status == 1);
  CHECK(result.out.empty());

  result = harness.shell("nosuch --flag; echo after:$?");
  CHECK(result.err == "/system/bin/sh: nosuch: not found\n");
  CHECK(result.out == "after:127\n");
  CHECK(result.status == 0);

  result = harness.shell("nosuch");
  CHECK(result.status == 127);

  result = harness.shell("export GREETING='hi there'; echo \"$GREETING\" $GREETING");
  CHECK(result.out == "hi there hi there\n");

  result = harness.shell("X=1; echo $X; exit 3; echo unreachable");
  CHECK(result.out == "1\n");
  CHECK(result.status == 3);

  result = harness.shell("exec echo replaced; echo never");
  CHECK(result.out == "replaced\n");

  result = harness.shell("echo 'unterminated");
  CHECK(result.status == 1);
  CHECK(result.err.find("unterminated quoted string") != std::string::npos);

  result = harness.shell("/system/bin/echo -n a; echo -e 'b\\tc'");
  CHECK(result.out == "ab\tc\n");

  result = harness.shell("id");
  CHECK(result.out.rfind("uid=2000(shell)", 0) == 0);
}

TEST_CASE("device shell: an empty command opens an interactive shell", "[vdevice][android]") {
  Harness harness;
  auto stream = harness.open("");
  CHECK(stream.output->out == "vpixel:/ $ ");
  stream.session->on_input("echo hi\r");
  CHECK(stream.output->out == "vpixel:/ $ echo hi\r\nhi\r\nvpixel:/ $ ");
  stream.session->on_input("exit 4\n");
  REQUIRE(stream.output->exit_code);
  CHECK(*stream.output->exit_code == 4);
}
