#include "clawperator/service/visual_text.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "clawperator/adb/device_resolution.hpp"
#include "clawperator/adb/screencap.hpp"
#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/hierarchy/tree.hpp"
#include "clawperator/ocr/engine.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/service/actions.hpp"
#include "clawperator/service/execution.hpp"
#include "clawperator/text.hpp"

namespace clawperator::service {
namespace {

using Clock = std::chrono::steady_clock;

// How long a wait lets pass between two readings of the screen: a capture and a recognition
// take a few hundred milliseconds on their own (docs/performance.md).
constexpr std::chrono::milliseconds kWaitPoll{250};
// How far a wait's last reading, begun before its time was up, may run past it.
constexpr std::chrono::milliseconds kReadingGrace{5000};

Json bounds_json(const ocr::Box& box) {
  return "[" + std::to_string(box.left) + "," + std::to_string(box.top) + "][" +
         std::to_string(box.right) + "," + std::to_string(box.bottom) + "]";
}

Coordinate centre_of(const ocr::Box& box) {
  return Coordinate{(box.left + box.right) / 2, (box.top + box.bottom) / 2};
}

Json match_json(const ocr::PhraseMatch& match) {
  const Coordinate centre = centre_of(match.box);
  return Json{{"text", match.text},
              {"bounds", bounds_json(match.box)},
              {"center", {{"x", centre.x}, {"y", centre.y}}},
              {"confidence", std::round(match.confidence * 10) / 10}};
}

Json matches_json(const std::vector<ocr::PhraseMatch>& matches) {
  Json out = Json::array();
  for (const ocr::PhraseMatch& match : matches) out.push_back(match_json(match));
  return out;
}

std::string_view mode_word(ocr::PhraseMode mode) {
  return mode == ocr::PhraseMode::Equals ? "equals" : "contains";
}

// What was asked, in every document and error: the phrase and how it was matched.
Json asked_json(const VisualTextRequest& request) {
  Json asked{{"text", request.phrase}, {"match", mode_word(request.mode)}};
  if (request.index) asked["index"] = *request.index;
  if (request.region) asked["region"] = bounds_json(*request.region);
  if (request.language != "eng") asked["ocrLang"] = request.language;
  return asked;
}

// A failure found on the screen before anything was done: nothing sent, safe to repeat.
contract::HostError before_effect(const VisualTextRequest& request, std::string code,
                                  std::string message, Json details) {
  details["visualText"] = asked_json(request);
  contract::HostError error = contract::make_error(contract::Phase::Dispatch, std::move(code),
                                                   std::move(message), std::move(details));
  error.dispatch_state = contract::DispatchState::NotDispatched;
  error.actions = {true, true};
  return error;
}

contract::HostError ocr_failure(const VisualTextRequest& request, const ocr::OcrError& failure) {
  const bool capture = failure.kind == ocr::OcrError::Kind::ImageInvalid;
  contract::HostError error =
      before_effect(request, capture ? "SCREEN_CAPTURE_FAILED" : "OCR_UNAVAILABLE", failure.message,
                    Json::object());
  error.phase = contract::Phase::Readiness;
  return error;
}

// One reading of the screen: every line recognised, with the screen's size.
struct Reading {
  std::vector<ocr::Line> lines;
};

contract::Outcome<Reading> read_screen(adb::AdbClient& client, const std::string& serial,
                                       const VisualTextRequest& request) {
  auto png = adb::capture_screen_png(client, serial);
  if (!png) {
    if (const int signal = process::interrupted_signal()) {
      return contract::failed(contract::interrupted_error(
          "Interrupted while capturing the screen; nothing was done", signal));
    }
    contract::HostError error =
        before_effect(request, "SCREEN_CAPTURE_FAILED", png.error(), Json::object());
    error.phase = contract::Phase::Readiness;
    return contract::failed(std::move(error));
  }
  auto words = ocr::recognise_png(*png, ocr::RecogniseOptions{request.language, request.region});
  if (!words) return contract::failed(ocr_failure(request, words.error()));
  return Reading{ocr::group_lines(*words)};
}

// The places read with at least the request's confidence, in reading order.
std::vector<ocr::PhraseMatch> sure_matches(const VisualTextRequest& request,
                                           const std::vector<ocr::PhraseMatch>& all) {
  std::vector<ocr::PhraseMatch> sure;
  std::copy_if(
      all.begin(), all.end(), std::back_inserter(sure),
      [&](const ocr::PhraseMatch& match) { return match.confidence >= request.min_confidence; });
  return sure;
}

Json nearest_json(const VisualTextRequest& request, const Reading& reading) {
  Json nearest = Json::array();
  for (const std::string& phrase : ocr::nearest_phrases(reading.lines, request.phrase)) {
    nearest.push_back(phrase);
  }
  return nearest;
}

// Where the phrase is, by the request's rules: one place (the index's, or the only one), or why
// not. Unsure readings count only when nothing sure was read.
contract::Outcome<ocr::PhraseMatch> choose_match(const VisualTextRequest& request,
                                                 const Reading& reading) {
  const std::vector<ocr::PhraseMatch> all =
      ocr::find_phrase(reading.lines, request.phrase, request.mode);
  const std::vector<ocr::PhraseMatch> sure = sure_matches(request, all);
  if (all.empty()) {
    Json nearest = nearest_json(request, reading);
    std::string message = "No text on the screen reads \"" + request.phrase + "\"";
    if (!nearest.empty()) message += " (nearest read: \"" + nearest[0].get<std::string>() + "\")";
    return contract::failed(before_effect(
        request, "NODE_NOT_FOUND", std::move(message),
        Json{{"nearestPhrases", std::move(nearest)}, {"linesRead", reading.lines.size()}}));
  }
  if (sure.empty()) {
    return contract::failed(before_effect(
        request, "VISUAL_TEXT_LOW_CONFIDENCE",
        "\"" + request.phrase + "\" was read " + std::to_string(all.size()) +
            " time(s), each with less confidence than " +
            milliseconds_json(request.min_confidence).dump(),
        Json{{"candidates", matches_json(all)}, {"minConfidence", request.min_confidence}}));
  }
  if (request.index) {
    if (*request.index >= sure.size()) {
      return contract::failed(before_effect(
          request, "NODE_NOT_FOUND",
          "--index " + std::to_string(*request.index) + " asks for more places than the " +
              std::to_string(sure.size()) + " where \"" + request.phrase + "\" was read",
          Json{{"candidates", matches_json(sure)}}));
    }
    return sure[*request.index];
  }
  if (sure.size() > 1) {
    return contract::failed(before_effect(
        request, "NODE_AMBIGUOUS",
        "\"" + request.phrase + "\" was read in " + std::to_string(sure.size()) +
            " places; choose one with --index N (counted from 0 in details.candidates)",
        Json{{"candidates", matches_json(sure)}}));
  }
  return sure.front();
}

exec::ExecutionReport visual_report_of(contract::HostError error, const std::string& serial) {
  if (!serial.empty()) error.details["deviceId"] = serial;
  const int exit_code = contract::exit_code_of(error);
  return {contract::to_json(error), exit_code};
}

exec::ExecutionReport success_report(Json members, const std::string& serial) {
  Json document{{"ok", true}};
  document["deviceId"] = serial;
  for (auto& [key, value] : members.items()) document[key] = std::move(value);
  return {std::move(document), 0};
}

// The tap at the phrase's centre, as `click --coordinate` sends it, judged by the policy with
// the phrase read beside the node under the point.
exec::ExecutionReport tap_phrase(const Session& session, const Target& target,
                                 const VisualTextRequest& request, const ocr::PhraseMatch& match,
                                 const std::string& serial, process::Runner& runner) {
  Json payload = build_click(make_id_stamp(), std::nullopt, centre_of(match.box),
                             request.long_click ? ClickType::LongClick : ClickType::Default);
  payload["timeoutMs"] = milliseconds_json(static_cast<double>(request.timeout.count()));
  auto admitted = contract::admit_execution(payload);
  if (!admitted) return visual_report_of(admitted.error(), serial);
  ExecutionCall call;
  call.read_labels[admitted->actions.front().id] = {match.text};
  call.execution = std::move(*admitted);
  call.target = target;
  call.target.device = serial;
  call.approval_id = request.approval_id;
  call.ask_person = request.ask_person;
  call.ask_person_through = request.ask_person_through;
  exec::ExecutionReport report = run_execution(session, std::move(call), runner);
  Json read = match_json(match);
  read["asked"] = asked_json(request);
  if (report.document.value("ok", false)) {
    report.document["visualText"] = std::move(read);
  } else if (report.document.contains("details") && report.document["details"].is_object()) {
    report.document["details"]["visualText"] = std::move(read);
  }
  return report;
}

}  // namespace

void attach_recognised_text(Json& compact, const std::vector<ocr::Line>& lines,
                            double min_confidence) {
  std::size_t given = 0;
  Json& nodes = compact["nodes"];
  for (const ocr::Line& line : lines) {
    if (line.confidence < min_confidence || !nodes.is_array()) continue;
    const double x = (line.box.left + line.box.right) / 2.0;
    const double y = (line.box.top + line.box.bottom) / 2.0;
    Json* smallest = nullptr;
    double smallest_area = 0;
    for (Json& node : nodes) {
      const std::optional<hierarchy::Bounds> bounds =
          hierarchy::parse_bounds(node.value("bounds", ""));
      if (!bounds || !bounds->holds(x, y)) continue;
      if (smallest == nullptr || bounds->area() <= smallest_area) {
        smallest = &node;
        smallest_area = bounds->area();
      }
    }
    if (smallest == nullptr || !smallest->value("text", "").empty() ||
        !smallest->value("contentDescription", "").empty()) {
      continue;
    }
    Json& recognised = (*smallest)["recognisedText"];
    if (!recognised.is_array()) recognised = Json::array();
    recognised.push_back(Json{{"text", line.text},
                              {"bounds", bounds_json(line.box)},
                              {"confidence", std::round(line.confidence * 10) / 10}});
    ++given;
  }
  compact["recognisedLines"] = given;
}

exec::ExecutionReport with_recognised_text(const Session& session, Json document,
                                           const std::string& language, double min_confidence,
                                           process::Runner& runner) {
  const std::string serial = document.value("deviceId", "");
  VisualTextRequest reading;
  reading.phrase = "-";  // no phrase is looked for: only the request's language and floor count
  reading.language = language;
  reading.min_confidence = min_confidence;
  if (auto problem = check_visual_text_request(reading)) {
    return visual_report_of(contract::usage_error("USAGE", problem->text()), serial);
  }
  adb::AdbClient client(runner, session.adb);
  client.set_deadline(Clock::now() + adb::kScreencapTimeout);
  auto screen = read_screen(client, serial, reading);
  if (!screen) {
    contract::HostError error = std::move(screen).error();
    error.details.erase("visualText");
    return visual_report_of(std::move(error), serial);
  }
  attach_recognised_text(document["compact"], screen->lines, min_confidence);
  return {std::move(document), 0};
}

std::optional<Problem> check_visual_text_request(const VisualTextRequest& request) {
  if (is_blank(request.phrase)) {
    return Problem("visualText", "is blank: name the text to find on the screen");
  }
  if (request.phrase.size() > kMaxVisualTextBytes) {
    return Problem("visualText",
                   "is longer than " + std::to_string(kMaxVisualTextBytes) + " bytes");
  }
  if (request.language.empty() || request.language.size() > 64 ||
      !std::all_of(request.language.begin(), request.language.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '+';
      })) {
    return Problem("ocrLang", "is no Tesseract language name (eng, deu, deu+eng, chi_sim)");
  }
  if (!(request.min_confidence >= 0 && request.min_confidence <= 100)) {
    return Problem("minConfidence", "must be between 0 and 100");
  }
  if (request.region && (request.region->left < 0 || request.region->top < 0 ||
                         request.region->right <= request.region->left ||
                         request.region->bottom <= request.region->top)) {
    return Problem("region", "must be [left,top][right,bottom] with left < right and top < bottom");
  }
  if (request.timeout.count() < 1 || request.timeout.count() > 600000) {
    return Problem("timeoutMs", "must be between 1 and 600000 milliseconds");
  }
  return std::nullopt;
}

std::optional<ocr::Box> parse_region(std::string_view text) {
  std::optional<ocr::Box> region = hierarchy::parse_bounds(text);
  if (region && (region->right <= region->left || region->bottom <= region->top)) {
    return std::nullopt;
  }
  return region;
}

exec::ExecutionReport run_visual_text(const Session& session, const Target& target,
                                      const VisualTextRequest& request, process::Runner& runner) {
  // Each front end checked it in its own words (a flag, a field); this is the backstop.
  if (auto problem = check_visual_text_request(request)) {
    return visual_report_of(contract::usage_error("USAGE", problem->text()), "");
  }
  const bool waits = request.action == VisualTextAction::Wait;
  const Clock::time_point until = Clock::now() + request.timeout;
  adb::AdbClient client(runner, session.adb);
  // The device and the readings within the command's time; a wait's last reading may end a
  // little after it, a click's tap has the same time again as its own execution's.
  client.set_deadline(until + (waits ? kReadingGrace : std::chrono::milliseconds(0)));
  const DeviceChoice chosen = choose_device(session, target);
  auto serial = adb::resolve_device(client, chosen.device);
  if (!serial) return visual_report_of(serial.error(), "");

  std::optional<Reading> reading;
  const auto look = [&]() -> contract::Outcome<ocr::PhraseMatch> {
    CLAWPERATOR_TRY_ASSIGN(Reading read, read_screen(client, *serial, request));
    reading = std::move(read);
    return choose_match(request, *reading);
  };

  if (request.action == VisualTextAction::Query) {
    // Every sure place in reading order (what an index chooses among); none is an answer too.
    auto screen = read_screen(client, *serial, request);
    if (!screen) return visual_report_of(std::move(screen).error(), *serial);
    const Reading& read = *screen;
    const auto all = ocr::find_phrase(read.lines, request.phrase, request.mode);
    const auto sure = sure_matches(request, all);
    Json members{{"visualText", asked_json(request)},
                 {"count", sure.size()},
                 {"matches", matches_json(sure)}};
    if (sure.size() < all.size()) {
      std::vector<ocr::PhraseMatch> unsure;
      std::copy_if(
          all.begin(), all.end(), std::back_inserter(unsure),
          [&](const ocr::PhraseMatch& match) { return match.confidence < request.min_confidence; });
      members["belowConfidence"] = matches_json(unsure);
    }
    if (all.empty()) members["nearestPhrases"] = nearest_json(request, read);
    return success_report(std::move(members), *serial);
  }

  contract::Outcome<ocr::PhraseMatch> found = look();
  // A wait reads the screen again until the phrase is there, or its time is up; only not
  // finding it is waited out (an ambiguity or an unsure reading is an answer already).
  while (waits && !found && found.error().code == "NODE_NOT_FOUND" && Clock::now() < until) {
    std::this_thread::sleep_for(std::min<Clock::duration>(kWaitPoll, until - Clock::now()));
    if (const int signal = process::interrupted_signal()) {
      return visual_report_of(
          contract::interrupted_error("Interrupted while waiting for \"" + request.phrase + "\"",
                                      signal),
          *serial);
    }
    found = look();
  }
  if (!found) {
    contract::HostError error = std::move(found).error();
    if (waits && error.code == "NODE_NOT_FOUND") {
      error.code = "WAIT_TIMEOUT";
      error.message = "\"" + request.phrase + "\" did not appear on the screen within " +
                      std::to_string(request.timeout.count()) + " ms";
    }
    return visual_report_of(std::move(error), *serial);
  }
  switch (request.action) {
    case VisualTextAction::Click:
      return tap_phrase(session, target, request, *found, *serial, runner);
    case VisualTextAction::Read: {
      const ocr::Line& line = reading->lines.at(found->line);
      return success_report(Json{{"visualText", asked_json(request)},
                                 {"text", line.text},
                                 {"bounds", bounds_json(line.box)},
                                 {"match", match_json(*found)}},
                            *serial);
    }
    case VisualTextAction::Wait:
      return success_report(
          Json{{"visualText", asked_json(request)}, {"match", match_json(*found)}}, *serial);
    case VisualTextAction::Query:
      break;
  }
  return visual_report_of(contract::usage_error("USAGE", "unknown visual text action"), *serial);
}

}  // namespace clawperator::service
