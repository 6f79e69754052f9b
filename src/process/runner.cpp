#include "clawperator/process/runner.hpp"

#include <cerrno>
#include <cstring>

namespace clawperator::process {

std::string SpawnError::message() const {
  return std::strerror(code);
}

bool spawn_error_is_not_found(int spawn_errno) noexcept {
  switch (spawn_errno) {
    case ENOENT:
    case ENOTDIR:
    case EACCES:
    case EPERM:
    case ENOEXEC:
    case ELOOP:
    case ENAMETOOLONG:
      return true;
    default:
      return false;
  }
}

std::string_view to_string(Completion::Status status) noexcept {
  switch (status) {
    case Completion::Status::Exited:
      return "exited";
    case Completion::Status::Signaled:
      return "signaled";
    case Completion::Status::TimedOut:
      return "timed out";
    case Completion::Status::Cancelled:
      return "cancelled";
    case Completion::Status::SpawnFailed:
      return "spawn failed";
  }
  return "unknown";
}

}  // namespace clawperator::process
