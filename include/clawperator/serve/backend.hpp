// What the routes run: the same validation and run_execution as the CLI, so that a route
// answers with the document the CLI prints for the same execution, and every execution is
// published on the event hub. Executions on one device queue on the device lock.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "clawperator/adb/adb_client.hpp"
#include "clawperator/io/state_directory.hpp"
#include "clawperator/json.hpp"
#include "clawperator/serve/event_hub.hpp"

namespace clawperator::serve {

struct BackendSettings {
  adb::AdbSettings adb;
  std::string operator_package;       // when a request names none
  std::optional<std::string> device;  // when a request names none (--device, ANDROID_SERIAL)
  io::StateSelection state;
  std::filesystem::path artifact_dir;  // the server's own directory for screenshots
};

struct Reply {
  int status = 200;
  Json document;
};

class Backend {
 public:
  Backend(BackendSettings settings, EventHub& hub);

  Reply devices() const;
  Reply execute(std::string_view body) const;
  Reply snapshot(std::string_view body) const;
  Reply screenshot(std::string_view body) const;
  Reply query(std::string_view body) const;
  // A screenshot this server wrote, by file name; nullopt for any other name.
  std::optional<std::filesystem::path> artifact(std::string_view name) const;

 private:
  Reply run(Json payload, const Json& body) const;

  BackendSettings settings_;
  EventHub& hub_;
};

}  // namespace clawperator::serve
