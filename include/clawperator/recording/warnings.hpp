// The warnings a recording command reports, capped: a recording of any length must not make a
// document of any length. The first kMaxListedWarnings are listed; the rest are only counted,
// and the list then ends with "<n> more warnings not listed".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "clawperator/json.hpp"

namespace clawperator::recording {

inline constexpr std::size_t kMaxListedWarnings = 100;

class WarningList {
 public:
  void add(std::string warning);
  bool empty() const { return listed_.empty(); }
  std::size_t total() const { return listed_.size() + omitted_; }
  std::size_t omitted() const { return omitted_; }
  // The listed warnings, then the "more" line when some were omitted.
  Json to_json() const;

 private:
  std::vector<std::string> listed_;
  std::size_t omitted_ = 0;
};

}  // namespace clawperator::recording
