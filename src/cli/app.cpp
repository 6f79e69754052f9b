#include "clawperator/cli/app.hpp"

#include <ostream>
#include <string_view>

#include "clawperator/cli/command.hpp"
#include "clawperator/cli/read_command_line.hpp"
#include "clawperator/cli/run_report.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/service/document.hpp"

namespace clawperator::cli {
namespace {

using contract::HostError;

constexpr std::string_view kVersion = CLAWPERATOR_VERSION;

bool version_requested(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") return false;
    if (arg == "--version") return true;
  }
  return false;
}

void print(std::ostream& out, const Json& document, OutputFormat format) {
  // Streamed: a result with a 64 MiB snapshot is not also held as 64 MiB of text.
  dump_json_to(document, format == OutputFormat::Pretty, [&out](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  });
  out << '\n';
}

// Output format is needed even when parsing failed, so it is found by a scan.
OutputFormat scan_output_format(int argc, const char* const* argv) {
  OutputFormat format = OutputFormat::Json;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if ((arg == "--output" || arg == "--format") && i + 1 < argc) {
      format =
          std::string_view(argv[i + 1]) == "pretty" ? OutputFormat::Pretty : OutputFormat::Json;
    } else if (arg == "--output=pretty" || arg == "--format=pretty") {
      format = OutputFormat::Pretty;
    } else if (arg == "--json") {
      format = OutputFormat::Json;
    }
  }
  return format;
}

// NODE_NOT_FOUND's closest near match (docs/contract.md §3.1) as the failure line's last words:
// `did you mean {"textEquals":"Network & internet"} (text differs from "…" only in case)?`.
std::string nearest_match(const Json& document) {
  const auto details = document.find("details");
  if (details == document.end() || !details->is_object()) return {};
  const auto near = details->find("nearMatches");
  if (near == details->end() || !near->is_array() || near->empty()) return {};
  const Json& first = near->front();
  if (!first.is_object() || !first.contains("matcher")) return {};
  std::string out = "did you mean " + dump_json(first["matcher"]);
  if (const auto why = first.find("why"); why != first.end() && why->is_string()) {
    out += " (" + why->get<std::string>() + ")";
  }
  return out + "?";
}

// The line a person at a terminal reads without jq: `clawperator: CODE: message; hint`. One
// line whatever the message holds, so that a log of stderr keeps one failure per line. With
// --output pretty (a person asked for text) the message keeps its lines, indented under the
// first, and the hint follows on its own line.
void print_failure_line(std::ostream& err, const Json& document, OutputFormat format) {
  if (!document.is_object() || document.value("ok", true) != false) return;
  const auto code = document.find("code");
  if (code == document.end() || !code->is_string()) return;
  const bool pretty = format == OutputFormat::Pretty;
  auto one_line = [](std::string text) {
    std::string out;
    bool space = false;
    for (const char c : text) {
      if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
        space = !out.empty();
        continue;
      }
      if (space) out += ' ';
      space = false;
      out += c;
    }
    return out;
  };
  // Lines after the first indented by two spaces; blank lines stay empty.
  auto as_text = [](const std::string& text) {
    std::string out;
    bool line_start = false;
    for (const char c : text) {
      if (c == '\r') continue;
      if (line_start && c != '\n') out += "  ";
      line_start = c == '\n';
      out += c;
    }
    return out;
  };
  err << "clawperator: " << code->get<std::string>();
  if (const auto message = document.find("message");
      message != document.end() && message->is_string()) {
    const std::string& text = message->get_ref<const std::string&>();
    err << ": " << (pretty ? as_text(text) : one_line(text));
  }
  if (const auto hint = document.find("hint"); hint != document.end() && hint->is_string()) {
    const std::string& text = hint->get_ref<const std::string&>();
    err << (pretty ? "\n  hint: " + as_text(text) : "; " + one_line(text));
  }
  if (const std::string near = nearest_match(document); !near.empty()) {
    err << (pretty ? "\n  " : "; ") << near;
  }
  err << '\n';
}

int emit(std::ostream& out, std::ostream& err, const CommandResult& result, OutputFormat format) {
  if (!result.already_written) print_failure_line(err, result.document, format);
  if (result.already_written) return result.exit_code;
  if (format == OutputFormat::Pretty && result.pretty_text) {
    out << *result.pretty_text;
    return result.exit_code;
  }
  print(out, result.document, format);
  return result.exit_code;
}

}  // namespace

CommandResult success(Json document) {
  return {service::success_document(std::move(document)), contract::exit_code::kSuccess};
}

CommandResult result_of(contract::Outcome<Json> outcome) {
  if (!outcome) return failure(outcome.error());
  return success(std::move(*outcome));
}

CommandResult failure(const HostError& error) {
  return {contract::to_json(error), contract::exit_code_of(error)};
}

CommandResult usage_failure(std::string message, Json details) {
  HostError error = contract::usage_error("USAGE", std::move(message));
  for (auto& [key, value] : details.items()) error.details[key] = std::move(value);
  return failure(error);
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  const OutputFormat early_format = scan_output_format(argc, argv);
  try {
    if (version_requested(argc, argv)) {
      out << kVersion << '\n';
      return contract::exit_code::kSuccess;
    }

    RawGlobalFlags raw;
    const CommandLineReading reading = read_command_line(argc, argv, raw);
    if (reading.help) {
      out << *reading.help;
      return contract::exit_code::kSuccess;
    }
    if (reading.refusal) return emit(out, err, failure(*reading.refusal), early_format);

    GlobalOptions options;
    if (const auto problem = resolve_global_options(raw, process_environment, options)) {
      HostError error = contract::usage_error(problem->code, problem->message);
      if (!problem->flag.empty()) error.details["flag"] = problem->flag;
      return emit(out, err, failure(error), early_format);
    }
    io::configure_logging(
        {options.log_dir, io::parse_log_level(options.log_level), options.verbose});
    const Command* command = reading.command;
    if (command == nullptr) {
      return emit(out, err,
                  failure(contract::usage_error("USAGE", "Use --help for available commands.")),
                  options.output);
    }
    if (options.timeout && !command->takes_timeout) {
      // Ignoring it would let a CI job believe the command is bounded.
      HostError error = contract::usage_error(
          "USAGE", options.timeout_flag +
                       " bounds commands that run on a device (exec, click, snapshot, ...); " +
                       reading.command_name + " does not take it");
      error.details["flag"] = options.timeout_flag;
      return emit(out, err, failure(error), options.output);
    }
    if (!options.report) return emit(out, err, command->run(options), options.output);
    auto report = RunReport::prepare(*command, reading.command_name, *options.report);
    if (!report) return emit(out, err, failure(report.error()), options.output);
    CommandResult result = command->run(options);
    report->write(result);
    return emit(out, err, result, options.output);
  } catch (const std::exception& exception) {
    err << "clawperator: internal error: " << exception.what() << '\n';
    HostError error = contract::usage_error("INTERNAL_ERROR", exception.what());
    return emit(out, err, failure(error), early_format);
  }
}

}  // namespace clawperator::cli
