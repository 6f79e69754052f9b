#include "vdevice/android/shell/shell_parser.hpp"

#include <cctype>
#include <utility>

namespace clawperator::vdevice::android {
namespace {

using SyntaxFailure = Unexpected<ShellSyntaxError>;

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool is_special_parameter(char c) {
  return c == '?' || c == '$' || c == '#' || c == '!' || c == '-' || c == '@' || c == '*' ||
         (c >= '0' && c <= '9');
}
bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

ShellSyntaxError unsupported(std::string_view what) {
  // A real sh would run these; saying so beats running something else.
  return {"/system/bin/sh: " + std::string(what) + " is not supported by the virtual device", 2};
}

ShellSyntaxError unexpected(std::string_view token) {
  return {"/system/bin/sh: syntax error: '" + std::string(token) + "' unexpected", 1};
}

// Substitutions inside substitutions: deeper than any script needs, and a bound on the
// recursion that hostile text could otherwise drive.
constexpr int kMaxSubstitutionDepth = 16;

class Parser {
 public:
  // `depth` > 0: the body of a $(…), which ends at its unmatched ')'.
  explicit Parser(std::string_view text, int depth = 0) : text_(text), depth_(depth) {}

  Expected<Script, ShellSyntaxError> run() {
    while (pos_ < text_.size() && !closed_) {
      if (auto error = step()) return SyntaxFailure{std::move(*error)};
    }
    if (depth_ > 0 && !closed_) {
      return SyntaxFailure{ShellSyntaxError{"/system/bin/sh: syntax error: '$(' unmatched", 1}};
    }
    end_word();
    if (pending_connector_ != Connector::Sequence && command_.words.empty()) {
      return SyntaxFailure{
          ShellSyntaxError{"/system/bin/sh: syntax error: unexpected end of input", 1}};
    }
    end_command(Connector::Sequence);
    return std::move(script_);
  }

  // Bytes consumed, the closing ')' of a substitution included.
  std::size_t consumed() const noexcept { return pos_; }

 private:
  using Step = std::optional<ShellSyntaxError>;

  Step step() {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t') {
      end_word();
      ++pos_;
      return std::nullopt;
    }
    if (c == '\n') {
      end_word();
      ++pos_;
      if (pending_connector_ != Connector::Sequence && command_.words.empty()) {
        return std::nullopt;  // `a &&` continues on the next line
      }
      end_command(Connector::Sequence);
      return std::nullopt;
    }
    if (c == ';') return separator(";", Connector::Sequence, 1);
    if (c == '&') {
      if (peek(1) == '&') return separator("&&", Connector::And, 2);
      return unsupported("a background job ('&')");
    }
    if (c == '|') {
      if (peek(1) == '|') return separator("||", Connector::Or, 2);
      return unsupported("a pipeline ('|')");
    }
    if (c == '<' || c == '>') return unsupported(std::string("redirection ('") + c + "')");
    if (c == ')' && depth_ > 0) {
      end_word();
      closed_ = true;
      ++pos_;
      return std::nullopt;
    }
    if (c == '(' || c == ')') return unexpected(std::string(1, c));
    if (c == '`') return unsupported("command substitution ('`')");
    if (c == '#' && !in_word_) {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      return std::nullopt;
    }
    in_word_ = true;
    if (c == '\'') return single_quoted();
    if (c == '"') return double_quoted();
    if (c == '\\') {
      if (pos_ + 1 >= text_.size()) {
        literal("\\", true);  // a trailing backslash stays
        ++pos_;
      } else if (text_[pos_ + 1] == '\n') {
        pos_ += 2;  // line continuation
      } else {
        literal(text_.substr(pos_ + 1, 1), true);
        pos_ += 2;
      }
      return std::nullopt;
    }
    if (c == '$') return dollar(false);
    literal(text_.substr(pos_, 1), false);
    ++pos_;
    return std::nullopt;
  }

  Step separator(std::string_view token, Connector connector, std::size_t length) {
    end_word();
    if (command_.words.empty()) return unexpected(token);
    end_command(connector);
    pos_ += length;
    if (connector == Connector::Sequence && peek(0) == ';') return unexpected(";;");
    return std::nullopt;
  }

  Step single_quoted() {
    const std::size_t close = text_.find('\'', pos_ + 1);
    if (close == std::string_view::npos) return no_closing_quote();
    literal(text_.substr(pos_ + 1, close - pos_ - 1), true);
    pos_ = close + 1;
    return std::nullopt;
  }

  Step double_quoted() {
    ++pos_;
    // An empty "" is still an (empty) argument.
    literal("", true);
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return std::nullopt;
      }
      if (c == '\\' && pos_ + 1 < text_.size()) {
        const char next = text_[pos_ + 1];
        if (next == '\n') {
          pos_ += 2;
          continue;
        }
        if (next == '\\' || next == '"' || next == '$' || next == '`') {
          literal(text_.substr(pos_ + 1, 1), true);
          pos_ += 2;
          continue;
        }
        literal("\\", true);
        ++pos_;
        continue;
      }
      if (c == '`') return unsupported("command substitution ('`')");
      if (c == '$') {
        if (auto error = dollar(true)) return error;
        continue;
      }
      literal(text_.substr(pos_, 1), true);
      ++pos_;
    }
    return no_closing_quote();
  }

  // At a '$': a parameter, a command substitution, or a literal dollar sign.
  Step dollar(bool quoted) {
    const char next = peek(1);
    if (next == '(') {
      if (peek(2) == '(') return unsupported("arithmetic expansion ('$((')");
      if (depth_ + 1 > kMaxSubstitutionDepth) return unsupported("nesting $( that deep");
      // The body is a script of its own (with its own quotes), up to its unmatched ')'.
      Parser body(text_.substr(pos_ + 2), depth_ + 1);
      auto script = body.run();
      if (!script) return std::move(script).error();
      word_part(WordPart::Kind::Command, text_.substr(pos_ + 2, body.consumed() - 1), quoted);
      pos_ += 2 + body.consumed();
      return std::nullopt;
    }
    if (next == '{') {
      const std::size_t close = text_.find('}', pos_ + 2);
      const std::string_view name = close == std::string_view::npos
                                        ? std::string_view()
                                        : text_.substr(pos_ + 2, close - pos_ - 2);
      if (!valid_braced_name(name)) {
        return ShellSyntaxError{"/system/bin/sh: ${" + std::string(name) + "}: bad substitution",
                                1};
      }
      parameter(name, quoted);
      pos_ = close + 1;
      return std::nullopt;
    }
    if (next != '\0' && is_special_parameter(next)) {
      parameter(text_.substr(pos_ + 1, 1), quoted);
      pos_ += 2;
      return std::nullopt;
    }
    if (next != '\0' && is_name_start(next)) {
      std::size_t end = pos_ + 1;
      while (end < text_.size() && is_name_char(text_[end])) ++end;
      parameter(text_.substr(pos_ + 1, end - pos_ - 1), quoted);
      pos_ = end;
      return std::nullopt;
    }
    literal("$", quoted);
    ++pos_;
    return std::nullopt;
  }

  static bool valid_braced_name(std::string_view name) {
    if (name.empty()) return false;
    if (name.size() == 1 && is_special_parameter(name[0])) return true;
    if (!is_name_start(name[0])) {
      for (const char c : name) {
        if (c < '0' || c > '9') return false;
      }
      return true;
    }
    for (const char c : name) {
      if (!is_name_char(c)) return false;
    }
    return true;
  }

  static ShellSyntaxError no_closing_quote() {
    return {"/system/bin/sh: syntax error: unterminated quoted string", 1};
  }

  char peek(std::size_t ahead) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  void literal(std::string_view bytes, bool quoted) {
    in_word_ = true;
    auto& parts = word_.parts;
    if (!parts.empty() && parts.back().kind == WordPart::Kind::Literal &&
        parts.back().quoted == quoted) {
      parts.back().text += bytes;
      return;
    }
    parts.push_back({WordPart::Kind::Literal, std::string(bytes), quoted});
  }

  void parameter(std::string_view name, bool quoted) {
    word_part(WordPart::Kind::Parameter, name, quoted);
  }

  void word_part(WordPart::Kind kind, std::string_view text, bool quoted) {
    in_word_ = true;
    word_.parts.push_back({kind, std::string(text), quoted});
  }

  void end_word() {
    if (!in_word_) return;
    command_.words.push_back(std::move(word_));
    word_ = Word{};
    in_word_ = false;
  }

  // Closes the current command; `next` joins the one that follows.
  void end_command(Connector next) {
    if (!command_.words.empty()) {
      command_.connector = pending_connector_;
      script_.commands.push_back(std::move(command_));
    }
    command_ = ScriptCommand{};
    pending_connector_ = next;
  }

  std::string_view text_;
  int depth_;
  bool closed_ = false;
  std::size_t pos_ = 0;
  Script script_;
  ScriptCommand command_;
  Word word_;
  bool in_word_ = false;
  Connector pending_connector_ = Connector::Sequence;
};

// What a parameter or a command substitution expands to.
std::string expansion(const WordPart& part, const ShellVariables& variables,
                      const CommandSubstitution& substitute) {
  if (part.kind == WordPart::Kind::Parameter) return variables.lookup(part.text).value_or("");
  if (!substitute) return "";
  std::string output = substitute(part.text);
  while (!output.empty() && output.back() == '\n') output.pop_back();
  return output;
}

}  // namespace

std::optional<std::string> ShellVariables::lookup(std::string_view name) const {
  if (name == "?") return std::to_string(last_status);
  if (name == "$") return std::to_string(pid);
  if (name == "#") return "0";
  if (name == "0") return "/system/bin/sh";
  if (name == "-") return "";
  const auto it = values.find(std::string(name));
  if (it == values.end()) return std::nullopt;
  return it->second;
}

Expected<Script, ShellSyntaxError> parse_script(std::string_view text) {
  return Parser(text).run();
}

std::vector<std::string> expand_words(const std::vector<Word>& words,
                                      const ShellVariables& variables,
                                      const CommandSubstitution& substitute) {
  std::vector<std::string> fields;
  for (const Word& word : words) {
    std::string current;
    bool exists = false;
    for (const WordPart& part : word.parts) {
      if (part.kind == WordPart::Kind::Literal) {
        current += part.text;
        exists = true;
        continue;
      }
      const std::string value = expansion(part, variables, substitute);
      if (part.quoted) {
        current += value;
        exists = true;
        continue;
      }
      for (const char c : value) {
        if (is_blank(c)) {
          if (exists) fields.push_back(std::move(current));
          current.clear();
          exists = false;
        } else {
          current += c;
          exists = true;
        }
      }
    }
    if (exists) fields.push_back(std::move(current));
  }
  return fields;
}

std::optional<Assignment> as_assignment(const Word& word, const ShellVariables& variables,
                                        const CommandSubstitution& substitute) {
  if (word.parts.empty()) return std::nullopt;
  const WordPart& first = word.parts.front();
  if (first.kind != WordPart::Kind::Literal || first.quoted) return std::nullopt;
  const std::size_t equals = first.text.find('=');
  if (equals == std::string::npos || equals == 0 || !is_name_start(first.text[0])) {
    return std::nullopt;
  }
  for (std::size_t i = 1; i < equals; ++i) {
    if (!is_name_char(first.text[i])) return std::nullopt;
  }
  Assignment assignment{first.text.substr(0, equals), first.text.substr(equals + 1)};
  for (std::size_t i = 1; i < word.parts.size(); ++i) {
    const WordPart& part = word.parts[i];
    assignment.value +=
        part.kind == WordPart::Kind::Literal ? part.text : expansion(part, variables, substitute);
  }
  return assignment;
}

}  // namespace clawperator::vdevice::android
