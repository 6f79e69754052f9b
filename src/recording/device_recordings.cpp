#include "clawperator/recording/device_recordings.hpp"

#include <algorithm>

namespace clawperator::recording {

std::string device_recordings_dir(std::string_view operator_package) {
  return "/sdcard/Android/data/" + std::string(operator_package) + "/files/recordings";
}

bool is_safe_session_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxSessionIdLength) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
}

}  // namespace clawperator::recording
