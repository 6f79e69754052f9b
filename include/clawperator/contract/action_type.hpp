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
  QueryUi,
  Swipe,
  Drag,
  ShowToast,
  CancelToast,
  // The host's own readiness probe (docs/wire-protocol.md §4.4): never accepted from a caller.
  DoctorPing,
};

}  // namespace clawperator::contract
