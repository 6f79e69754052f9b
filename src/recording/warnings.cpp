#include "clawperator/recording/warnings.hpp"

namespace clawperator::recording {

void WarningList::add(std::string warning) {
  if (listed_.size() < kMaxListedWarnings) {
    listed_.push_back(std::move(warning));
  } else {
    ++omitted_;
  }
}

Json WarningList::to_json() const {
  Json list = Json::array();
  for (const std::string& warning : listed_) list.push_back(warning);
  if (omitted_ > 0) list.push_back(std::to_string(omitted_) + " more warnings not listed");
  return list;
}

}  // namespace clawperator::recording
