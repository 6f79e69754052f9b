// Writes the shell completions (bash, zsh, fish) and the man page of each program from its
// one CLI definition: build_cli() for clawperator, build_vdevice_cli() for
// clawperator-vdevice. `generate_cli_docs DIR` writes PROGRAM.bash, _PROGRAM, PROGRAM.fish
// and PROGRAM.1 into DIR for both; `generate_cli_docs --list` prints clawperator's commands
// and flags as JSON (for the tests).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/app.hpp"
#include "clawperator/contract/action_table.hpp"
#include "clawperator/contract/error_catalog.hpp"
#include "clawperator/path_values.hpp"
#include "vdevice/cli.hpp"

namespace {

// ---- The model: what the generators need from the CLI11 tree. ----

// What a value completes to: nothing in particular, a file name or a directory name.
enum class PathKind { kNone, kFile, kDirectory };

// From the value name the definition gave (clawperator/path_values.hpp).
PathKind path_kind(const std::string& value_name) {
  if (value_name == clawperator::kFileValue) return PathKind::kFile;
  if (value_name == clawperator::kDirectoryValue) return PathKind::kDirectory;
  return PathKind::kNone;
}

struct Flag {
  std::vector<std::string> names;  // "-h", "--help", ...
  bool takes_value = false;
  PathKind path = PathKind::kNone;
  std::string description;
};

// What follows an action word (`evidence video` start|status|..., `evidence verify` <dir>).
struct Following {
  std::string action;
  std::vector<std::string> words;
  PathKind path = PathKind::kNone;
};

struct Command {
  std::string name;
  std::vector<std::string> aliases;
  std::string group;
  std::string description;
  std::vector<Flag> flags;
  std::vector<std::string> positionals;
  PathKind positional_path = PathKind::kNone;
  // The first word's values: `operator setup`, `skills run`, press keys, error codes.
  std::vector<std::string> action_words;
  std::vector<Following> following;
};

struct Model {
  std::string program;  // the executable's name
  std::string description;
  std::string footer;
  std::vector<Flag> globals;
  std::vector<Command> commands;
};

std::vector<Flag> flags_of(const CLI::App& app) {
  std::vector<Flag> flags;
  for (const CLI::Option* option : app.get_options()) {
    if (!option->nonpositional() || option->get_group().empty()) continue;  // positional, hidden
    Flag flag;
    for (const std::string& name : option->get_snames()) flag.names.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) flag.names.push_back("--" + name);
    flag.takes_value = option->get_items_expected_max() > 0;
    if (flag.takes_value) flag.path = path_kind(option->get_type_name());
    flag.description = option->get_description();
    flags.push_back(flag);
  }
  return flags;
}

std::vector<std::string> strings_of(const std::vector<std::string_view>& words) {
  return {words.begin(), words.end()};
}

std::vector<std::string> positional_values(const std::string& command);

Model read_model(const CLI::App& root, std::string program) {
  Model model{std::move(program), root.get_description(), root.get_footer(), {}, {}};
  model.globals = flags_of(root);
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name().empty()) continue;  // option groups
    Command command;
    command.name = sub->get_name();
    command.aliases = sub->get_aliases();
    command.group = sub->get_group();
    command.description = sub->get_description();
    for (const Flag& flag : flags_of(*sub)) {
      const auto same = [&](const Flag& global) { return global.names == flag.names; };
      if (std::none_of(model.globals.begin(), model.globals.end(), same)) {
        command.flags.push_back(flag);  // not the inherited --help
      }
    }
    for (const CLI::Option* option : sub->get_options()) {
      if (!option->get_positional() || option->nonpositional()) continue;
      command.positionals.push_back(option->get_name(true));
      const PathKind kind = path_kind(option->get_type_name());
      if (kind != PathKind::kNone) command.positional_path = kind;
    }
    command.action_words = strings_of(clawperator::cli::action_words(command.name));
    // A command with CLI11 subcommands of its own (`mcp serve`) takes their names first.
    for (const CLI::App* nested : sub->get_subcommands([](const CLI::App*) { return true; })) {
      if (!nested->get_name().empty()) command.action_words.push_back(nested->get_name());
    }
    for (const std::string& value : positional_values(command.name)) {
      command.action_words.push_back(value);
    }
    for (const std::string& action : command.action_words) {
      const std::string_view next = clawperator::cli::following_word_list(command.name, action);
      if (next.empty()) continue;
      Following following{action, {}, path_kind(std::string(next))};
      if (following.path == PathKind::kNone) {
        following.words = strings_of(clawperator::cli::split_word_list(next));
      }
      command.following.push_back(following);
    }
    model.commands.push_back(command);
  }
  return model;
}

// Every name of the command (name, then aliases).
std::vector<std::string> names_of(const Command& command) {
  std::vector<std::string> names = {command.name};
  names.insert(names.end(), command.aliases.begin(), command.aliases.end());
  return names;
}

std::string join(const std::vector<std::string>& words, const std::string& separator) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : separator) + word;
  return out;
}

// Flag names, all of them or those that take a value (or a file, or a directory) only.
enum class Which { kAll, kValue, kFile, kDirectory };
std::vector<std::string> flag_names(const std::vector<Flag>& flags, Which which) {
  std::vector<std::string> names;
  for (const Flag& flag : flags) {
    if (which == Which::kValue && !flag.takes_value) continue;
    if (which == Which::kFile && flag.path != PathKind::kFile) continue;
    if (which == Which::kDirectory && flag.path != PathKind::kDirectory) continue;
    names.insert(names.end(), flag.names.begin(), flag.names.end());
  }
  return names;
}

// Replaces every `from` character with `to`.
std::string replace_all(std::string text, char from, const std::string& to) {
  std::string out;
  for (const char c : text) out += c == from ? to : std::string(1, c);
  return out;
}

// ---- Values a flag or positional takes, from the tables that decide them. ----

std::vector<std::string> one_of(std::string_view action, std::string_view key) {
  std::vector<std::string> out;
  if (const auto* spec = clawperator::contract::find_action(action)) {
    for (const auto& constraint : spec->constraints) {
      if (constraint.kind == clawperator::contract::ConstraintKind::OneOf &&
          constraint.key == key) {
        for (const std::string_view value : constraint.values) out.emplace_back(value);
        break;
      }
    }
  }
  return out;
}

std::vector<std::string> error_codes() {
  std::vector<std::string> out;
  for (const auto& row : clawperator::contract::error_catalog()) out.emplace_back(row.code);
  return out;
}

// The first word of a command: press keys, scroll directions, error codes.
std::vector<std::string> positional_values(const std::string& command) {
  if (command == "press") return one_of("press_key", "key");
  if (command == "scroll") return one_of("scroll", "direction");
  if (command == "errors") return error_codes();
  return {};
}

// The serials `adb devices` lists now, at completion time, in each shell's words.
#define CLAWPERATOR_ADB_SERIALS \
  "adb devices 2>/dev/null | awk 'NR > 1 && $2 == \"device\" {print $1}'"
constexpr const char* kBashSerials = "$(" CLAWPERATOR_ADB_SERIALS ")";
constexpr const char* kFishSerials = "(" CLAWPERATOR_ADB_SERIALS ")";
constexpr const char* kZshSerials =
    "_clawperator_serials() {\n"
    "  local -a serials\n"
    "  serials=(${(f)\"$(" CLAWPERATOR_ADB_SERIALS
    ")\"})\n"
    "  compadd -a serials\n"
    "}\n";
#undef CLAWPERATOR_ADB_SERIALS

// ---- bash ----

// A shell function name for the program: `_clawperator`, `_clawperator_vdevice`.
std::string function_name(const Model& model) {
  return "_" + replace_all(model.program, '-', "_");
}

// Whether some command (or the program) has the flag, and whether it takes a path there.
bool has_flag(const Model& model, const std::string& name, bool path_only) {
  const auto in = [&](const std::vector<Flag>& flags) {
    return std::any_of(flags.begin(), flags.end(), [&](const Flag& flag) {
      return (!path_only || flag.path != PathKind::kNone) &&
             std::find(flag.names.begin(), flag.names.end(), name) != flag.names.end();
    });
  };
  return in(model.globals) ||
         std::any_of(model.commands.begin(), model.commands.end(),
                     [&](const Command& command) { return in(command.flags); });
}

// The values a flag that takes no path offers: fixed words, or the serials `adb devices` lists
// at completion time.
struct FlagValues {
  std::vector<std::string> names;
  std::vector<std::string> words;
  bool serials = false;
};

const std::vector<FlagValues>& flag_values() {
  static const std::vector<FlagValues> values = {
      {{"--output", "--format"}, {"json", "pretty"}, false},
      {{"--log-level"}, {"debug", "info", "warn", "error"}, false},
      {{"--device", "--device-id"}, {}, true},
      {{"--key"}, one_of("press_key", "key"), false},
      {{"--direction"}, one_of("scroll", "direction"), false},
  };
  return values;
}

// The values of the flag; none for a flag that takes a path (vdevice's make-apk --output).
const FlagValues* values_of(const Flag& flag) {
  if (!flag.takes_value || flag.path != PathKind::kNone) return nullptr;
  for (const FlagValues& values : flag_values()) {
    for (const std::string& name : flag.names) {
      if (std::find(values.names.begin(), values.names.end(), name) != values.names.end()) {
        return &values;
      }
    }
  }
  return nullptr;
}

// `case "$prev"` arms that offer a flag's values, for the flags the program has.
std::string bash_value_cases(const Model& model) {
  std::string out;
  for (const FlagValues& values : flag_values()) {
    // bash matches the previous word whatever the command: a flag of the same name that takes
    // a path elsewhere keeps file completion.
    const std::string& name = values.names.front();
    if (!has_flag(model, name, false) || has_flag(model, name, true)) continue;
    out += "    " + join(values.names, "|") + ") COMPREPLY=($(compgen -W \"" +
           (values.serials ? kBashSerials : join(values.words, " ")) +
           "\" -- \"$cur\")); return 0 ;;\n";
  }
  return out;
}

// `compgen` for a path kind, for what the current word holds.
std::string bash_paths(PathKind kind) {
  return kind == PathKind::kDirectory ? "COMPREPLY=($(compgen -d -- \"$cur\"))"
                                      : "COMPREPLY=($(compgen -f -- \"$cur\"))";
}

std::string bash(const Model& model) {
  std::ostringstream out;
  std::vector<std::string> all_names;
  for (const Command& command : model.commands) {
    for (const std::string& name : names_of(command)) all_names.push_back(name);
  }
  const std::vector<std::string> global_values = flag_names(model.globals, Which::kValue);
  out << "# bash completion for " << model.program
      << " (generated by generate_cli_docs; do not edit)\n"
      << function_name(model) << "() {\n"
      << "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
      << "  local commands=\"" << join(all_names, " ") << "\"\n"
      << "  local flags=\"" << join(flag_names(model.globals, Which::kAll), " ") << "\"\n"
      << "  local values=\"" << join(global_values, " ") << "\"\n"
      << "  local files=\"" << join(flag_names(model.globals, Which::kFile), " ") << "\"\n"
      << "  local dirs=\"" << join(flag_names(model.globals, Which::kDirectory), " ") << "\"\n"
      << "  local cmd=\"\" family=\"\" positional=\"\" actions=\"\" action=\"\" following=\"\"\n"
      << "  local i at=0 after=0\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    case \"${COMP_WORDS[i]}\" in\n";
  if (!global_values.empty()) out << "      " << join(global_values, "|") << ") ((i++)) ;;\n";
  out << "      -*) ;;\n"
      << "      *) cmd=\"${COMP_WORDS[i]}\"; at=$i; break ;;\n"
      << "    esac\n"
      << "  done\n"
      << "  case \"$cmd\" in\n";
  for (const Command& command : model.commands) {
    out << "    " << join(names_of(command), "|") << ")\n"
        << "      family=" << command.name << "\n";
    const std::pair<const char*, Which> lists[] = {{"flags", Which::kAll},
                                                   {"values", Which::kValue},
                                                   {"files", Which::kFile},
                                                   {"dirs", Which::kDirectory}};
    for (const auto& [variable, which] : lists) {
      const std::vector<std::string> names = flag_names(command.flags, which);
      if (!names.empty()) out << "      " << variable << "+=\" " << join(names, " ") << "\"\n";
    }
    if (command.positional_path != PathKind::kNone) {
      out << "      positional="
          << (command.positional_path == PathKind::kDirectory ? "dir" : "file") << "\n";
    }
    if (!command.action_words.empty()) {
      out << "      actions=\"" << join(command.action_words, " ") << "\"\n";
    }
    out << "      ;;\n";
  }
  out << "  esac\n"
      << "  # The command's first word that is neither a flag nor a flag's value, and how many\n"
      << "  # such words follow it.\n"
      << "  if [[ -n \"$cmd\" ]]; then\n"
      << "    for ((i = at + 1; i < COMP_CWORD; i++)); do\n"
      << "      if [[ \" $values \" == *\" ${COMP_WORDS[i]} \"* ]]; then ((i++)); continue; fi\n"
      << "      [[ \"${COMP_WORDS[i]}\" == -* ]] && continue\n"
      << "      if [[ -z \"$action\" ]]; then action=\"${COMP_WORDS[i]}\"; else ((after++)); fi\n"
      << "    done\n"
      << "  fi\n"
      << "  case \"$family $action\" in\n";
  for (const Command& command : model.commands) {
    for (const Following& following : command.following) {
      out << "    \"" << command.name << " " << following.action << "\") ";
      if (following.path == PathKind::kNone) {
        out << "following=\"" << join(following.words, " ") << "\"";
      } else {
        out << "positional=" << (following.path == PathKind::kDirectory ? "dir" : "file");
      }
      out << " ;;\n";
    }
  }
  out << "  esac\n"
      << "  COMPREPLY=()\n"
      << "  case \"$prev\" in\n"
      << bash_value_cases(model) << "  esac\n"
      << "  if [[ \" $values \" == *\" $prev \"* ]]; then\n"
      << "    if [[ \" $dirs \" == *\" $prev \"* ]]; then\n"
      << "      " << bash_paths(PathKind::kDirectory) << "\n"
      << "    elif [[ \" $files \" == *\" $prev \"* ]]; then\n"
      << "      " << bash_paths(PathKind::kFile) << "\n"
      << "    fi\n"
      << "    return 0\n"
      << "  fi\n"
      << "  if [[ \"$cur\" == -* ]]; then\n"
      << "    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
      << "  elif [[ -z \"$cmd\" ]]; then\n"
      << "    COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n"
      << "  elif [[ -n \"$actions\" && -z \"$action\" ]]; then\n"
      << "    COMPREPLY=($(compgen -W \"$actions\" -- \"$cur\"))\n"
      << "  elif [[ -n \"$following\" && $after -eq 0 ]]; then\n"
      << "    COMPREPLY=($(compgen -W \"$following\" -- \"$cur\"))\n"
      << "  elif [[ \"$positional\" == dir && ( -z \"$actions\" || $after -eq 0 ) ]]; then\n"
      << "    " << bash_paths(PathKind::kDirectory) << "\n"
      << "  elif [[ \"$positional\" == file ]]; then\n"
      << "    " << bash_paths(PathKind::kFile) << "\n"
      << "  else\n"
      << "    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
      << "  fi\n"
      << "}\n"
      << "complete -o filenames -F " << function_name(model) << " " << model.program << "\n";
  return out.str();
}

// ---- zsh ----

// Text inside a single-quoted zsh word, inside _arguments' [...] or a _describe item.
std::string zsh_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else if (c == '[' || c == ']' || c == ':' || c == '\\') {
      out += std::string("\\") + c;
    } else {
      out += c;
    }
  }
  return out;
}

// An _arguments action completing a path of the kind.
std::string zsh_paths(PathKind kind) {
  return kind == PathKind::kDirectory ? "directory:_files -/" : "file:_files";
}

std::string zsh_specs(const std::vector<Flag>& flags, const std::string& indent) {
  std::string out;
  for (const Flag& flag : flags) {
    for (const std::string& name : flag.names) {
      out += indent + "'" + name + "[" + zsh_text(flag.description) + "]";
      if (const FlagValues* values = values_of(flag)) {
        out += values->serials ? ":serial:_clawperator_serials"
                               : ":value:(" + join(values->words, " ") + ")";
      } else if (flag.takes_value) {
        out += flag.path == PathKind::kNone ? std::string(":value: ") : ":" + zsh_paths(flag.path);
      }
      out += "'\n";
    }
  }
  return out;
}

// `_arguments $globals <the command's flags> ` and the continuation of the line.
std::string zsh_arguments(const Command& command, const std::string& indent) {
  return indent + "_arguments $globals \\\n" +
         replace_all(zsh_specs(command.flags, indent + "  "), '\n', " \\\n");
}

std::string zsh(const Model& model) {
  std::ostringstream out;
  out << "#compdef " << model.program << "\n"
      << "# zsh completion for " << model.program
      << " (generated by generate_cli_docs; do not edit)\n"
      << (has_flag(model, "--device", false) ? kZshSerials : "") << function_name(model) << "() {\n"
      << "  local curcontext=\"$curcontext\" state line\n"
      << "  local -a commands globals\n"
      << "  commands=(\n";
  for (const Command& command : model.commands) {
    for (const std::string& name : names_of(command)) {
      out << "    '" << name << ":" << zsh_text(command.description) << "'\n";
    }
  }
  out << "  )\n"
      << "  globals=(\n"
      << zsh_specs(model.globals, "    ") << "  )\n"
      << "  _arguments -C $globals '1: :->command' '*:: :->args' && return\n"
      << "  case $state in\n"
      << "    command) _describe -t commands '" << model.program << " command' commands ;;\n"
      << "    args)\n"
      << "      case $words[1] in\n";
  for (const Command& command : model.commands) {
    out << "        " << join(names_of(command), "|") << ")\n";
    const std::string indent = "          ";
    if (command.action_words.empty()) {
      out << zsh_arguments(command, indent);
      if (command.positional_path != PathKind::kNone) {
        out << indent << "  '*:" << zsh_paths(command.positional_path) << "' \\\n";
      }
      out << indent << "  ;;\n";
      continue;
    }
    // The first word from its list, then what that word takes: _arguments' `*::` hands the
    // words from the action word on to a second _arguments, where $words[1] is that word.
    out << zsh_arguments(command, indent) << indent << "  '1:action:("
        << join(command.action_words, " ") << ")' '*:: :->action' && return\n"
        << indent << "[[ $state == action ]] || return\n"
        << indent << "case $words[1] in\n";
    for (const Following& following : command.following) {
      out << indent << "  " << following.action << ")\n"
          << zsh_arguments(command, indent + "    ") << indent << "      '1:"
          << (following.path == PathKind::kNone ? "word:(" + join(following.words, " ") + ")"
                                                : zsh_paths(following.path))
          << "' ;;\n";
    }
    out << indent << "  *)\n" << zsh_arguments(command, indent + "    ");
    if (command.positional_path != PathKind::kNone) {
      out << indent << "      '*:" << zsh_paths(command.positional_path) << "' \\\n";
    }
    out << indent << "      ;;\n" << indent << "esac\n" << indent << ";;\n";
  }
  out << "      esac\n"
      << "      ;;\n"
      << "  esac\n"
      << "}\n"
      << function_name(model) << " \"$@\"\n";
  return out.str();
}

// ---- fish ----

std::string fish_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text)
    out += (c == '\'' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "'";
}

// The `complete` arguments that offer paths of the kind.
std::string fish_paths(PathKind kind) {
  return kind == PathKind::kDirectory ? " -x -a '(__fish_complete_directories)'" : " -F";
}

std::string fish_flag(const Model& model, const Flag& flag, const std::string& condition) {
  std::string out;
  for (const std::string& name : flag.names) {
    out += "complete -c " + model.program + condition;
    out += name.rfind("--", 0) == 0 ? " -l " + name.substr(2) : " -s " + name.substr(1);
    if (const FlagValues* values = values_of(flag)) {
      out += " -x -a " + fish_quote(values->serials ? kFishSerials : join(values->words, " "));
    } else if (flag.takes_value) {
      out += flag.path == PathKind::kNone ? " -x" : " -r" + fish_paths(flag.path);
    }
    out += " -d " + fish_quote(flag.description) + "\n";
  }
  return out;
}

std::string fish(const Model& model) {
  std::vector<std::string> all_names;
  for (const Command& command : model.commands) {
    for (const std::string& name : names_of(command)) all_names.push_back(name);
  }
  std::ostringstream out;
  const std::string complete = "complete -c " + model.program;
  out << "# fish completion for " << model.program
      << " (generated by generate_cli_docs; do not edit)\n"
      << "set -l commands " << join(all_names, " ") << "\n"
      << complete << " -f\n";
  const std::string first = " -n \"not __fish_seen_subcommand_from $commands\"";
  for (const Command& command : model.commands) {
    for (const std::string& name : names_of(command)) {
      out << complete << first << " -a " << name << " -d " << fish_quote(command.description)
          << "\n";
    }
  }
  for (const Flag& flag : model.globals) out << fish_flag(model, flag, "");
  for (const Command& command : model.commands) {
    const std::string in_command = "__fish_seen_subcommand_from " + join(names_of(command), " ");
    const std::string seen = " -n '" + in_command + "'";
    for (const Flag& flag : command.flags) out << fish_flag(model, flag, seen);
    if (command.positional_path != PathKind::kNone) {
      out << complete << seen << fish_paths(command.positional_path) << "\n";
    }
    if (command.action_words.empty()) continue;
    const std::string words = join(command.action_words, " ");
    out << complete << " -n '" << in_command << "; and not __fish_seen_subcommand_from " << words
        << "' -a " << fish_quote(words) << "\n";
    for (const Following& following : command.following) {
      const std::string after_action =
          " -n '" + in_command + "; and __fish_seen_subcommand_from " + following.action;
      if (following.path == PathKind::kNone) {
        const std::string next = join(following.words, " ");
        out << complete << after_action << "; and not __fish_seen_subcommand_from " << next
            << "' -a " << fish_quote(next) << "\n";
      } else {
        out << complete << after_action << "'" << fish_paths(following.path) << "\n";
      }
    }
  }
  return out.str();
}

// ---- man page ----

// Roff text: backslashes escaped, hyphens as minus signs, no leading control character.
std::string roff(const std::string& text) {
  std::string out = replace_all(replace_all(text, '\\', "\\e"), '-', "\\-");
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out = "\\&" + out;
  return out;
}

std::string man_flags(const std::vector<Flag>& flags) {
  std::string out;
  for (const Flag& flag : flags) {
    std::vector<std::string> names;
    for (const std::string& name : flag.names) names.push_back("\\fB" + roff(name) + "\\fR");
    out += ".TP\n" + join(names, ", ") + (flag.takes_value ? " \\fIVALUE\\fR" : "") + "\n" +
           roff(flag.description) + "\n";
  }
  return out;
}

// The footer's "Heading:" blocks become sections. In EXIT STATUS, ENVIRONMENT and FILES a line
// "  TERM  text" (two spaces or more between) is one tagged paragraph, a deeper-indented line
// continues it; EXAMPLES are kept as typed (no filling). A line at the margin that is not a
// heading is SEE ALSO.
std::string man_footer(const std::string& footer) {
  std::ostringstream out;
  std::istringstream lines(footer);
  std::string line;
  std::string heading;
  std::size_t term_indent = 0;
  const auto close_examples = [&] {
    if (heading == "EXAMPLES") out << ".fi\n";
  };
  while (std::getline(lines, line)) {
    const auto start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    const std::string text = line.substr(start);
    if (start == 0) {
      close_examples();
      if (text.back() == ':') {
        heading = text.substr(0, text.size() - 1);
        for (char& c : heading) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (heading == "EXIT CODES") heading = "EXIT STATUS";
        out << ".SH \"" << heading << "\"\n";
        if (heading == "EXAMPLES") out << ".nf\n";
        term_indent = 0;
      } else {
        heading = "SEE ALSO";
        out << ".SH \"SEE ALSO\"\n" << roff(text) << "\n";
      }
      continue;
    }
    if (heading == "EXAMPLES") {
      // Kept as typed, the block's own two-space indent removed (a continuation stays deeper).
      out << roff(line.substr(std::min<std::size_t>(start, 2))) << "\n";
      continue;
    }
    const bool tagged = heading == "EXIT STATUS" || heading == "ENVIRONMENT" || heading == "FILES";
    const auto gap = text.find("  ");
    if (tagged && gap != std::string::npos && (term_indent == 0 || start <= term_indent)) {
      term_indent = start;
      out << ".TP\n.B " << roff(text.substr(0, gap)) << "\n"
          << roff(text.substr(text.find_first_not_of(' ', gap))) << "\n";
    } else {
      out << roff(text) << "\n";
    }
  }
  close_examples();
  return out.str();
}

// The program's name as .TH wants it: upper case.
std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string man(const Model& model) {
  std::ostringstream out;
  out << ".\\\" Generated by generate_cli_docs from the CLI definition; do not edit.\n"
      << ".TH " << roff(upper(model.program)) << " 1 \"\" \"clawperator " << CLAWPERATOR_VERSION
      << "\" \"User Commands\"\n"
      << ".SH NAME\n"
      << roff(model.program) << " \\- " << roff(model.description) << "\n"
      << ".SH SYNOPSIS\n"
      << ".B " << roff(model.program) << "\n"
      << "[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n"
      << ".br\n"
      << ".B " << roff(model.program) << "\n"
      << "\\fICOMMAND\\fR \\fB\\-\\-help\\fR\n"
      << ".SH DESCRIPTION\n"
      << roff(model.description) << "\n"
      << ".SH \"GLOBAL OPTIONS\"\n"
      << man_flags(model.globals) << ".SH COMMANDS\n";
  std::string group = "\n";
  for (const Command& command : model.commands) {
    if (command.group != group) {
      group = command.group;
      out << ".SS \"" << roff(group) << "\"\n";
    }
    out << ".TP\n\\fB" << roff(command.name) << "\\fR";
    for (const std::string& positional : command.positionals) {
      out << " [\\fI" << roff(positional) << "\\fR]";
    }
    out << "\n" << roff(command.description) << "\n";
    if (!command.aliases.empty())
      out << ".br\nAliases: " << roff(join(command.aliases, ", ")) << "\n";
    if (!command.flags.empty()) out << ".RS\n" << man_flags(command.flags) << ".RE\n";
  }
  out << man_footer(model.footer);
  return out.str();
}

// ---- --list ----

nlohmann::json listing(const Model& model) {
  auto json_flags = [](const std::vector<Flag>& flags) {
    nlohmann::json out = nlohmann::json::array();
    for (const Flag& flag : flags) {
      const char* path = flag.path == PathKind::kFile        ? "file"
                         : flag.path == PathKind::kDirectory ? "directory"
                                                             : "";
      out.push_back({{"names", flag.names}, {"takes_value", flag.takes_value}, {"path", path}});
    }
    return out;
  };
  nlohmann::json out = {{"globals", json_flags(model.globals)},
                        {"commands", nlohmann::json::array()}};
  for (const Command& command : model.commands) {
    nlohmann::json following = nlohmann::json::object();
    for (const Following& next : command.following) {
      following[next.action] = next.path == PathKind::kNone ? nlohmann::json(next.words)
                               : next.path == PathKind::kFile
                                   ? nlohmann::json(clawperator::kFileValue)
                                   : nlohmann::json(clawperator::kDirectoryValue);
    }
    out["commands"].push_back({{"name", command.name},
                               {"aliases", command.aliases},
                               {"flags", json_flags(command.flags)},
                               {"actionWords", command.action_words},
                               {"following", following}});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: generate_cli_docs OUTPUT_DIR | --list\n";
    return 2;
  }
  clawperator::cli::RawGlobalFlags raw;
  std::vector<clawperator::cli::Command> commands;
  const Model model = read_model(*clawperator::cli::build_cli(raw, commands), "clawperator");
  if (std::string(argv[1]) == "--list") {
    std::cout << listing(model).dump(2) << '\n';
    return 0;
  }
  clawperator::vdevice::VdeviceCommandLine vdevice_line;
  const Model vdevice =
      read_model(*clawperator::vdevice::build_vdevice_cli(vdevice_line), "clawperator-vdevice");
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  for (const Model* program : {&model, &vdevice}) {
    const std::string& name = program->program;
    const std::pair<std::string, std::string> outputs[] = {{name + ".bash", bash(*program)},
                                                           {"_" + name, zsh(*program)},
                                                           {name + ".fish", fish(*program)},
                                                           {name + ".1", man(*program)}};
    for (const auto& [file_name, text] : outputs) {
      std::ofstream file(dir / file_name, std::ios::binary);
      file << text;
      if (!file) {
        std::cerr << "generate_cli_docs: cannot write " << (dir / file_name).string() << '\n';
        return 1;
      }
    }
  }
  return 0;
}
