// The action types of the execution payload, as the host knows them. Everything about a type
// (names, params, rules, effects, metadata) is its row in the action table (action_table.hpp).
#pragma once

#include <cstdint>

namespace clawperator::contract {

enum class ActionType : std::uint8_t {
  OpenApp,
  OpenUri,
  CloseApp,
  StartRecording,
  StopRecording,
  WaitForNode,
  Click,
  ScrollAndClick,
  Scroll,
  ScrollUntil,
  ReadText,
  EnterText,
  Snapshot,
  TakeScreenshot,
  Sleep,
  PressKey,
  WaitForNavigation,
  ReadKeyValuePair,
  // Notifications and media sessions (docs/payload.md §8): the Operator's listener and the
  // platform's media sessions, readable without touching the screen.
  ListNotifications,
  DismissNotification,
  InvokeNotificationAction,
  ListMediaSessions,
  GetMediaStatus,
  ObserveMedia,
  MediaPlay,
  MediaPause,
  MediaSeek,
  // The on-screen log panel (docs/payload.md §9).
  SetOnScreenLog,
  ClearOnScreenLog,
  QueryUi,
  Swipe,
  Drag,
  ShowToast,
  CancelToast,
  // The host's own readiness probe (docs/wire-protocol.md §4.4): never accepted from a caller.
  DoctorPing,
};

// What an action needs of the device before dispatch (docs/wire-protocol.md §4.4).
enum class ActionReadiness : std::uint8_t {
  Interactive,            // the screen on and unlocked: the doctor_ping probe, wake attempts
  BackgroundObservation,  // reads only the listener and media sessions: an unlocked user
  BackgroundService,      // media controls, which work screen-off and locked: an unlocked user
};

}  // namespace clawperator::contract
