// What every evidence operation answers a front end: one JSON document (a success document or
// an error object with the bundle's fields beside it) and the exit code the CLI gives it.
#pragma once

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::evidence {

struct EvidenceReport {
  Json document;
  int exit_code = 0;
};

inline EvidenceReport report_of(const contract::HostError& error) {
  return {contract::to_json(error), contract::exit_code_of(error)};
}

}  // namespace clawperator::evidence
