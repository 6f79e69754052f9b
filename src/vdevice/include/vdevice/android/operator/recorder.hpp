// The Operator's recorder (RecordingManager.kt, RecordingEventFilter.kt): while a session is
// active, every click, back key, text change, scroll and new window the UI model reports is
// written as one NDJSON line of schema version 1, key for key as the Operator writes it
// (docs/recording.md, "The virtual device records").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "clawperator/json.hpp"
#include "vdevice/android/ui/ui_observer.hpp"

namespace clawperator::vdevice::android {

class AndroidSystem;

class Recorder final : public UiObserver {
 public:
  // Beyond either, events are dropped (the Operator has no limit; a test device must not grow
  // without bound) and stop still finishes the file.
  static constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;
  static constexpr std::uint64_t kMaxEvents = 100000;

  explicit Recorder(AndroidSystem& system) : system_(system) {}

  struct Answer {
    bool ok = true;
    Json data = Json::object();  // strings only, as the Operator's step data
  };
  // start_recording / stop_recording with the action's params.sessionId (nullopt: absent).
  Answer start(const std::string& operator_package, const std::optional<std::string>& session_id);
  Answer stop(const std::optional<std::string>& session_id);

  bool observing() const override { return session_.has_value(); }
  void clicked(const VisibleTree& tree, const VisibleNode& target) override;
  void back_pressed(const VisibleTree& tree) override;
  void text_changed(const VisibleNode& field) override;
  void scrolled(const VisibleNode& container, int first_visible) override;
  void window_changed(const VisibleTree& tree, const std::string& activity) override;

 private:
  struct Session {
    std::string id;
    std::string operator_package;
    std::string file_path;
    std::uint64_t next_seq = 0;
    std::uint64_t written = 0;
    std::size_t bytes = 0;
  };

  // The Operator's own windows are not the user's (RecordingEventFilter.kt).
  bool filtered(const std::string& package) const;
  // `fields` without ts, seq, snapshot and type: they are added around them in the Operator's
  // order (ts, seq, snapshot, …fields, type).
  void write_event(const std::string& type, const Json& snapshot, Json fields);

  AndroidSystem& system_;
  std::optional<Session> session_;
};

}  // namespace clawperator::vdevice::android
