#include "clawperator/service/webview.hpp"

#include <algorithm>
#include <array>

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/adb/server_endpoint.hpp"
#include "clawperator/io/atomic_file.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/policy/policy.hpp"
#include "clawperator/policy/verdicts.hpp"
#include "clawperator/transport/sha256.hpp"
#include "clawperator/webview/device_endpoints.hpp"
#include "clawperator/webview/operations.hpp"

namespace clawperator::service {
namespace {

using webview::Effect;

constexpr std::array<std::string_view, 7> kActionWords = {"list", "query", "click",     "type",
                                                          "eval", "wait",  "screenshot"};

Effect effect_of(WebviewAction action) {
  return action == WebviewAction::Click || action == WebviewAction::Type ||
                 action == WebviewAction::Eval
             ? Effect::Write
             : Effect::Read;
}

Json socket_json(const webview::DevtoolsSocket& socket) {
  return Json{{"name", socket.name},
              {"package", socket.package ? Json(*socket.package) : Json(nullptr)},
              {"pid", socket.pid ? Json(*socket.pid) : Json(nullptr)}};
}

contract::Outcome<std::vector<webview::DevtoolsPage>> read_pages(
    const webview::Endpoint& endpoint, webview::Deadline deadline,
    const process::CancelToken& cancel) {
  auto body = webview::http_get(endpoint, "/json/list", deadline, cancel);
  if (!body) return contract::failed(webview::error_of(body.error(), Effect::Read, false));
  webview::PageListReading reading = webview::parse_page_list(*body);
  if (!reading.problem.empty()) {
    return contract::failed(webview::error_of(
        webview::CdpFailure{webview::CdpFailure::Kind::Protocol, reading.problem, {}}, Effect::Read,
        false));
  }
  return std::move(reading.pages);
}

// The PNG where the existing `screenshot` writes its own (src/exec/pipeline.cpp,
// capture_screenshot): a path the caller named atomically, reported absolute; else a new file
// in the temp directory that nobody can have prepared.
contract::Outcome<Json> write_screenshot(const std::string& png,
                                         const std::optional<std::filesystem::path>& named) {
  std::filesystem::path path;
  if (named) {
    std::error_code ignored;
    path = std::filesystem::absolute(*named, ignored);
    if (ignored) path = *named;
  } else {
    const auto stamp = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
    path = io::temp_directory(io::process_state_environment()) /
           ("clawperator-webview-screenshot-" + std::to_string(stamp) + ".png");
  }
  if (auto saved = named ? io::write_file_atomically(path, png) : io::write_new_file(path, png);
      !saved) {
    return contract::failed(
        contract::make_error(contract::Phase::PostProcessing, "SNAPSHOT_ARTIFACT_WRITE_FAILED",
                             "Could not write " + path.string() + ": " + saved.error().message,
                             Json{{"path", path.string()}}));
  }
  return Json{{"path", path.string()}, {"bytes", png.size()}};
}

// Where the action happens, for the policy: the socket's app (none on the tests' seam) and the
// device.
struct WebviewPlace {
  std::optional<std::string> package;
  std::string serial;
};

contract::HostError refused_by_policy(std::string code, std::string message, Json details) {
  return contract::make_error(contract::Phase::Dispatch, std::move(code), std::move(message),
                              std::move(details));
}

// What an approval of this action is bound to: the action and its words, the app, the page and
// the device. Another text typed, another page or another device is another approval.
std::string webview_digest(const WebviewRequest& request, const webview::DevtoolsPage& page,
                           const WebviewPlace& place) {
  const Json bound{{"webview", to_string(request.action)},
                   {"selector", request.selector},
                   {"text", request.text},
                   {"clear", request.clear},
                   {"expression", request.expression},
                   {"package", place.package ? Json(*place.package) : Json(nullptr)},
                   {"page", page.url},
                   {"device", place.serial}};
  return transport::sha256_hex(bound.dump());
}

// The action policy on a click, type or eval (docs/guardrails.md, "WebViews"), before it is
// done: a click is judged as a `click` (tap), a type as an `enter_text` (type), in the socket's
// app, by the words of the elements the selector matches now (webview::element_labels); an eval
// may do either to anything on the page, so it is judged as both, its target unknown (every
// label rule meets it). Reads, and a run with no rule that could match, cost nothing.
contract::Status judge_webview_action(const Session& session, const WebviewRequest& request,
                                      webview::PageSession& page_session,
                                      const webview::DevtoolsPage& page,
                                      const WebviewPlace& place) {
  if (!session.policy || effect_of(request.action) == Effect::Read) return {};
  const policy::Policy& rules = *session.policy;
  const std::string word(to_string(request.action));
  const auto step = [&](std::string action_type, contract::StepEffect effect) {
    policy::StepTarget target;
    target.step_id = "webview-" + word;
    target.action_type = std::move(action_type);
    target.effect = effect;
    target.package = place.package;
    return target;
  };
  std::vector<policy::StepTarget> steps;
  if (request.action != WebviewAction::Type)
    steps.push_back(step("click", contract::StepEffect::Tap));
  if (request.action != WebviewAction::Click) {
    steps.push_back(step("enter_text", contract::StepEffect::Type));
  }
  if (std::none_of(steps.begin(), steps.end(), [&](const policy::StepTarget& target) {
        return policy::could_match(rules, target);
      })) {
    return {};
  }
  if (request.action == WebviewAction::Eval) {
    for (policy::StepTarget& target : steps) target.unread = true;
  } else {
    CLAWPERATOR_TRY_ASSIGN(const webview::ElementLabels read,
                           webview::element_labels(page_session, request.selector));
    // Nothing matches: the action itself fails (WEBVIEW_ELEMENT_NOT_FOUND), nothing to judge.
    if (read.count == 0) return {};
    steps.front().labels = read.labels;
  }
  const policy::Verdict verdict = policy::evaluate(rules, steps);
  if (verdict.decision == policy::Decision::Allow) return {};
  Json details = policy::describe_verdict(verdict, rules);
  details["page"] = page.id;
  const std::string command_id = "webview-" + word;
  if (verdict.decision == policy::Decision::Deny) {
    policy::log_decision(verdict, rules, command_id, "denied");
    return contract::failed(
        refused_by_policy("POLICY_DENIED",
                          "The policy denies webview " + word + " (" + verdict.step.action_type +
                              ") by rule " + verdict.rule->id + "; nothing was done in the page",
                          std::move(details)));
  }
  policy::ConfirmationCall call;
  call.digest = webview_digest(request, page, place);
  call.serial = place.serial;
  call.command_id = command_id;
  call.not_sent = "; nothing was done in the page";
  call.state = session.state.directory.get();
  call.approval_id = request.approval_id;
  call.ask_person = request.ask_person;
  call.ask_person_through = request.ask_person_through;
  call.record_approvals = session.record_approvals;
  call.fail = refused_by_policy;
  CLAWPERATOR_TRY(policy::confirm(verdict, rules, call, std::move(details)));
  return {};
}

// One page's operation: the page chosen among the endpoint's, its session opened, the policy
// asked, the work done.
contract::Outcome<Json> run_on_page(const webview::Endpoint& endpoint,
                                    const WebviewRequest& request, const WebviewPlace& place,
                                    const Session& session, webview::Deadline deadline,
                                    const process::CancelToken& cancel) {
  CLAWPERATOR_TRY_ASSIGN(const std::vector<webview::DevtoolsPage> pages,
                         read_pages(endpoint, deadline, cancel));
  CLAWPERATOR_TRY_ASSIGN(
      const webview::DevtoolsPage page,
      webview::choose_page(pages, webview::PageChoice{request.page_id, request.url_part}));
  const std::optional<std::string> path = webview::websocket_path(page.websocket_url);
  if (!path) {
    return contract::failed(
        webview::error_of(webview::CdpFailure{webview::CdpFailure::Kind::Protocol,
                                              "the page's webSocketDebuggerUrl is no ws:// URL",
                                              {}},
                          Effect::Read, false));
  }
  auto connected = webview::CdpSession::connect(endpoint, *path, deadline, cancel);
  if (!connected) {
    return contract::failed(webview::error_of(connected.error(), effect_of(request.action), false));
  }
  webview::PageSession page_session{**connected, page.geometry, deadline, cancel};
  if (auto judged = judge_webview_action(session, request, page_session, page, place); !judged) {
    contract::HostError error = std::move(judged).error();
    error.details["page"] = page.id;
    return contract::failed(std::move(error));
  }
  contract::Outcome<Json> done = Json::object();
  switch (request.action) {
    case WebviewAction::Query:
      done = webview::query(page_session, request.selector);
      break;
    case WebviewAction::Click:
      done = webview::click(page_session, request.selector);
      break;
    case WebviewAction::Type:
      done = webview::type_text(page_session, request.selector, request.text, request.clear);
      break;
    case WebviewAction::Eval:
      done = webview::evaluate(page_session, request.expression);
      break;
    case WebviewAction::Wait:
      done = webview::wait_for(page_session, request.selector, request.gone, request.timeout);
      break;
    case WebviewAction::Screenshot: {
      CLAWPERATOR_TRY_ASSIGN(const std::string png, webview::capture_png(page_session));
      done = write_screenshot(png, request.screenshot_path);
      break;
    }
    case WebviewAction::List:
      break;
  }
  if (!done) {
    contract::HostError error = std::move(done).error();
    error.details["page"] = page.id;
    return contract::failed(std::move(error));
  }
  Json document = std::move(*done);
  document["page"] = webview::to_json(page);
  return document;
}

}  // namespace

std::string_view to_string(WebviewAction action) {
  return kActionWords[static_cast<std::size_t>(action)];
}

std::optional<WebviewAction> parse_webview_action(std::string_view word) {
  for (std::size_t i = 0; i < kActionWords.size(); ++i) {
    if (kActionWords[i] == word) return static_cast<WebviewAction>(i);
  }
  return std::nullopt;
}

// What `wait` allows beyond its --timeout for the device, the forward and the page.
constexpr std::chrono::milliseconds kWaitSetupAllowance{10000};

contract::Outcome<Json> run_webview(const Session& session, const Target& target,
                                    const WebviewRequest& request,
                                    const process::CancelToken& cancel) {
  // Each front end checked it in its own words (a flag, a field); this is the backstop.
  if (auto problem = check_webview_request(request)) {
    return contract::failed(contract::usage_error("USAGE", problem->text()));
  }
  // `wait`'s --timeout is how long to wait for the element (webview::wait_for): finding the
  // device, the socket and the page get their own allowance on top, so that a short wait ends
  // as WEBVIEW_WAIT_TIMEOUT, never as the setup's WEBVIEW_TIMEOUT.
  const webview::Deadline deadline =
      std::chrono::steady_clock::now() + request.timeout +
      (request.action == WebviewAction::Wait ? kWaitSetupAllowance : std::chrono::milliseconds(0));
  if (request.local_port) {
    // The seam: one endpoint, no device, no app.
    const webview::Endpoint endpoint{"127.0.0.1", *request.local_port};
    const Json socket{{"name", "127.0.0.1:" + std::to_string(*request.local_port)},
                      {"package", nullptr},
                      {"pid", nullptr}};
    if (request.action == WebviewAction::List) {
      CLAWPERATOR_TRY_ASSIGN(const auto pages, read_pages(endpoint, deadline, cancel));
      Json listed = Json::array();
      for (const auto& page : pages) listed.push_back(webview::to_json(page));
      Json entry = socket;
      entry["pages"] = std::move(listed);
      return Json{{"sockets", Json::array({entry})}};
    }
    CLAWPERATOR_TRY_ASSIGN(Json document,
                           run_on_page(endpoint, request, {}, session, deadline, cancel));
    document["socket"] = socket;
    return document;
  }

  const DeviceChoice chosen = choose_device(session, target);
  const auto runner = process::make_system_runner(cancel);
  adb::AdbClient client(*runner, session.adb);
  client.set_deadline(deadline);
  CLAWPERATOR_TRY_ASSIGN(const std::string serial, adb::resolve_device(client, chosen.device));
  auto with_device = [&serial](contract::HostError error) {
    error.details["deviceId"] = serial;
    return contract::failed(std::move(error));
  };
  // Recorded apart from exec's forwards ("-webview" in the key), so that neither sweep takes
  // the other's records for its own.
  const adb::ForwardRegistry registry(session.state.directory.get(),
                                      adb::device_key(session.adb, serial) + "-webview", serial);
  webview::sweep_stale_forwards(client, registry);
  auto listing = webview::list_device_sockets(client, serial);
  if (!listing) return with_device(listing.error());
  const std::vector<webview::DevtoolsSocket>& sockets = listing->sockets;

  if (request.action == WebviewAction::List) {
    Json listed = Json::array();
    for (const webview::DevtoolsSocket& socket : sockets) {
      if (request.app && socket.package != *request.app) continue;
      Json entry = socket_json(socket);
      auto forwarded = webview::ForwardedPort::open(client, serial, socket.name, &registry);
      if (!forwarded) return with_device(forwarded.error());
      auto pages = read_pages({"127.0.0.1", forwarded->port()}, deadline, cancel);
      if (pages) {
        entry["pages"] = Json::array();
        for (const auto& page : *pages) entry["pages"].push_back(webview::to_json(page));
      } else if (pages.error().code == "RESULT_TRANSPORT_CANCELLED") {
        return with_device(pages.error());
      } else {
        // One app's socket that does not answer does not hide the others'.
        entry["pages"] = nullptr;
        entry["error"] = Json{{"code", pages.error().code}, {"message", pages.error().message}};
      }
      listed.push_back(std::move(entry));
    }
    Json document{{"deviceId", serial}, {"sockets", std::move(listed)}};
    if (request.app) document["app"] = *request.app;
    return document;
  }

  auto socket = webview::choose_socket(sockets, request.app, &listing->running_packages);
  if (!socket) return with_device(socket.error());
  auto forwarded = webview::ForwardedPort::open(client, serial, socket->name, &registry);
  if (!forwarded) return with_device(forwarded.error());
  auto done = run_on_page({"127.0.0.1", forwarded->port()}, request,
                          WebviewPlace{socket->package, serial}, session, deadline, cancel);
  if (!done) {
    contract::HostError error = std::move(done).error();
    error.details["socket"] = socket->name;
    return with_device(std::move(error));
  }
  Json document = std::move(*done);
  document["deviceId"] = serial;
  document["socket"] = socket_json(*socket);
  return document;
}

}  // namespace clawperator::service
