// The rules of a WebView request and its JSON arguments: pure, apart from the runs
// (webview.cpp), so that the CLI, MCP and HTTP refuse the same requests for the same reasons.
#include <array>

#include "clawperator/service/webview.hpp"
#include "clawperator/word_list.hpp"

namespace clawperator::service {
namespace {

constexpr std::string_view kOnPage = "query|click|type|eval|wait|screenshot";

constexpr std::array<WebviewField, 9> kFields = {{
    {"app", "list|query|click|type|eval|wait|screenshot", "string",
     "The app (package) whose DevTools socket to use (list: only its sockets)"},
    {"pageId", kOnPage, "string", "The page with this id (webview_list shows them)"},
    {"url", kOnPage, "string", "The page whose URL contains this text"},
    {"selector", "query|click|type|wait", "string", "A CSS selector", true},
    {"text", "type", "string", "The text to type into the element", true},
    {"clear", "type", "boolean", "Empty the field before typing"},
    {"expression", "eval", "string", "A JavaScript expression, evaluated in the page", true},
    {"gone", "wait", "boolean", "Wait until nothing matches the selector"},
    {"timeoutMs", "list|query|click|type|eval|wait|screenshot", "integer",
     "The call's budget in milliseconds, 1..600000 (wait: how long to wait; default 15000)"},
}};

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

Unexpected<contract::HostError> invalid(const Problem& problem) {
  return contract::failed(contract::field_error("INVALID_BODY", problem.message, problem.path));
}

}  // namespace

std::span<const WebviewField> webview_fields() {
  return kFields;
}

bool takes_field(const WebviewField& field, WebviewAction action) {
  return listed_in(field.actions, to_string(action));
}

bool takes_selector(WebviewAction action) {
  return action == WebviewAction::Query || action == WebviewAction::Click ||
         action == WebviewAction::Type || action == WebviewAction::Wait;
}

std::optional<Problem> check_webview_timeout(double timeout_ms) {
  // Also NaN: no comparison holds for it.
  if (!(timeout_ms >= kMinWebviewTimeoutMs && timeout_ms <= kMaxWebviewTimeoutMs)) {
    return Problem{"timeoutMs", "must be milliseconds from 1 to 600000"};
  }
  return std::nullopt;
}

std::optional<Problem> check_webview_request(const WebviewRequest& request) {
  if (auto problem = check_webview_timeout(static_cast<double>(request.timeout.count()))) {
    return problem;
  }
  if (takes_selector(request.action)) {
    if (blank(request.selector)) return Problem{"selector", "the CSS selector is blank"};
    if (request.selector.size() > kMaxWebviewSelectorBytes) {
      return Problem{"selector", "the CSS selector is longer than 4096 bytes"};
    }
  }
  if (request.action == WebviewAction::Type && request.text.size() > kMaxWebviewTextBytes) {
    return Problem{"text", "the text is longer than 65536 bytes"};
  }
  if (request.action == WebviewAction::Eval) {
    if (blank(request.expression)) return Problem{"expression", "the expression is blank"};
    if (request.expression.size() > kMaxWebviewTextBytes) {
      return Problem{"expression", "the expression is longer than 65536 bytes"};
    }
  }
  for (const auto& [name, value] :
       {std::pair{"app", &request.app}, std::pair{"pageId", &request.page_id},
        std::pair{"url", &request.url_part}}) {
    if (*value && value->value().empty()) return Problem{name, "needs a value"};
  }
  if (request.page_id && request.url_part) {
    return Problem{"url", "the page is chosen twice, by its id and by its URL; give one"};
  }
  return std::nullopt;
}

contract::Outcome<WebviewRequest> read_webview_arguments(WebviewAction action,
                                                         const Json& arguments) {
  if (!arguments.is_object()) return invalid(Problem{"", "the arguments must be a JSON object"});
  WebviewRequest request;
  request.action = action;
  for (const WebviewField& field : kFields) {
    const auto found = arguments.find(std::string(field.name));
    const bool taken = takes_field(field, action);
    if (found == arguments.end()) {
      if (taken && field.required) {
        return invalid(Problem{
            std::string(field.name),
            "webview " + std::string(to_string(action)) + " needs " + std::string(field.name)});
      }
      continue;
    }
    const std::string name(field.name);
    if (!taken) {
      return invalid(
          Problem{name, name + " is not an argument of webview " + std::string(to_string(action))});
    }
    if (field.type == "string" && !found->is_string()) {
      return invalid(Problem{name, name + " must be a string"});
    }
    if (field.type == "boolean" && !found->is_boolean()) {
      return invalid(Problem{name, name + " must be true or false"});
    }
  }
  const auto text = [&](const char* name) {
    const auto found = arguments.find(name);
    return found == arguments.end() ? std::optional<std::string>()
                                    : std::optional<std::string>(found->get<std::string>());
  };
  request.app = text("app");
  request.page_id = text("pageId");
  request.url_part = text("url");
  if (takes_selector(action)) request.selector = *text("selector");
  if (action == WebviewAction::Type) request.text = *text("text");
  if (action == WebviewAction::Eval) request.expression = *text("expression");
  request.clear = arguments.value("clear", false);
  request.gone = arguments.value("gone", false);
  if (const auto timeout = arguments.find("timeoutMs"); timeout != arguments.end()) {
    if (!timeout->is_number_integer()) {
      return invalid(Problem{"timeoutMs", "timeoutMs must be a whole number from 1 to 600000"});
    }
    const auto ms = timeout->get<long long>();
    if (check_webview_timeout(static_cast<double>(ms))) {
      return invalid(Problem{"timeoutMs", "timeoutMs must be a whole number from 1 to 600000"});
    }
    request.timeout = std::chrono::milliseconds(ms);
  }
  if (auto problem = check_webview_request(request)) {
    return invalid(Problem{problem->path, problem->text()});
  }
  return request;
}

}  // namespace clawperator::service
