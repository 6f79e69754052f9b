#include "clawperator/service/document.hpp"

namespace clawperator::service {

Json success_document(Json members) {
  Json out = object_with_capacity(members.size() + 1);
  out["ok"] = true;
  for (auto& [key, value] : members.items()) out[key] = std::move(value);
  return out;
}

Json document_of(contract::Outcome<Json> outcome) {
  if (!outcome) return contract::to_json(outcome.error());
  return success_document(std::move(*outcome));
}

}  // namespace clawperator::service
