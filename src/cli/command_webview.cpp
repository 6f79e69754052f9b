// `clawperator webview list|query|click|type|eval|wait|screenshot` (docs/webview.md): flags to
// a service::WebviewRequest and its answer to the document and exit code; the work is
// src/service/webview.cpp's. Includes no webview/ header: Beast stays off the CLI's files.
#include <array>
#include <memory>

#include "clawperator/cli/action_words.hpp"
#include "clawperator/cli/command.hpp"
#include "clawperator/cli/help_text.hpp"
#include "clawperator/cli/session.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/service/webview.hpp"
#include "clawperator/word_list.hpp"

namespace clawperator::cli {
namespace {

using service::WebviewAction;

struct WebviewFlags {
  std::string action;
  std::vector<std::string> words;  // query/click/wait: CSS; type: CSS TEXT; eval: EXPRESSION
  std::optional<std::string> app;
  std::optional<std::string> page;
  std::optional<std::string> url;
  std::optional<std::string> path;
  bool clear = false;
  bool gone = false;
};

// The words each action takes after it, for its usage message.
std::string_view usage_of(WebviewAction action) {
  switch (action) {
    case WebviewAction::List:
      return "webview list [--app PACKAGE]";
    case WebviewAction::Query:
      return "webview query CSS";
    case WebviewAction::Click:
      return "webview click CSS";
    case WebviewAction::Type:
      return "webview type CSS TEXT [--clear]";
    case WebviewAction::Eval:
      return "webview eval EXPRESSION";
    case WebviewAction::Wait:
      return "webview wait CSS [--gone] [--timeout MS]";
    case WebviewAction::Screenshot:
      return "webview screenshot [--path FILE]";
  }
  return {};
}

std::size_t word_count(WebviewAction action) {
  switch (action) {
    case WebviewAction::List:
    case WebviewAction::Screenshot:
      return 0;
    case WebviewAction::Type:
      return 2;
    case WebviewAction::Query:
    case WebviewAction::Click:
    case WebviewAction::Eval:
    case WebviewAction::Wait:
      break;
  }
  return 1;
}

std::optional<CommandResult> refuse_misplaced_webview_flags(const WebviewFlags& flags,
                                                            WebviewAction action) {
  struct WebviewFlagUse {
    std::string_view name;
    bool given;
    std::string_view takes;
  };
  const std::array<WebviewFlagUse, 5> uses = {{
      {"--page", flags.page.has_value(), "query|click|type|eval|wait|screenshot"},
      {"--url", flags.url.has_value(), "query|click|type|eval|wait|screenshot"},
      {"--path", flags.path.has_value(), "screenshot"},
      {"--clear", flags.clear, "type"},
      {"--gone", flags.gone, "wait"},
  }};
  const std::string word(service::to_string(action));
  for (const WebviewFlagUse& use : uses) {
    if (use.given && !listed_in(use.takes, word)) {
      return usage_failure(std::string(use.name) + " is not an option of webview " + word +
                               " (it belongs to webview " + std::string(use.takes) + ")",
                           Json{{"flag", use.name}});
    }
  }
  if (flags.path && flags.path->empty()) {
    return usage_failure("--path needs a value", Json{{"flag", "--path"}});
  }
  return std::nullopt;
}

CommandResult run_webview(const WebviewFlags& flags, const GlobalOptions& options) {
  const std::string all_words(action_word_list("webview"));
  if (flags.action.empty()) return usage_failure("webview needs one of " + all_words);
  const std::optional<WebviewAction> action = service::parse_webview_action(flags.action);
  if (!action) {
    return usage_failure("webview has " + all_words + ", not '" + flags.action + "'",
                         Json{{"argument", flags.action}});
  }
  if (auto refused = refuse_misplaced_webview_flags(flags, *action)) return *refused;
  const std::size_t wanted = word_count(*action);
  if (flags.words.size() != wanted) {
    Json details = Json::object();
    if (flags.words.size() > wanted) details["argument"] = flags.words[wanted];
    return usage_failure(
        std::string(flags.words.size() < wanted ? "Missing argument" : "Unexpected argument") +
            ": " + std::string(usage_of(*action)),
        std::move(details));
  }
  service::WebviewRequest request;
  request.action = *action;
  request.app = flags.app;
  request.page_id = flags.page;
  request.url_part = flags.url;
  request.clear = flags.clear;
  request.gone = flags.gone;
  if (flags.path) request.screenshot_path = std::filesystem::path(*flags.path);
  if (*action == WebviewAction::Eval) {
    request.expression = flags.words[0];
  } else if (wanted > 0) {
    request.selector = flags.words[0];
    if (wanted == 2) request.text = flags.words[1];
  }
  if (options.timeout) {
    const std::optional<double> ms = contract::parse_milliseconds(*options.timeout);
    if (!ms || service::check_webview_timeout(*ms)) {
      return usage_failure(options.timeout_flag + " must be milliseconds from 1 to 600000",
                           Json{{"flag", options.timeout_flag}});
    }
    request.timeout = std::chrono::milliseconds(static_cast<long>(*ms));
  }
  // The service's rules, said in the CLI's words: a flag by its name, a word by its value.
  if (const auto problem = service::check_webview_request(request)) {
    Json details = Json::object();
    if (problem->path == "selector") details["argument"] = request.selector;
    if (problem->path == "text") details["argument"] = request.text;
    if (problem->path == "expression") details["argument"] = request.expression;
    for (const auto& [field, flag] :
         {std::pair{"app", "--app"}, std::pair{"pageId", "--page"}, std::pair{"url", "--url"}}) {
      if (problem->path == field) details["flag"] = flag;
    }
    return usage_failure(problem->message + ": " + std::string(usage_of(*action)),
                         std::move(details));
  }
  // Ctrl-C and SIGTERM become a cancellation the client sees between slices, so that the
  // forward is removed before the process ends (src/webview/device_endpoints.cpp); the policy
  // judges a click, type or eval, and --confirm or the terminal's person may confirm it.
  auto session = prepare_device_run(options, request);
  if (!session) return failure(session.error());
  return result_of(service::run_webview(*session, {}, request));
}

}  // namespace

void register_webview_commands(CommandLine root, std::vector<Command>& commands) {
  auto flags = std::make_shared<WebviewFlags>();
  CommandLine command = root.add_subcommand(
      "webview", "Debuggable WebViews and Chrome through DevTools: pages, elements, JavaScript");
  command.group("WebView");
  command.add_option("action", flags->action,
                     "list | query | click | type | eval | wait | screenshot");
  command.add_option("words", flags->words,
                     "query, click, wait: a CSS selector; type: CSS TEXT; eval: an expression");
  command.add_option("--app", flags->app,
                     "The app (package) whose DevTools socket to use (list: only its sockets)");
  command.add_option("--page", flags->page,
                     "query, click, type, eval, wait, screenshot: the page with this id "
                     "(webview list shows them)");
  command.add_option("--url", flags->url,
                     "query, click, type, eval, wait, screenshot: the page whose URL contains "
                     "this text");
  command
      .add_option("--path", flags->path,
                  "screenshot: where to write the PNG (default: a new file in the temp directory)")
      .value_name(kFileValue);
  command.add_flag("--clear", flags->clear, "type: empty the field before typing");
  command.add_flag("--gone", flags->gone, "wait: until nothing matches the selector");
  set_command_footer(
      command,
      "Notes:\n"
      "  Only debuggable WebViews are reachable (WebView.setWebContentsDebuggingEnabled(true),\n"
      "  or a debuggable build) and Chrome. wait waits for the whole budget at most.\n"
      "  See docs/webview.md.\n\n"
      "Examples:\n"
      "  clawperator webview list\n"
      "  clawperator webview query 'input[name=email]' --app com.example.shop\n"
      "  clawperator webview type '#email' 'ada@example.com' --clear\n"
      "  clawperator webview click 'button[type=submit]'\n"
      "  clawperator webview wait '.welcome' --timeout 10000\n"
      "  clawperator webview eval 'document.title'",
      "15 s");
  Command entry{
      command.app(), [flags](const GlobalOptions& options) { return run_webview(*flags, options); },
      std::vector<std::string>{"--app", "--page", "--url", "--path", "--clear", "--gone"}};
  entry.takes_timeout = true;
  commands.push_back(std::move(entry));
}

}  // namespace clawperator::cli
