// The device shell's grammar, as far as adb clients use it: words with POSIX quoting,
// parameter expansion, `$(…)` command substitution, `;` / newline, `&&` and `||`. Everything
// a real /system/bin/sh would do differently (pipes, redirections, backquotes, arithmetic,
// background jobs) is refused with a message instead of being half-done, so a script never
// runs with a wrong meaning.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/expected.hpp"

namespace clawperator::vdevice::android {

struct WordPart {
  enum class Kind {
    Literal,    // bytes, taken as they are
    Parameter,  // $NAME, ${NAME}, or a special parameter ($?, $$, $#, $0 …)
    Command,    // $(SCRIPT): what the script prints, trailing newlines removed
  };
  Kind kind = Kind::Literal;
  std::string text;     // the bytes, the parameter's name ("?" for $?), or the script
  bool quoted = false;  // from inside quotes or escaped: never split into fields
};

struct Word {
  std::vector<WordPart> parts;
};

// How a command is joined to the one before it.
enum class Connector {
  Sequence,  // `;`, a newline, or the first command
  And,       // `&&`: runs when the previous status is 0
  Or,        // `||`: runs when the previous status is not 0
};

struct ScriptCommand {
  Connector connector = Connector::Sequence;
  std::vector<Word> words;
};

struct Script {
  std::vector<ScriptCommand> commands;
};

struct ShellSyntaxError {
  std::string message;  // what sh prints on stderr, without the trailing newline
  int status = 1;
};

Expected<Script, ShellSyntaxError> parse_script(std::string_view text);

// The values parameters expand to.
struct ShellVariables {
  std::map<std::string, std::string> values;
  int last_status = 0;
  int pid = 0;

  std::optional<std::string> lookup(std::string_view name) const;
};

// Runs the script of a command substitution and returns what it printed on stdout.
using CommandSubstitution = std::function<std::string(const std::string& script)>;

// Expands a command's words into argv: parameters and command substitutions replaced (a
// substitution's trailing newlines removed), unquoted expansions split on blanks, empty
// unquoted expansions dropped, quotes removed. Without `substitute`, $(…) expands to nothing.
std::vector<std::string> expand_words(const std::vector<Word>& words,
                                      const ShellVariables& variables,
                                      const CommandSubstitution& substitute = {});

// `NAME=value` before the command name: the name, and the value expanded without splitting.
struct Assignment {
  std::string name;
  std::string value;
};
std::optional<Assignment> as_assignment(const Word& word, const ShellVariables& variables,
                                        const CommandSubstitution& substitute = {});

}  // namespace clawperator::vdevice::android
