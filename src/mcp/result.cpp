#include "clawperator/mcp/result.hpp"

#include <algorithm>

#include "clawperator/contract/error_catalog.hpp"
#include "clawperator/contract/outcome.hpp"
#include "clawperator/contract/redaction.hpp"
#include "clawperator/image/png_scale.hpp"
#include "clawperator/text.hpp"
#include "clawperator/transport/base64.hpp"

namespace clawperator::mcp {
namespace {

contract::HostRedaction& host_redaction() {
  static contract::HostRedaction redaction;
  return redaction;
}

bool supports_structured_content(std::string_view protocol_version) {
  return protocol_version >= "2025-06-18";
}

Json text_item(const Json& document) {
  return {{"type", "text"}, {"text", dump_json(document)}};
}

}  // namespace

void set_host_roots(std::vector<std::string> roots) {
  host_redaction() = contract::HostRedaction(std::move(roots));
}

Json redact(Json document) {
  return host_redaction().apply(std::move(document));
}

Json with_failure_summary(Json document) {
  // The pipeline already leads a failed outcome with code, failedStep, message, hint and
  // recovery (src/exec/post_processing.cpp failure_fields); MCP callers also get where it
  // failed, as every host error says it.
  if (!document.is_object() || document.value("ok", true) || !document.contains("envelope")) {
    return document;
  }
  if (const auto found = document.find("details"); found != document.end()) {
    // The step failure's own details (NODE_NOT_FOUND's nearMatches) keep their place.
    if (found->is_object()) {
      found->emplace("phase", contract::to_string(contract::Phase::ResultWait));
      found->emplace("dispatchState", contract::to_string(contract::DispatchState::Dispatched));
    }
    return document;
  }
  Json out = object_with_capacity(document.size() + 1);
  Json details = Json::object();
  details["phase"] = contract::to_string(contract::Phase::ResultWait);
  details["dispatchState"] = contract::to_string(contract::DispatchState::Dispatched);
  for (auto& [key, value] : document.items()) {
    if (key == "envelope") out["details"] = std::move(details);  // beside the failure members
    out[key] = std::move(value);
  }
  return out;
}

Json tool_result(Json document, std::string_view protocol_version, const Json& kept) {
  Json body = redact(with_failure_summary(std::move(document)));
  if (body.is_object() && !body.contains("disposition")) {
    body["disposition"] = contract::to_json(
        contract::Disposition{contract::Delivery::NotDelivered, contract::Retry::Safe});
  }
  for (const auto& [key, value] : kept.items()) body[key] = value;
  const bool is_error = body.is_object() && !body.value("ok", true);
  Json result = Json::object();
  result["content"] = Json::array({text_item(body)});
  if (supports_structured_content(protocol_version) && body.is_object()) {
    result["structuredContent"] = std::move(body);
  }
  if (is_error) result["isError"] = true;
  return result;
}

void truncate_snapshot(Json& document, long long max_chars) {
  if (!document.contains("envelope") || !document["envelope"].contains("stepResults")) return;
  bool truncated = false;
  for (Json& step : document["envelope"]["stepResults"]) {
    if (!step.is_object() || !step.contains("data") || !step["data"].is_object()) continue;
    Json& data = step["data"];
    if (!data.contains("text") || !data["text"].is_string()) continue;
    std::string& text = data["text"].get_ref<std::string&>();
    if (static_cast<long long>(text.size()) <= max_chars) continue;
    std::size_t cut = static_cast<std::size_t>(max_chars);
    // Never split a UTF-8 sequence: the JSON text must stay valid.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text.resize(cut);
    truncated = true;
  }
  if (truncated) document["truncated"] = true;
}

Json image_result(const std::string& png_base64, Json document, std::string_view protocol_version) {
  Json result = tool_result(std::move(document), protocol_version);
  result["content"].push_back({{"type", "image"}, {"data", png_base64}, {"mimeType", "image/png"}});
  return result;
}

Json screenshot_result(const std::string& png, Json document,
                       std::optional<long long> max_dimension, std::string_view protocol_version) {
  if (!max_dimension) {
    return image_result(transport::encode_base64(png), std::move(document), protocol_version);
  }
  auto fitted = image::fit_png(
      png, static_cast<std::uint32_t>(std::clamp<long long>(*max_dimension, 1, image::kMaxSide)));
  if (!fitted) {
    contract::HostError error = contract::make_error(
        contract::Phase::PostProcessing, "ACTION_FAILED",
        "the screenshot could not be scaled to maxDimension: " + fitted.error().text());
    error.dispatch_state = contract::DispatchState::Dispatched;
    error.actions = {true, true};  // a screenshot changes nothing: another one is safe
    return tool_result(contract::to_json(error), protocol_version);
  }
  document["image"] = {{"width", fitted->size.width},
                       {"height", fitted->size.height},
                       {"originalWidth", fitted->original.width},
                       {"originalHeight", fitted->original.height},
                       {"scaled", fitted->size != fitted->original}};
  return image_result(transport::encode_base64(fitted->png), std::move(document), protocol_version);
}

}  // namespace clawperator::mcp
