// What is wrong with an input, where: the error a module keeps when its failure is a sentence
// for a person rather than a kind to branch on (a scenario's field, an envelope's member, a
// file that cannot be written), so that a caller can still tell where from what
// (docs/architecture.md §2). Carried as Expected<T, Problem>; Expected<void, Problem> for a
// check that may refuse.
//
// Its own header rather than part of expected.hpp: Expected is a template over any error type
// (contract::HostError, io::DirectoryError, …), of which Problem is one, and needs no <string>.
// Header-only and in no layer: any layer may include it (cmake/CheckLayering.cmake).
#pragma once

#include <string>
#include <utility>

namespace clawperator {

struct Problem {
  // Both parts, always: Problem{"", "empty"} for no place. There is deliberately no constructor
  // from one string, so that a bare message never silently becomes the path (g++ would
  // otherwise make an aggregate from one argument in parentheses: Unexpected(message)).
  Problem() = default;
  Problem(std::string where, std::string what) : path(std::move(where)), message(std::move(what)) {}

  // Where in the input: a JSON path ("checkpoints[0].id", "faults.direct"), a field or flag, a
  // file name. Empty when the input as a whole is at fault, or the place is not known.
  std::string path;
  std::string message;

  // The text a person reads: "path: message", or the message alone when there is no path.
  std::string text() const { return path.empty() ? message : path + ": " + message; }

  bool operator==(const Problem&) const = default;
};

}  // namespace clawperator
