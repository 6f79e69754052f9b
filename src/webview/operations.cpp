#include "clawperator/webview/operations.hpp"

#include <algorithm>
#include <thread>

#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/transport/base64.hpp"
#include "clawperator/webview/scripts.hpp"

namespace clawperator::webview {
namespace {

using contract::DispatchState;
using contract::HostError;
using contract::Phase;

Json socket_candidate(const DevtoolsSocket& socket) {
  return Json{{"socket", socket.name},
              {"package", socket.package ? Json(*socket.package) : Json(nullptr)},
              {"pid", socket.pid ? Json(*socket.pid) : Json(nullptr)}};
}

HostError readiness(std::string code, std::string message, Json details) {
  return contract::readiness_error(std::move(code), std::move(message), std::move(details));
}

// A failure found in the page before anything was done to it (no match, several).
HostError before_effect(Effect effect, std::string code, std::string message, Json details) {
  HostError error = contract::make_error(Phase::Dispatch, std::move(code), std::move(message),
                                         std::move(details));
  error.dispatch_state = DispatchState::NotDispatched;
  error.actions = {true, effect == Effect::Read};
  return error;
}

// Runs one of scripts.hpp's texts: its object, or the failure. An exception in our own script
// means the page is not what the script expects (a page that replaced querySelectorAll).
contract::Outcome<Json> run_script(PageSession& page, const std::string& script, Effect effect,
                                   bool started) {
  const Json params{{"expression", script}, {"returnByValue", true}, {"awaitPromise", true}};
  auto answer = page.session.call("Runtime.evaluate", params, page.deadline);
  if (!answer) return contract::failed(error_of(answer.error(), effect, started));
  if (answer->contains("exceptionDetails") || !answer->contains("result") ||
      !(*answer)["result"].contains("value") || !(*answer)["result"]["value"].is_object()) {
    HostError error = error_of(
        CdpFailure{CdpFailure::Kind::Protocol, "the page did not run the selector script", {}},
        effect, started);
    return contract::failed(std::move(error));
  }
  return (*answer)["result"]["value"];
}

// An invalid selector, none matched, or several: the failure; one: nothing.
std::optional<HostError> exactly_one(const Json& answer, const std::string& css, Effect effect) {
  if (const auto invalid = answer.find("invalidSelector"); invalid != answer.end()) {
    HostError error = before_effect(effect, "WEBVIEW_SELECTOR_INVALID",
                                    "Not a CSS selector the page accepts: " + css,
                                    Json{{"selector", css}, {"reason", *invalid}});
    error.phase = Phase::Validation;
    return error;
  }
  const long count = answer.value("count", 0L);
  if (count == 0) {
    return before_effect(effect, "WEBVIEW_ELEMENT_NOT_FOUND",
                         "No element of the page matches " + css, Json{{"selector", css}});
  }
  if (count > 1) {
    Json candidates = Json::array();
    for (const Json& match : answer.value("matches", Json::array())) {
      Json candidate = match;
      candidate.erase("attributes");
      candidates.push_back(std::move(candidate));
    }
    return before_effect(
        effect, "WEBVIEW_ELEMENT_AMBIGUOUS",
        std::to_string(count) + " elements of the page match " + css + "; it must name exactly one",
        Json{{"selector", css}, {"count", count}, {"candidates", candidates}});
  }
  return std::nullopt;
}

Rect rect_of(const Json& bounds) {
  return Rect{bounds.value("x", 0.0), bounds.value("y", 0.0), bounds.value("width", 0.0),
              bounds.value("height", 0.0)};
}

// An element as the scripts describe it, its bounds in CSS and screen pixels.
Json element_of(const Json& match, const PageSession& page, double inner_width) {
  Json element = match;
  const Rect css = rect_of(match.value("bounds", Json::object()));
  std::optional<Rect> screen;
  if (page.geometry) screen = to_screen(css, *page.geometry, inner_width);
  element["bounds"] =
      Json{{"css", to_json(css)}, {"screen", screen ? to_json(*screen) : Json(nullptr)}};
  return element;
}

bool wait_slice(const process::CancelToken& cancel, std::chrono::milliseconds total) {
  const auto until = std::chrono::steady_clock::now() + total;
  while (std::chrono::steady_clock::now() < until) {
    if (process::stop_requested(cancel)) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return !process::stop_requested(cancel);
}

}  // namespace

contract::Outcome<DevtoolsSocket> choose_socket(const std::vector<DevtoolsSocket>& sockets,
                                                const std::optional<std::string>& app,
                                                const std::set<std::string>* running) {
  std::vector<const DevtoolsSocket*> left;
  for (const DevtoolsSocket& socket : sockets) {
    if (!app || socket.package == *app) left.push_back(&socket);
  }
  Json seen = Json::array();
  for (const DevtoolsSocket& socket : sockets) seen.push_back(socket_candidate(socket));
  if (left.empty()) {
    Json details{{"sockets", seen}};
    std::string message =
        app ? "No DevTools socket of " + *app + " on the device"
            : std::string(
                  "No DevTools socket on the device: no debuggable WebView or browser "
                  "is running");
    if (app) details["app"] = *app;
    if (app && running != nullptr) {
      const bool runs = running->count(*app) != 0;
      details["appRunning"] = runs;
      message += runs ? ": it runs, but shows no debuggable WebView (not debuggable, or none "
                        "open now)"
                      : ": it is not running";
    }
    return contract::failed(readiness("WEBVIEW_NOT_FOUND", std::move(message), std::move(details)));
  }
  if (left.size() > 1) {
    Json candidates = Json::array();
    for (const DevtoolsSocket* socket : left) candidates.push_back(socket_candidate(*socket));
    return contract::failed(readiness("WEBVIEW_AMBIGUOUS",
                                      std::to_string(left.size()) + " DevTools sockets" +
                                          (app ? " of " + *app : std::string()) +
                                          "; choose one with --app",
                                      Json{{"candidates", candidates}, {"choice", "--app"}}));
  }
  return *left.front();
}

contract::Outcome<DevtoolsPage> choose_page(const std::vector<DevtoolsPage>& pages,
                                            const PageChoice& choice) {
  std::vector<const DevtoolsPage*> left;
  for (const DevtoolsPage& page : pages) {
    if (choice.id ? page.id != *choice.id : page.type != "page") continue;
    if (choice.url_contains && page.url.find(*choice.url_contains) == std::string::npos) continue;
    left.push_back(&page);
  }
  Json candidates = Json::array();
  for (const DevtoolsPage* page : left) candidates.push_back(to_json(*page));
  if (left.empty()) {
    Json listed = Json::array();
    for (const DevtoolsPage& page : pages) listed.push_back(to_json(page));
    Json details{{"pages", listed}};
    if (choice.id) details["page"] = *choice.id;
    if (choice.url_contains) details["url"] = *choice.url_contains;
    HostError missing =
        readiness("WEBVIEW_PAGE_NOT_FOUND",
                  choice.id             ? "No page with id " + *choice.id
                  : choice.url_contains ? "No page whose URL contains " + *choice.url_contains
                                        : std::string("The DevTools socket lists no page"),
                  std::move(details));
    // With nothing listed there is no page to pick: the catalog's "pick one of details.pages"
    // would send the user to an empty list.
    if (pages.empty()) missing.hint = contract::hint_text(contract::HintId::WebviewShowsNoPage);
    return contract::failed(std::move(missing));
  }
  if (left.size() > 1) {
    return contract::failed(
        readiness("WEBVIEW_AMBIGUOUS",
                  std::to_string(left.size()) + " pages; choose one with --page ID or --url TEXT",
                  Json{{"candidates", candidates}, {"choice", "--page"}}));
  }
  if (left.front()->websocket_url.empty()) {
    return contract::failed(readiness(
        "WEBVIEW_PAGE_NOT_FOUND",
        "The page " + left.front()->id +
            " has no DevTools connection to offer: another DevTools client (chrome://inspect) "
            "is attached to it",
        Json{{"page", left.front()->id}, {"pages", candidates}}));
  }
  return *left.front();
}

HostError error_of(const CdpFailure& failure, Effect effect, bool started) {
  if (failure.kind == CdpFailure::Kind::Cancelled) {
    HostError error = contract::interrupted_error(failure.message, process::interrupted_signal());
    error.actions = {true, effect == Effect::Read};
    if (started) {
      error.phase = Phase::Dispatch;
      error.dispatch_state = DispatchState::Unknown;
    }
    return error;
  }
  const char* code = "WEBVIEW_PROTOCOL_ERROR";
  switch (failure.kind) {
    case CdpFailure::Kind::Unreachable:
      code = "WEBVIEW_NOT_FOUND";
      break;
    case CdpFailure::Kind::Disconnected:
      code = "WEBVIEW_DISCONNECTED";
      break;
    case CdpFailure::Kind::TimedOut:
      code = "WEBVIEW_TIMEOUT";
      break;
    case CdpFailure::Kind::Protocol:
    case CdpFailure::Kind::Cancelled:
      break;
  }
  HostError error = contract::make_error(Phase::Dispatch, code, failure.message, failure.details);
  error.dispatch_state = started ? DispatchState::Unknown : DispatchState::NotDispatched;
  error.actions = {true, effect == Effect::Read};
  return error;
}

contract::Outcome<Json> query(PageSession& page, const std::string& css) {
  CLAWPERATOR_TRY_ASSIGN(const Json answer,
                         run_script(page, query_script(css), Effect::Read, false));
  if (answer.contains("invalidSelector")) {
    return contract::failed(*exactly_one(answer, css, Effect::Read));
  }
  const double inner_width = answer.value("innerWidth", 0.0);
  Json matches = Json::array();
  for (const Json& match : answer.value("matches", Json::array())) {
    matches.push_back(element_of(match, page, inner_width));
  }
  const long count = answer.value("count", 0L);
  const bool truncated = count > static_cast<long>(matches.size());
  return Json{{"selector", css},
              {"count", count},
              {"matches", std::move(matches)},
              {"truncated", truncated}};
}

contract::Outcome<ElementLabels> element_labels(PageSession& page, const std::string& css) {
  CLAWPERATOR_TRY_ASSIGN(const Json answer,
                         run_script(page, labels_script(css), Effect::Read, false));
  if (answer.contains("invalidSelector")) {
    return contract::failed(*exactly_one(answer, css, Effect::Read));
  }
  ElementLabels read;
  read.count = answer.value("count", 0L);
  for (const Json& words : answer.value("labels", Json::array())) {
    if (!words.is_array()) continue;
    for (const Json& word : words) {
      if (!word.is_string()) continue;
      const std::string& text = word.get_ref<const std::string&>();
      if (std::find(read.labels.begin(), read.labels.end(), text) == read.labels.end()) {
        read.labels.push_back(text);
      }
    }
  }
  return read;
}

contract::Outcome<Json> click(PageSession& page, const std::string& css) {
  CLAWPERATOR_TRY_ASSIGN(const Json target,
                         run_script(page, click_target_script(css), Effect::Write, false));
  if (auto refused = exactly_one(target, css, Effect::Write)) return contract::failed(*refused);
  const double inner_width = target.value("innerWidth", 0.0);
  const double x = target.value("x", 0.0);
  const double y = target.value("y", 0.0);
  // Moved, pressed, released: the page sees mouseover, mousedown, mouseup and click, as from a
  // finger or a mouse. From the press on, the click may have happened.
  const std::array<std::string_view, 3> kinds = {"mouseMoved", "mousePressed", "mouseReleased"};
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    Json event{{"type", kinds[i]},
               {"x", x},
               {"y", y},
               {"button", "left"},
               {"buttons", kinds[i] == "mousePressed" ? 1 : 0},
               {"clickCount", 1}};
    if (kinds[i] == "mouseMoved") event["button"] = "none";
    auto sent = page.session.call("Input.dispatchMouseEvent", event, page.deadline);
    if (!sent) return contract::failed(error_of(sent.error(), Effect::Write, i > 0));
  }
  Json element = element_of(target["match"], page, inner_width);
  std::optional<Rect> screen_point;
  if (page.geometry) screen_point = to_screen(Rect{x, y, 0, 0}, *page.geometry, inner_width);
  Json point{{"css", Json{{"x", x}, {"y", y}}},
             {"screen",
              screen_point ? Json{{"x", screen_point->x}, {"y", screen_point->y}} : Json(nullptr)}};
  return Json{{"selector", css}, {"element", std::move(element)}, {"point", std::move(point)}};
}

contract::Outcome<Json> type_text(PageSession& page, const std::string& css,
                                  const std::string& text, bool clear) {
  // Emptying the field is already an effect.
  CLAWPERATOR_TRY_ASSIGN(const Json target,
                         run_script(page, focus_script(css, clear), Effect::Write, clear));
  if (auto refused = exactly_one(target, css, Effect::Write)) return contract::failed(*refused);
  if (!target.value("focused", false)) {
    return contract::failed(before_effect(
        Effect::Write, "WEBVIEW_ELEMENT_NOT_FOUND",
        "The element matching " + css + " does not take the focus, so it cannot be typed into",
        Json{{"selector", css}, {"reason", "notFocusable"}}));
  }
  auto typed = page.session.call("Input.insertText", Json{{"text", text}}, page.deadline);
  if (!typed) return contract::failed(error_of(typed.error(), Effect::Write, true));
  Json element = element_of(target["match"], page, target.value("innerWidth", 0.0));
  return Json{{"selector", css},
              {"element", std::move(element)},
              {"typedLength", text.size()},
              {"cleared", clear}};
}

contract::Outcome<Json> evaluate(PageSession& page, const std::string& expression) {
  const Json params{{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}};
  auto answer = page.session.call("Runtime.evaluate", params, page.deadline);
  if (!answer) return contract::failed(error_of(answer.error(), Effect::Write, true));
  if (const auto thrown = answer->find("exceptionDetails"); thrown != answer->end()) {
    // The exception's own description (its message and stack) where there is one, else the
    // DevTools text ("Uncaught").
    std::string text = thrown->value("text", std::string("Uncaught"));
    if (const auto exception = thrown->find("exception");
        exception != thrown->end() && exception->is_object()) {
      if (const auto description = exception->find("description");
          description != exception->end() && description->is_string()) {
        text = description->get<std::string>();
      } else if (const auto value = exception->find("value"); value != exception->end()) {
        text = value->is_string() ? value->get<std::string>() : dump_json(*value);
      }
    }
    HostError error =
        contract::make_error(Phase::PostProcessing, "WEBVIEW_EVALUATION_FAILED",
                             "The expression threw: " + text, Json{{"exception", text}});
    error.dispatch_state = DispatchState::Dispatched;
    error.actions = {true, false};
    return contract::failed(std::move(error));
  }
  const Json result = answer->value("result", Json::object());
  Json value = result.value("value", Json(nullptr));
  if (const std::size_t size = dump_json(value).size(); size > kMaxEvalResultBytes) {
    HostError error = contract::make_error(
        Phase::PostProcessing, "WEBVIEW_EVALUATION_FAILED",
        "The expression's value is " + std::to_string(size) + " bytes of JSON, more than " +
            std::to_string(kMaxEvalResultBytes) + "; return a smaller part of it",
        Json{{"reason", "resultTooLarge"}, {"bytes", size}});
    error.dispatch_state = DispatchState::Dispatched;
    error.actions = {true, false};
    return contract::failed(std::move(error));
  }
  return Json{{"type", result.value("type", std::string("undefined"))},
              {"value", std::move(value)}};
}

contract::Outcome<Json> wait_for(PageSession& page, const std::string& css, bool gone,
                                 std::chrono::milliseconds budget) {
  const auto started = std::chrono::steady_clock::now();
  const Deadline wait_until = std::min(page.deadline, started + budget);
  for (;;) {
    CLAWPERATOR_TRY_ASSIGN(const Json probe,
                           run_script(page, count_script(css), Effect::Read, false));
    if (probe.contains("invalidSelector")) {
      return contract::failed(*exactly_one(probe, css, Effect::Read));
    }
    const long count = probe.value("count", 0L);
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - started)
                            .count();
    if (gone ? count == 0 : count > 0) {
      return Json{{"selector", css},
                  {"condition", gone ? "gone" : "present"},
                  {"count", count},
                  {"waitedMs", waited}};
    }
    if (std::chrono::steady_clock::now() + kWaitProbeInterval >= wait_until) {
      HostError error =
          contract::make_error(Phase::ResultWait, "WEBVIEW_WAIT_TIMEOUT",
                               std::string(gone ? "Elements still match " : "No element matched ") +
                                   css + " after " + std::to_string(waited) + " ms",
                               Json{{"selector", css},
                                    {"condition", gone ? "gone" : "present"},
                                    {"count", count},
                                    {"waitedMs", waited}});
      error.actions = {true, true};
      return contract::failed(std::move(error));
    }
    if (!wait_slice(page.cancel, kWaitProbeInterval)) {
      return contract::failed(error_of(
          CdpFailure{CdpFailure::Kind::Cancelled, "Interrupted while waiting for " + css, {}},
          Effect::Read, false));
    }
  }
}

contract::Outcome<std::string> capture_png(PageSession& page) {
  auto answer = page.session.call("Page.captureScreenshot", Json{{"format", "png"}}, page.deadline);
  if (!answer) return contract::failed(error_of(answer.error(), Effect::Read, false));
  const auto data = answer->find("data");
  std::optional<std::string> png;
  if (data != answer->end() && data->is_string())
    png = transport::decode_base64(data->get<std::string>());
  static constexpr std::string_view kPngSignature = "\x89PNG\r\n\x1a\n";
  if (!png || png->rfind(kPngSignature, 0) != 0) {
    return contract::failed(error_of(
        CdpFailure{CdpFailure::Kind::Protocol, "Page.captureScreenshot returned no PNG image", {}},
        Effect::Read, false));
  }
  return std::move(*png);
}

}  // namespace clawperator::webview
