#include "clawperator/skills/queries.hpp"

#include <algorithm>

namespace clawperator::skills {
namespace {

char lower_ascii(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool contains_ignoring_case(std::string_view text, std::string_view part) {
  if (part.empty()) return true;
  const auto found = std::search(text.begin(), text.end(), part.begin(), part.end(),
                                 [](char a, char b) { return lower_ascii(a) == lower_ascii(b); });
  return found != text.end();
}

bool matches(const SkillEntry& skill, const SearchFilter& filter) {
  if (filter.app && skill.application_id != *filter.app) return false;
  if (filter.intent && skill.intent != *filter.intent) return false;
  if (filter.keyword) {
    return contains_ignoring_case(skill.id, *filter.keyword) ||
           contains_ignoring_case(skill.summary, *filter.keyword) ||
           contains_ignoring_case(skill.application_id, *filter.keyword);
  }
  return true;
}

Json listing(const Registry& registry, const SearchFilter& filter) {
  Json skills = Json::array();
  for (const SkillEntry& skill : registry.skills) {
    if (matches(skill, filter)) skills.push_back(skill.raw);
  }
  Json out = Json::object();
  out["count"] = skills.size();
  out["skills"] = std::move(skills);
  add_registry_fields(out, registry);
  return out;
}

}  // namespace

Json list_document(const Registry& registry) {
  return listing(registry, {});
}

contract::Outcome<Json> get_document(const Registry& registry, std::string_view id) {
  const SkillEntry* skill = registry.find(id);
  if (skill == nullptr) return contract::failed(skill_not_found(registry, id));
  Json out = Json::object();
  out["skill"] = skill->raw;
  add_registry_fields(out, registry);
  return out;
}

Json search_document(const Registry& registry, const SearchFilter& filter) {
  return listing(registry, filter);
}

}  // namespace clawperator::skills
