// The public error catalog: one row per code, in catalog order.
// Rows are only ever appended; a code never changes meaning (docs/contract.md §8).
//
// Order: the 119 public codes of the original Clawperator project (docs/contract.md §8), in
// its order; then the Android-emitted SERVICE_UNAVAILABLE; then the CLI usage codes; then
// codes this CLI added later, each under its family. Field order: code, family, meaning,
// delivery, exit code, strategy, recovery, origin, HTTP status (serve's; the rule it follows:
// a request error 400, a device state the request conflicts with 409, the host's environment
// 503, a tool or the device that failed 502, past a deadline 504). Delivery and exit code are
// the defaults for the phase in which the code is usually raised (docs/contract.md §5, §7).
#include "clawperator/contract/error_catalog.hpp"

namespace clawperator::contract {

namespace {

// One row per code, laid out field by field; keep clang-format from reflowing it.
// clang-format off
constexpr CatalogEntry kCatalog[] = {
    // Notifications & media
    {"NOTIFICATION_EXPIRED", "Notifications & media",
     "The notification key no longer refers to a notification that is currently posted.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "List notifications again to get a current key, and inspect device state with "
     "`clawperator snapshot` before repeating a mutating request.",
     Origin::Android, 502},
    {"NOTIFICATION_NOT_DISMISSIBLE", "Notifications & media",
     "The notification is ongoing or otherwise protected, so the system will not let it be "
     "dismissed.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Leave the notification in place or handle it in the app that posted it; do not repeat the "
     "dismissal.",
     Origin::Android, 502},
    {"NOTIFICATION_ACTION_EXPIRED", "Notifications & media",
     "The requested action button is no longer attached to the notification.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "List notifications again to pick a current action, and inspect device state with "
     "`clawperator snapshot` before repeating a mutating request.",
     Origin::Android, 502},
    {"NOTIFICATION_ACTION_CANCELLED", "Notifications & media",
     "The app cancelled the PendingIntent behind the notification action, so it could not be sent.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "List notifications again for a fresh action, and inspect device state with "
     "`clawperator snapshot` before repeating a mutating request.",
     Origin::Android, 502},
    {"NOTIFICATION_ACTION_INPUT_UNSUPPORTED", "Notifications & media",
     "The notification action asks for a kind of user input that the Operator cannot provide.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Perform the task through the app's own screens instead of the notification action.",
     Origin::Android, 502},
    {"NOTIFICATION_ACTION_AUTHENTICATION_UNSUPPORTED", "Notifications & media",
     "The notification action requires the user to authenticate, which the Operator cannot do.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Unlock the device and perform the task through the app's own screens instead.",
     Origin::Android, 502},
    {"NOTIFICATION_MEDIA_OPERATION_FAILED", "Notifications & media",
     "A notification or media control operation failed on the device for an unclassified reason.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Read the step message, then inspect device state with `clawperator snapshot` before "
     "repeating a mutating request.",
     Origin::Android, 502},
    {"MEDIA_POSITION_INVALID", "Notifications & media",
     "The requested media seek position is not an acceptable position value.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Send a new request with a valid seek position.",
     Origin::Android, 502},
    {"MEDIA_POSITION_OUT_OF_RANGE", "Notifications & media",
     "The requested seek position falls outside the playable range of the current media item.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Read the media status for the current duration and seek to a position inside it.",
     Origin::Android, 502},
    {"DEVICE_USER_NOT_UNLOCKED", "Notifications & media",
     "The device user has not been unlocked since boot, so credential-protected services are not "
     "available yet.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Unlock the device once with its PIN, pattern or password, rerun `clawperator doctor`, then "
     "retry.",
     Origin::Both, 409},
    {"NOTIFICATION_ACCESS_DENIED", "Notifications & media",
     "The Operator has not been granted notification listener access on the device.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Grant notification listener access with `clawperator grant-device-permissions`, then "
     "retry.",
     Origin::Android, 502},
    {"NOTIFICATION_LISTENER_DISCONNECTED", "Notifications & media",
     "The Operator's notification listener is not currently bound to the system.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Re-enable the Operator's notification listener (for example with "
     "`clawperator grant-device-permissions`), then retry.",
     Origin::Android, 502},
    {"NOTIFICATION_QUERY_FAILED", "Notifications & media",
     "The Operator could not read the list of active notifications from the system.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Run `clawperator doctor` to check the Operator's listener access, then repeat the query.",
     Origin::Android, 502},
    {"NOTIFICATION_SERVICE_UNAVAILABLE", "Notifications & media",
     "The system notification service could not be reached from the Operator.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Run `clawperator doctor` to check the device and Operator, then repeat the query.",
     Origin::Android, 502},
    {"MEDIA_SESSION_EXPIRED", "Notifications & media",
     "The referenced media session has ended or is no longer registered.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "List media sessions again to target a live session, and check playback before repeating a "
     "control.",
     Origin::Android, 502},
    {"MEDIA_SESSION_AMBIGUOUS", "Notifications & media",
     "More than one active media session matched the request.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "List media sessions, name the intended session explicitly, and send a new request.",
     Origin::Android, 502},
    {"MEDIA_ACTION_UNSUPPORTED", "Notifications & media",
     "The target media session does not offer the requested control.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Check which controls the session supports with the media status command and use one of "
     "those.",
     Origin::Android, 502},
    {"MEDIA_POSTCONDITION_TIMEOUT", "Notifications & media",
     "A media control was sent but the expected playback state did not appear within the wait "
     "budget.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Read the media status to see what actually happened before sending the control again.",
     Origin::Android, 504},

    // Runtime actions
    {"UI_TREE_UNAVAILABLE", "Runtime actions",
     "The action could not obtain an accessibility hierarchy for the application on screen.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Inspect the failed step's diagnostics and run `clawperator doctor`; do not keep retrying a "
     "screen that exposes no hierarchy.",
     Origin::Android, 502},
    {"SNAPSHOT_HIERARCHY_UNAVAILABLE", "Runtime actions",
     "A snapshot step could not capture the UI hierarchy from the accessibility service.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Inspect the step diagnostics, confirm the accessibility service with `clawperator doctor`, "
     "then take a new snapshot.",
     Origin::Android, 502},
    {"WAIT_TIMEOUT", "Runtime actions",
     "A wait step used up its own time budget before its condition was met.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Take a `clawperator snapshot` to see the current screen, then adjust the selector or the "
     "wait budget.",
     Origin::Android, 504},
    {"ACTION_FAILED", "Runtime actions",
     "An action threw an error on the device that has no more specific code.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Read the retained error message, then inspect device state with `clawperator snapshot` "
     "before repeating a mutating request.",
     Origin::Android, 502},
    {"COMMAND_TIMEOUT", "Runtime actions",
     "The Operator's overall command budget, including time spent queued, ran out before every "
     "step finished.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Review the retained steps and inspect device state with `clawperator snapshot` before "
     "repeating a mutating request; raise the timeout only if the work needs it.",
     Origin::Android, 504},
    {"COMMAND_CANCELLED", "Runtime actions",
     "The command was cancelled on the device before it finished; completed steps are kept.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Review the completed steps and inspect device state with `clawperator snapshot` before "
     "repeating a mutating request.",
     Origin::Android, 502},
    {"CONTAINER_LOST", "Runtime actions",
     "The scroll container being searched vanished or could no longer be identified during the "
     "search.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Earlier scrolls may have moved the UI: take a new `clawperator snapshot` and locate the "
     "container again before repeating.",
     Origin::Android, 502},

    // Evidence
    {"EVIDENCE_CAPTURE_FAILED", "Evidence",
     "Evidence could not be completely captured or saved to the output directory.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Inspect the retained manifest and files, then capture again into a new output directory.",
     Origin::Host, 200},
    {"EVIDENCE_STORAGE_UNWRITABLE", "Evidence",
     "A required filesystem operation failed on the evidence destination or the host video lock "
     "directory.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Point `CLAWPERATOR_EVIDENCE_DIR` at a writable location, choose a new output directory, and "
     "make the lock directory accessible.",
     Origin::Host, 507},
    {"EVIDENCE_OUTPUT_EXISTS", "Evidence",
     "The chosen evidence output directory already exists, and existing destinations are never "
     "overwritten.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Choose an output directory that does not exist yet and run the capture again.",
     Origin::Host, 409},
    {"EVIDENCE_VERIFICATION_FAILED", "Evidence",
     "An evidence bundle's files do not match its manifest, or the manifest cannot be read.",
     Delivery::NotDelivered, 1, RecoveryStrategy::None,
     "Treat the bundle as altered or incomplete: `details.reason` and each artefact's `result` "
     "say which file differs; capture new evidence rather than repairing this one.",
     Origin::Host, 200},
    {"EVIDENCE_SESSION_NOT_FOUND", "Evidence",
     "The given video session identifier is unknown or malformed.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Use the session identifier returned when the video started, then retry.",
     Origin::Host, 404},
    {"EVIDENCE_RECORDING_ACTIVE", "Evidence",
     "Another video session already holds the recording lock for the selected device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Stop the active video session or wait for it to end, then start a new one.",
     Origin::Host, 409},
    {"EVIDENCE_RECOVERY_REQUIRED", "Evidence",
     "A video lock was left in a state that needs manual recovery before recording can resume.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Confirm no recorder still owns the lock and check the retained files before clearing the "
     "lock by hand.",
     Origin::Host, 409},

    // Guardrails (docs/guardrails.md): refusals before anything is sent.
    {"POLICY_INVALID", "Guardrails",
     "The action policy file cannot be read or does not follow its format.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Fix the member `details.path` names in the file `details.policy` names (or point --policy "
     "/ CLAWPERATOR_POLICY elsewhere); a policy that does not load refuses every execution.",
     Origin::Host, 503},
    {"POLICY_DENIED", "Guardrails",
     "A rule of the action policy denies a step of the payload; nothing was sent.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Do not work around it: the rule `details.ruleId` exists so that this action is not taken. "
     "Change the payload, or ask the policy's owner.",
     Origin::Host, 403},
    {"CONFIRMATION_REQUIRED", "Guardrails",
     "A rule of the action policy requires a person's confirmation for a step; nothing was sent.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Never approve it yourself. Ask a person to look at `details.step` and approve "
     "`details.approvalId` with `clawperator approve <approvalId>` at this host's terminal (or in "
     "serve's inspector); then repeat the identical call with --confirm <approvalId> (HTTP: "
     "\"approvalId\"), once, before `details.expiresAt`. Repeated before a person answered, it "
     "answers this again with the same id.",
     Origin::Host, 428},
    {"CONFIRMATION_UNKNOWN", "Guardrails",
     "The approval is unknown, already used, expired, or was recorded for another payload; "
     "nothing was sent.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Repeat the call without --confirm to record a new approval, and have a person approve it.",
     Origin::Host, 409},
    {"CONFIRMATION_DECLINED", "Guardrails",
     "The person asked to confirm a step declined it; nothing was sent.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Do not retry: continue without the step, or ask the person.",
     Origin::Host, 409},
    {"CONFIRMATION_APPROVER_REQUIRED", "Guardrails",
     "Only a person approves a step the action policy stopped, and this request did not come "
     "from one: `clawperator approve` found no terminal it may ask on (no controlling terminal, "
     "or not in its foreground), or an HTTP approval lacked the approver credential that only "
     "the server's terminal showed; nothing was approved.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Do not try to approve it yourself: ask a person to run `clawperator approve "
     "<approvalId>` in a terminal of this host, or to use the approver link `clawperator serve` "
     "showed on its terminal.",
     Origin::Host, 403},
    {"RESULT_AUTHENTICITY_UNAVAILABLE", "Guardrails",
     "--require-authentic-result is set and this device cannot show that the result would be the "
     "Operator's own; nothing was sent.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "`details.reason` says what is missing (the Operator's uid, uids in logcat, or a transport "
     "that shows them). Use a device whose logcat prints each line's uid, or run without "
     "--require-authentic-result and check `resultAuthenticity.verified` yourself.",
     Origin::Host, 409},

    // Host
    {"HOST_DEPENDENCY_MISSING", "Host",
     "A host program the command needs is missing, fails to run, or lacks a required capability.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install or repair the programs listed in `details.dependencies`, make sure they are on "
     "PATH, then retry.",
     Origin::Host, 503},

    // Setup & Connectivity
    {"ADB_NOT_FOUND", "Setup & Connectivity",
     "The adb executable could not be found or launched on the host.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install Android platform-tools and put adb on PATH (or set `ADB_PATH`), then run "
     "`clawperator doctor`.",
     Origin::Host, 503},
    {"NO_DEVICES", "Setup & Connectivity",
     "No connected device or running emulator is visible to adb.",
     Delivery::NotDelivered, 3, RecoveryStrategy::SelectDevice,
     "Connect a device or start an emulator, check it with `clawperator devices`, then retry with "
     "`--device <serial>`.",
     Origin::Host, 404},
    {"MULTIPLE_DEVICES_DEVICE_ID_REQUIRED", "Setup & Connectivity",
     "Several devices are connected and the command was not told which one to use.",
     Delivery::NotDelivered, 3, RecoveryStrategy::SelectDevice,
     "Run `clawperator devices`, pick one serial, and retry with `--device <serial>`.",
     Origin::Host, 400},
    {"OPERATOR_NOT_INSTALLED", "Setup & Connectivity",
     "Neither the requested Operator package nor its other variant is installed on the device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install the Operator with `clawperator operator install --device <serial>` (or from a file "
     "with `clawperator operator setup --apk <path> --device <serial>`), then rerun the command.",
     Origin::Host, 409},
    {"DEVICE_NOT_FOUND", "Setup & Connectivity",
     "The serial given with `--device` does not match any connected device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::SelectDevice,
     "Run `clawperator devices` to list connected serials and retry with `--device` and one of "
     "them.",
     Origin::Host, 404},

    // Execution & State
    {"EXECUTION_VALIDATION_FAILED", "Execution & State",
     "The command or execution payload is structurally invalid and was rejected before dispatch.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Fix the field named in `details.path` and rerun; do not retry the request unchanged.",
     Origin::Host, 400},
    {"EXECUTION_ACTION_UNSUPPORTED", "Execution & State",
     "The payload uses an action type that this CLI does not support.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Replace the action with a supported type and rerun; do not retry unchanged.",
     Origin::Host, 400},
    {"EXECUTION_CONFLICT_IN_FLIGHT", "Execution & State",
     "Another execution is already running on the same device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::WaitThenRetry,
     "Wait for the running execution on that device to finish, then retry.",
     Origin::Host, 423},
    {"RESULT_ENVELOPE_TIMEOUT", "Execution & State",
     "The command was dispatched but no valid result envelope arrived before the timeout.",
     Delivery::DeliveredUnverified, 4, RecoveryStrategy::None,
     "Run `clawperator doctor` and inspect device state with `clawperator snapshot` before "
     "repeating a mutating request; raise the timeout only if the work needs it.",
     Origin::Host, 504},
    {"RESULT_TRANSPORT_SPAWN_FAILED", "Execution & State",
     "The host could not start the process that reads results from the device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Run `clawperator doctor` to check adb and host resources, then retry; nothing was sent.",
     Origin::Host, 503},
    {"RESULT_TRANSPORT_EXITED", "Execution & State",
     "The result reader closed before a complete, correlated result was received.",
     Delivery::DeliveredUnverified, 4, RecoveryStrategy::None,
     "Run `clawperator doctor` and inspect device state with `clawperator snapshot` before "
     "repeating a mutating request.",
     Origin::Host, 502},
    {"RESULT_TRANSPORT_CANCELLED", "Execution & State",
     "The host stopped waiting for the result; work already dispatched to the device was not "
     "cancelled.",
     Delivery::DeliveredUnverified, 4, RecoveryStrategy::None,
     "Check what the device did with `clawperator snapshot` before repeating a mutating request.",
     Origin::Host, 503},
    {"RESULT_TRANSPORT_FAILED", "Execution & State",
     "Obtaining the result failed for a transport reason that has no more specific code.",
     Delivery::DeliveredUnverified, 4, RecoveryStrategy::None,
     "Read `details` and run `clawperator doctor`, then inspect device state with "
     "`clawperator snapshot` before repeating a mutating request.",
     Origin::Host, 502},
    {"RESULT_ENVELOPE_MALFORMED", "Execution & State",
     "The correlated result could not be decoded because its framing, chunks, checksum or JSON "
     "were invalid.",
     Delivery::DeliveredUnverified, 4, RecoveryStrategy::None,
     "Check CLI and Operator versions with `clawperator doctor`, then inspect device state with "
     "`clawperator snapshot` before repeating a mutating request.",
     Origin::Host, 502},
    {"SNAPSHOT_ARTIFACT_WRITE_FAILED", "Execution & State",
     "The raw hierarchy XML could not be written to a new host file; the result envelope is kept.",
     Delivery::DeliveredVerified, 1, RecoveryStrategy::None,
     "Make the artifact destination writable or choose a new path, then take a new snapshot.",
     Origin::Host, 507},
    {"SNAPSHOT_EXTRACTION_FAILED", "Execution & State",
     "The device answered but no usable UI hierarchy could be extracted from its snapshot output.",
     Delivery::DeliveredVerified, 1, RecoveryStrategy::None,
     "Inspect `data.extractionDiagnostics`, check versions with `clawperator doctor`, then take a "
     "new snapshot.",
     Origin::Both, 502},

    // CLI Usage
    {"MISSING_ARGUMENT", "CLI Usage",
     "A required positional argument or flag value was not given on the command line.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Add the missing argument or flag value shown in the message and rerun.",
     Origin::Host, 400},

    // UI & Nodes
    {"NODE_AMBIGUOUS", "UI & Nodes",
     "A strict selector matched more than one node, so nothing was acted on.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RefreshSnapshot,
     "Review `data.candidates`, narrow the selector, and send a new action for the intended node.",
     Origin::Android, 502},
    {"CONTAINER_AMBIGUOUS", "UI & Nodes",
     "A container selector matched more than one container, so nothing was acted on.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RefreshSnapshot,
     "Review `data.candidates`, narrow the container selector, and send a new action.",
     Origin::Android, 502},
    {"NODE_NOT_FOUND", "UI & Nodes",
     "No node on the current screen matched the selector.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RefreshSnapshot,
     "Take a `clawperator snapshot`, adjust the selector or add a wait or scroll, then retry.",
     Origin::Android, 502},
    {"NODE_NOT_CLICKABLE", "UI & Nodes",
     "The matched node does not accept click actions.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RefreshSnapshot,
     "Take a `clawperator snapshot` and target a clickable element, or click by coordinate.",
     Origin::Android, 502},
    {"SECURITY_BLOCK_DETECTED", "UI & Nodes",
     "A security restriction on the current screen stopped the action before it ran.",
     Delivery::NotDelivered, 1, RecoveryStrategy::None,
     "Take a `clawperator snapshot` to see the blocking screen and complete it by hand if "
     "automation is not allowed there.",
     Origin::Android, 502},
    {"CONTAINER_NOT_FOUND", "UI & Nodes",
     "No scroll container on the current screen matched the container selector.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RefreshSnapshot,
     "Take a `clawperator snapshot` and correct the container selector, then retry.",
     Origin::Android, 502},
    {"CONTAINER_NOT_SCROLLABLE", "UI & Nodes",
     "The matched container cannot scroll in the requested direction.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RefreshSnapshot,
     "Take a `clawperator snapshot` and choose a scrollable container or another direction.",
     Origin::Android, 502},
    {"GESTURE_FAILED", "UI & Nodes",
     "The system cancelled or failed to complete the dispatched touch gesture.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Wait for the UI to settle and inspect device state with `clawperator snapshot` before "
     "repeating a mutating request.",
     Origin::Android, 502},
    {"GESTURE_UNSUPPORTED", "UI & Nodes",
     "The device's Android version cannot perform the requested gesture type.",
     Delivery::NotDelivered, 1, RecoveryStrategy::None,
     "Use a device with Android API 26 or newer for drag gestures; retrying will not help.",
     Origin::Android, 502},

    // On-screen log panel
    {"ON_SCREEN_LOG_SERVICE_UNAVAILABLE", "On-screen log panel",
     "The Operator's on-screen log panel controller is not available.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Repair or restart the Operator accessibility service with `clawperator doctor`, then send a "
     "replacement panel action.",
     Origin::Android, 502},
    {"ON_SCREEN_LOG_LAYOUT_INVALID", "On-screen log panel",
     "Android rejected the panel's resolved position, size or layout.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Check the requested offsets and width and send a replacement panel payload with in-range "
     "values.",
     Origin::Android, 502},
    {"ON_SCREEN_LOG_RENDER_FAILED", "On-screen log panel",
     "The panel controller could not show or replace the on-screen log panel.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Confirm the Operator service is healthy with `clawperator doctor`, then send a replacement "
     "panel payload.",
     Origin::Android, 502},
    {"ON_SCREEN_LOG_RENDER_TIMEOUT", "On-screen log panel",
     "Android did not confirm drawing the panel before the controller's deadline.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Treat the panel as possibly visible: take a `clawperator snapshot` and resend only if "
     "needed.",
     Origin::Android, 504},

    // Doctor & devices
    {"LOG_DIRECTORY_UNWRITABLE", "Doctor & devices",
     "The daily log file could not be created or opened in the log directory.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Set `CLAWPERATOR_LOG_DIR` to a writable directory; results are unaffected meanwhile.",
     Origin::Host, 503},
    {"NODE_TOO_OLD", "Doctor & devices",
     "The host Node.js runtime is older than the original Node-based CLI required.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Upgrade Node.js on the host if a Node-based tool needs it; this C++ CLI does not.",
     Origin::Host, 503},
    {"ADB_SERVER_FAILED", "Doctor & devices",
     "The adb server could not be started on the host.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Run `adb kill-server` and `adb start-server`, fix any reported problem, then rerun "
     "`clawperator doctor`.",
     Origin::Host, 503},
    {"ADB_NO_USB_PERMISSIONS", "Doctor & devices",
     "The host user lacks permission to open the device's USB interface.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Grant USB access to the device (for example with a udev rule), reconnect it, then rerun "
     "`clawperator doctor`.",
     Origin::Host, 503},
    {"DEVICE_UNAUTHORIZED", "Doctor & devices",
     "The device has not authorized this host for USB debugging.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Accept the debugging prompt on the device, then check it with `clawperator devices`.",
     Origin::Host, 409},
    {"DEVICE_OFFLINE", "Doctor & devices",
     "The device is visible to adb but is reported as offline.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Reconnect the device or restart adb, then confirm with `clawperator devices`.",
     Origin::Host, 409},
    {"DEVICE_SHELL_UNAVAILABLE", "Doctor & devices",
     "A shell command on the device failed, so its state could not be checked.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Inspect the reported shell failure and run `clawperator doctor --device <serial>` before "
     "retrying.",
     Origin::Host, 503},
    {"OPERATOR_VARIANT_MISMATCH", "Doctor & devices",
     "The installed Operator is the other release/debug variant than the package requested.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Pass the installed package with `--operator-package`, or install the intended variant: "
     "`clawperator operator install` for the release one, `clawperator operator setup --apk "
     "<path>` for another.",
     Origin::Host, 409},
    {"DEVICE_DEV_OPTIONS_DISABLED", "Doctor & devices",
     "Developer options are turned off on the device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Enable developer options in the device settings, then rerun `clawperator doctor`.",
     Origin::Host, 409},
    {"DEVICE_USB_DEBUGGING_DISABLED", "Doctor & devices",
     "USB debugging is turned off on the device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Enable USB debugging in developer options, then rerun `clawperator doctor`.",
     Origin::Host, 409},
    {"DEVICE_ACCESSIBILITY_NOT_RUNNING", "Doctor & devices",
     "The Operator's accessibility service is not active on the device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Run `clawperator doctor --fix --device <serial>`, or reinstall with "
     "`clawperator operator install --force --device <serial>`, which enables accessibility again.",
     Origin::Host, 409},
    {"DEVICE_NOT_INTERACTIVE", "Doctor & devices",
     "The device is asleep, locked, or still waiting for its first unlock, so it cannot be "
     "automated.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Wake and unlock the device, then rerun `clawperator doctor` until the interactive check "
     "passes.",
     Origin::Host, 409},
    {"ANDROID_BUILD_FAILED", "Doctor & devices",
     "Building the Operator Android app from source failed during a full doctor run.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Read the build output in the check details, fix the Android build, and rerun "
     "`clawperator doctor`.",
     Origin::Host, 502},
    {"ANDROID_INSTALL_FAILED", "Doctor & devices",
     "Installing the freshly built Operator app on the device failed during a full doctor run.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Read the install output, free space or remove a conflicting install, and rerun "
     "`clawperator doctor`.",
     Origin::Host, 502},
    {"ANDROID_APP_LAUNCH_FAILED", "Doctor & devices",
     "The Operator app could not be launched on the device during a full doctor run.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check the launch output and device logs, then rerun `clawperator doctor`.",
     Origin::Host, 502},
    {"SMOKE_OPEN_SETTINGS_FAILED", "Doctor & devices",
     "The doctor smoke test could not open the Settings app through the Operator.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Confirm the Operator and accessibility service are healthy with `clawperator doctor`, then "
     "rerun the smoke check.",
     Origin::Host, 502},
    {"SCRCPY_NOT_FOUND", "Doctor & devices",
     "The scrcpy program could not be found on the host.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install scrcpy and put it on PATH, then retry.",
     Origin::Host, 503},
    {"APK_VERSION_UNREADABLE", "Doctor & devices",
     "The installed Operator's version could not be read from the device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Reinstall the Operator with `clawperator operator install`, then rerun "
     "`clawperator doctor`.",
     Origin::Host, 409},
    {"APK_VERSION_INVALID", "Doctor & devices",
     "The installed Operator reports a version string that is not a plain release version.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install a release Operator with `clawperator operator install`.",
     Origin::Host, 409},
    {"CLI_VERSION_INVALID", "Doctor & devices",
     "This CLI's own version string is missing or is not a plain release version.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Reinstall the CLI from an official release build.",
     Origin::Host, 503},
    {"VERSION_INCOMPATIBLE", "Doctor & devices",
     "The installed Operator version does not match this CLI's version.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install a supported Operator release with `clawperator operator install`.",
     Origin::Host, 409},
    {"LOGCAT_UNAVAILABLE", "Doctor & devices",
     "The device log stream could not be read through adb.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Check the device connection and adb with `clawperator doctor`, then retry.",
     Origin::Host, 503},
    {"ANDROID_SDK_TOOL_MISSING", "Doctor & devices",
     "A required Android SDK tool such as emulator, sdkmanager or avdmanager was not found.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install the Android SDK command-line tools and set `ANDROID_HOME`, or the tool's path "
     "variable, then retry.",
     Origin::Host, 503},
    {"EMULATOR_NOT_FOUND", "Doctor & devices",
     "No Android virtual device exists with the given name.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "List the available virtual devices with `clawperator emulator list` and use one of "
     "those names, or create one with `clawperator emulator create`.",
     Origin::Host, 404},
    {"EMULATOR_ALREADY_RUNNING", "Doctor & devices",
     "The named virtual device is already running.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Use the running emulator (see `adb devices`) or stop it first.",
     Origin::Host, 409},
    {"EMULATOR_NOT_RUNNING", "Doctor & devices",
     "The named virtual device is not running.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Start it with `emulator -avd <name>` first, or leave it stopped.",
     Origin::Host, 404},
    {"EMULATOR_UNSUPPORTED", "Doctor & devices",
     "The virtual device's configuration does not meet the emulator requirements.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check the unsupported reasons in the details and use or create a supported virtual device.",
     Origin::Host, 409},
    {"EMULATOR_CREATE_FAILED", "Doctor & devices",
     "Creating a new virtual device failed.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Read the tool output in the details, fix the SDK installation, and try again.",
     Origin::Host, 502},
    {"EMULATOR_START_FAILED", "Doctor & devices",
     "The emulator process could not be started for the virtual device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Read the emulator output in the details, fix the cause, and start it again.",
     Origin::Host, 502},
    {"EMULATOR_STOP_FAILED", "Doctor & devices",
     "The running emulator could not be stopped.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check `adb devices`, then stop the emulator again or close it by hand.",
     Origin::Host, 502},
    {"EMULATOR_DELETE_FAILED", "Doctor & devices",
     "The virtual device could not be deleted.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Make sure the emulator is stopped, read the avdmanager output, and try again.",
     Origin::Host, 502},
    {"EMULATOR_BOOT_TIMEOUT", "Doctor & devices",
     "The emulator did not finish booting within the allowed time.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check `adb devices`; wait for the boot to finish or restart the emulator.",
     Origin::Host, 504},
    {"ANDROID_SYSTEM_IMAGE_INSTALL_FAILED", "Doctor & devices",
     "Installing the Android system image with sdkmanager failed.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Read the sdkmanager output, fix the SDK or network problem, and try again.",
     Origin::Host, 502},
    {"ANDROID_AVD_CREATE_FAILED", "Doctor & devices",
     "Creating the Android virtual device with avdmanager failed.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Read the avdmanager output, fix the reported problem, and try again.",
     Origin::Host, 502},
    {"AGENT_SKILLS_STALE", "Doctor & devices",
     "The locally installed agent skills are older than the ones bundled with this CLI.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Refresh the installed agent skills from this CLI's bundled copy; this is advisory only.",
     Origin::Host, 409},

    // Daemon lifecycle
    {"DAEMON_START_FAILED", "Daemon lifecycle",
     "The background daemon could not be started or did not become ready.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Inspect the daemon log and metadata files under `~/.clawperator/`.",
     Origin::Host, 502},
    {"DAEMON_STOP_FAILED", "Daemon lifecycle",
     "The background daemon could not be stopped cleanly.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Inspect the daemon log and pid files under `~/.clawperator/` and stop the process by hand "
     "if needed.",
     Origin::Host, 502},
    {"DAEMON_PROXY_ERROR", "Daemon lifecycle",
     "The daemon accepted the request but its response was lost, so the outcome is unknown.",
     Delivery::DeliveryUncertain, 4, RecoveryStrategy::None,
     "Inspect the daemon log under `~/.clawperator/` and inspect device state with "
     "`clawperator snapshot` before repeating a mutating request.",
     Origin::Host, 502},

    // Operator install
    {"OPERATOR_DOWNLOAD_UNSUPPORTED", "Operator install",
     "Downloading the Operator APK is not supported for this CLI build or version.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Obtain the Operator APK manually and install it with "
     "`clawperator operator setup --apk <path>`.",
     Origin::Host, 409},
    {"OPERATOR_METADATA_INVALID", "Operator install",
     "The Operator release metadata could not be parsed or is inconsistent.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check the metadata address (`--metadata-url`, `CLAWPERATOR_OPERATOR_METADATA_URL`) and the "
     "field named in `details.field`, or download the APK and its checksum by hand and install it "
     "with `clawperator operator setup --apk <path>`.",
     Origin::Host, 502},
    {"OPERATOR_DOWNLOAD_FAILED", "Operator install",
     "Downloading the Operator APK failed.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check network access (proxies, `CURL_CA_BUNDLE`) and `details.reason`, then rerun "
     "`clawperator operator install`; nothing partial was kept. Or install a local APK with "
     "`clawperator operator setup --apk <path>`.",
     Origin::Host, 502},
    {"OPERATOR_CHECKSUM_FAILED", "Operator install",
     "The downloaded Operator APK does not match its published checksum.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Nothing was installed and the download was removed: rerun `clawperator operator install`. "
     "If it fails again, the mirror or the metadata is wrong; never install an APK whose checksum "
     "does not match.",
     Origin::Host, 502},
    {"OPERATOR_APK_NOT_FOUND", "Operator install",
     "The APK file given to operator setup does not exist.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check the path and rerun `clawperator operator setup --apk <path>` with an existing file.",
     Origin::Host, 404},
    {"OPERATOR_INSTALL_FAILED", "Operator install",
     "Installing the Operator APK on the device with adb failed.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Read the adb output in the details, fix the cause, and rerun "
     "`clawperator operator install` (or `clawperator operator setup --apk <path>`).",
     Origin::Host, 502},
    {"OPERATOR_GRANT_FAILED", "Operator install",
     "The Operator was installed but a required permission or service could not be enabled.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Enable the listed permission on the device, or rerun "
     "`clawperator grant-device-permissions`.",
     Origin::Host, 502},
    {"OPERATOR_VERIFY_FAILED", "Operator install",
     "After setup, the expected Operator package could not be confirmed on the device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Name the package with `--operator-package` and rerun "
     "`clawperator operator install` (or `clawperator operator setup --apk <path>`).",
     Origin::Host, 502},

    // Recording
    {"RECORDING_ALREADY_IN_PROGRESS", "Recording",
     "The Operator is already recording, so a new recording was not started.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Stop the current recording with `clawperator recording stop` before starting another.",
     Origin::Android, 409},
    {"RECORDING_NOT_IN_PROGRESS", "Recording",
     "A stop was requested but the Operator was not recording.",
     Delivery::DeliveredUnverified, 1, RecoveryStrategy::None,
     "Start a recording with `clawperator recording start` first, or skip the stop.",
     Origin::Android, 409},
    {"RECORDING_SESSION_NOT_FOUND", "Recording",
     "No recording session with the given or latest identifier was found on the device.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Pass a valid `--session-id`, or make a new recording with `clawperator recording start` "
     "and `clawperator recording stop`, then run `clawperator recording pull` again.",
     Origin::Host, 404},
    {"RECORDING_PULL_FAILED", "Recording",
     "The recording file could not be copied from the device to the host.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check the device connection and the `--out` directory (`--force` replaces a local copy "
     "that differs), then run `clawperator recording pull` again.",
     Origin::Host, 502},
    {"RECORDING_PARSE_FAILED", "Recording",
     "The recording file could not be read or parsed into steps.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check that `--input` names a complete recording file that `clawperator recording pull` "
     "copied from the device, then run the command again.",
     Origin::Host, 422},
    {"RECORDING_EXPORT_FAILED", "Recording",
     "The parsed recording could not be exported to the requested output.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check the input recording and the output path, then run `clawperator recording export` "
     "again.",
     Origin::Host, 422},
    {"RECORDING_COMPARE_FAILED", "Recording",
     "Two recordings could not be compared.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check that `--baseline` is a `clawperator recording export` file and `--result` the "
     "document `clawperator skills run --json` printed, then compare again.",
     Origin::Host, 422},
    {"REPLAY_DIVERGED", "Recording",
     "`recording replay --verify` ran the replay to its end, but the screen it ended on is not "
     "the one the recording ended on: texts or resource ids of the recorded app differ "
     "(details.recordedOnly, details.replayedOnly).",
     Delivery::DeliveredVerified, 1, RecoveryStrategy::None,
     "Look at the screen with `clawperator snapshot` and at details.recordedOnly and "
     "details.replayedOnly; if the app changed, record the flow again with `clawperator "
     "recording start`.",
     Origin::Host, 409},
    {"REPLAY_UNVERIFIABLE", "Recording",
     "`recording replay --verify` was asked of a recording that shows no screen after its last "
     "step, so there is nothing to compare the replay's end with; nothing was sent.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Record again and let the last screen settle before `clawperator recording stop`, or run "
     "`clawperator recording replay` without --verify.",
     Origin::Host, 422},
    {"RECORDING_SCHEMA_VERSION_UNSUPPORTED", "Recording",
     "The recording file declares a schema version this CLI cannot read.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Use a CLI version that matches the Operator that made the recording, or record again.",
     Origin::Host, 422},

    // Execution & State
    {"BROADCAST_FAILED", "Execution & State",
     "The command broadcast to the Operator package failed or could not be confirmed.",
     Delivery::DeliveryUncertain, 4, RecoveryStrategy::None,
     "Run `clawperator doctor --device <serial> --operator-package <package>` and inspect device "
     "state with `clawperator snapshot` before repeating a mutating request.",
     Origin::Host, 502},
    {"PAYLOAD_TOO_LARGE", "Execution & State",
     "A request or response exceeded a configured size limit.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Split the actions into smaller executions or narrow the query, then send the smaller "
     "request.",
     Origin::Both, 413},
    {"JSON_TOO_DEEP", "Execution & State",
     "The JSON sent nests arrays and objects deeper than 64 levels (an execution payload, an "
     "HTTP request body); nothing was run.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Send JSON that nests at most 64 levels deep; a payload needs about ten.",
     Origin::Host, 400},
    {"DOCTOR_FAILED", "Execution & State",
     "One or more doctor checks failed.",
     Delivery::NotDelivered, 1, RecoveryStrategy::None,
     "Read the failed checks in the report, fix them, and rerun `clawperator doctor`.",
     Origin::Host, 200},

    // UI & Nodes
    {"SERVICE_UNAVAILABLE", "UI & Nodes",
     "The Operator's accessibility service was not available to run the command.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RepairEnvironment,
     "Run `clawperator doctor --fix --device <serial>`, or reinstall with "
     "`clawperator operator install --force --device <serial>`.",
     Origin::Android, 503},

    // CLI Usage
    {"USAGE", "CLI Usage",
     "The command line is malformed: an unknown flag, a missing flag value, or a bad option.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Correct the command line using `clawperator --help` and rerun.",
     Origin::Host, 400},
    {"UNKNOWN_COMMAND", "CLI Usage",
     "The command word is not a known command.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Use the suggested command, or see `clawperator --help` for the list of commands.",
     Origin::Host, 400},
    {"MISSING_SELECTOR", "CLI Usage",
     "The command needs an element selector flag but none was given.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Add a selector such as `--text`, `--id` or `--selector` and rerun.",
     Origin::Host, 400},
    {"INTERNAL_ERROR", "CLI Usage",
     "The CLI hit an unexpected condition, which is a bug in the CLI itself.",
     Delivery::Unknown, 70, RecoveryStrategy::None,
     "Report the bug with the command and its output, then inspect device state with "
     "`clawperator snapshot` before repeating a mutating request.",
     Origin::Host, 500},

    // Host (added by this CLI)
    {"STATE_DIRECTORY_UNSAFE", "Host",
     "The state directory named by `CLAWPERATOR_STATE_DIR` is not a private directory of this "
     "user (a symlink not ours, owned by another user, or writable by group or others), so "
     "nothing was written to it and the device was not contacted.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Point `CLAWPERATOR_STATE_DIR` at a directory you own that only you can write (`mkdir -m "
     "700`), or unset it to use the default; `details.stateDir` and `details.problem` say what "
     "failed.",
     Origin::Host, 503},
    // HTTP server (`clawperator serve`, docs/serve.md): route-local request errors
    {"INVALID_JSON", "HTTP server",
     "The request body is not valid JSON.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Send one JSON object as the body with `Content-Type: application/json`.",
     Origin::Host, 400},
    {"INVALID_BODY", "HTTP server",
     "The request body is JSON but not the object the route takes: a field is missing, has "
     "the wrong type, or is unknown.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Correct the field named in `details.field` (docs/serve.md lists each route's body) and "
     "resend.",
     Origin::Host, 400},
    {"MISSING_EXECUTION", "HTTP server",
     "A POST /execute body has no `execution` object.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Send `{\"execution\": {...}}` with the payload under `execution`.",
     Origin::Host, 400},
    {"INVALID_DEVICE_ID", "HTTP server",
     "The request names a device with a blank or non-string `deviceId`.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Leave `deviceId` out to use the only device, or give a serial from GET /devices.",
     Origin::Host, 400},
    {"UNAUTHORIZED", "HTTP server",
     "The request carried no token, or the wrong one, or one in its query string: every route "
     "but /ping and the inspector's files needs the server's token as a bearer token, on "
     "loopback too (unless it was started with --no-token).",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Send `Authorization: Bearer <token>` with the server's token (the one it printed, or "
     "the one in `serve-<port>.token` in the state directory, read from a file such as `curl "
     "-H @FILE`, never put in an argv or a URL's query), or open the URL it printed.",
     Origin::Host, 401},
    {"FORBIDDEN_ORIGIN", "HTTP server",
     "The request's `Origin` or `Host` is not the server's own: a page of another site, or a "
     "DNS-rebound name.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Call the server by the address it listens on, from its own pages or from a client that "
     "sends no foreign `Origin`.",
     Origin::Host, 403},
    {"ROUTE_NOT_FOUND", "HTTP server",
     "No route of the server has this method and path.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "See docs/serve.md for the routes.",
     Origin::Host, 404},
    {"SSE_CLIENT_LIMIT", "HTTP server",
     "The server already streams events to as many clients as it allows.",
     Delivery::NotDelivered, 1, RecoveryStrategy::WaitThenRetry,
     "Close an idle event stream, or retry GET /events later.",
     Origin::Host, 503},
    {"SSE_SUBSCRIBER_TOO_SLOW", "HTTP server",
     "An event stream fell so far behind the server's events (its queue reached its limit in "
     "events or bytes) that the server closed it; this is the code of its last event, "
     "`dropped`.",
     Delivery::NotDelivered, 1, RecoveryStrategy::WaitThenRetry,
     "Read the stream as it comes, and reconnect to GET /events to follow again.",
     Origin::Host, 503},
    {"MALFORMED_REQUEST", "HTTP server",
     "The request's framing cannot be read one way only: no header name, a Content-Length that "
     "is not one number, Transfer-Encoding other than chunked alone, or a broken chunk.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Send the body with one Content-Length, or with `Transfer-Encoding: chunked` alone.",
     Origin::Host, 400},
    {"REQUEST_HEADERS_TOO_LARGE", "HTTP server",
     "The request line and headers exceed the server's limit in bytes or in lines.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Send fewer or shorter headers (docs/serve.md \"Bounds\" gives the limits).",
     Origin::Host, 431},
    {"REQUEST_TIMEOUT", "HTTP server",
     "The request was not received whole within the server's request deadline, so nothing "
     "was run.",
     Delivery::NotDelivered, 1, RecoveryStrategy::WaitThenRetry,
     "Send the whole request at once; retry on a connection that is not stalled.",
     Origin::Host, 408},
    {"TOO_MANY_CONNECTIONS", "HTTP server",
     "This client address, or all clients together, already hold as many open connections as "
     "the server allows.",
     Delivery::NotDelivered, 1, RecoveryStrategy::WaitThenRetry,
     "Close idle connections and retry.",
     Origin::Host, 503},
    // Skills (`clawperator skills`, docs/skills.md): the original's contracts/skills.ts codes
    {"SKILL_NOT_FOUND", "Skills",
     "No skill with this id is in the registry that was used.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "List the skills with `clawperator skills list` (or `skills search`) and use an id from it; "
     "`registryPath` says which registry was read.",
     Origin::Host, 404},
    {"ARTIFACT_NOT_FOUND", "Skills",
     "The skill lists no artifact of this name (`<name>.recipe.json`).",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Read the skill's artifacts with `clawperator skills get <id>` and name one of them.",
     Origin::Host, 404},
    {"COMPILE_VARS_REQUIRED", "Skills",
     "The artifact needs variables and none were given. Reserved: the original defines it and "
     "never raises it; this CLI reports the first missing one as `COMPILE_VAR_MISSING`.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Pass the artifact's variables with `--vars '{\"NAME\":\"value\"}'`.",
     Origin::Host, 400},
    {"COMPILE_VAR_MISSING", "Skills",
     "A `{{NAME}}` placeholder of the artifact has no value (absent or empty in `--vars`).",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Add the variable named in `details.placeholder` to `--vars`.",
     Origin::Host, 400},
    {"COMPILE_VARS_PARSE_FAILED", "Skills",
     "`--vars` is not one JSON object.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Pass the variables as one JSON object, e.g. `--vars '{\"NAME\":\"value\"}'`.",
     Origin::Host, 400},
    {"COMPILE_VALIDATION_FAILED", "Skills",
     "The artifact with its variables substituted is not a valid execution payload.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Fix the artifact (or the variable) at `details.path`; `details.issues` lists what the "
     "payload validator found.",
     Origin::Host, 400},
    {"REGISTRY_READ_FAILED", "Skills",
     "The skills registry (or a file it names) could not be found, read or parsed.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install the skills with `clawperator skills install`, or name a registry with `--registry` "
     "or `CLAWPERATOR_SKILLS_REGISTRY`; `details.registryPath` says which file was tried.",
     Origin::Host, 503},
    {"SKILLS_SYNC_FAILED", "Skills",
     "Cloning or updating the skills repository failed; git's own message is in the error.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Read git's message in `details.stderr`: check the repository URL (`--repo`, "
     "`CLAWPERATOR_SKILLS_REPO`), the ref and the network, then run the command again.",
     Origin::Host, 502},
    {"SKILLS_GIT_NOT_FOUND", "Skills",
     "`git` is not installed or not on PATH, so the skills repository cannot be synced.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install git (`apt-get install git`) and run the command again.",
     Origin::Host, 503},
    {"SKILL_SCRIPT_NOT_FOUND", "Skills",
     "The skill lists no script, or its script file is not there.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Run `clawperator skills validate <id>` and fix the skill's `scripts`.",
     Origin::Host, 400},
    {"SKILL_EXECUTION_FAILED", "Skills",
     "The skill's script exited with a non-zero status, was killed by a signal, or could not be "
     "started; what it did on the device before that is not known.",
     Delivery::DeliveredVerified, 1, RecoveryStrategy::None,
     "Read `stdout`, `stderr` and `exitCode`; inspect the device with `clawperator snapshot` "
     "before running the skill again.",
     Origin::Host, 200},
    {"SKILL_EXECUTION_TIMEOUT", "Skills",
     "The skill's script did not finish within the deadline and was stopped (SIGTERM, then "
     "SIGKILL); it may have acted on the device.",
     Delivery::DeliveredUnverified, 4, RecoveryStrategy::None,
     "Inspect the device with `clawperator snapshot` before running it again, with a longer "
     "`--timeout` if the skill is slow.",
     Origin::Host, 504},
    {"SKILL_OUTPUT_ASSERTION_FAILED", "Skills",
     "The skill's script succeeded but its standard output does not contain the "
     "`--expect-contains` text.",
     Delivery::DeliveredVerified, 1, RecoveryStrategy::None,
     "Read `output`: the app may show something else now; inspect the device before running "
     "the skill again.",
     Origin::Host, 200},
    {"REGISTRY_ALREADY_EXISTS", "Skills",
     "skills init (or skills new --init) found a skills registry already where it would create "
     "one; it is never replaced.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Use the registry at `details.registryPath` as it is (`clawperator skills new <id>` adds to "
     "it), or name another place with `skills init DIR` or `--registry`.",
     Origin::Host, 409},
    {"SKILL_ALREADY_EXISTS", "Skills",
     "A skill with this id is already in the registry, or its directory already exists.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Choose another id, or edit the existing skill.",
     Origin::Host, 409},
    {"SKILL_ID_INVALID", "Skills",
     "The skill id is not usable: it needs a dot (application id, then intent), and may not hold "
     "a path separator, `..`, or a control character.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Use an id such as `com.example.app.check-status`.",
     Origin::Host, 400},
    {"SKILLS_SCAFFOLD_FAILED", "Skills",
     "The new skill's files or the registry could not be written.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Read `details.path` and `details.cause`, make the skills repository writable, and run "
     "`clawperator skills new` again.",
     Origin::Host, 503},
    {"SKILL_VALIDATION_FAILED", "Skills",
     "The skill's files or metadata do not match its registry entry, or an artifact is not a "
     "valid payload.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Fix what `details` names (`missingFiles`, `mismatchFields`, the artifact's `reason`) and "
     "validate again.",
     Origin::Host, 400},
    {"SKILL_RESULT_PARSE_FAILED", "Skills",
     "The skill's script printed a `[Clawperator-Skill-Result]` line whose JSON cannot be read "
     "or is not a SkillResult; the run is still reported, but what it achieved is not known.",
     Delivery::DeliveredUnverified, 4, RecoveryStrategy::None,
     "Fix the script's result line (one SkillResult object after the marker, on one line; "
     "`details.reason` names the fields at fault); inspect the device before running the skill "
     "again.",
     Origin::Host, 200},
    {"SKILL_RESULT_MISSING", "Skills",
     "The saved skill run given to `recording compare --result` holds no SkillResult: the "
     "skill's script printed no `[Clawperator-Skill-Result]` line (`skillResult` null), or the "
     "document has no `skillResult` (a run that failed before its script started, or no "
     "`skills run` output at all); nothing was compared.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Make the skill's script print one `[Clawperator-Skill-Result]` line with its SkillResult "
     "(docs/skills.md, \"The result line\"), save a run with `clawperator skills run <skill-id> "
     "--json > run.json`, then run `clawperator recording compare --baseline <export.json> "
     "--result run.json`.",
     Origin::Host, 422},

    // Reports (`--report FORMAT=FILE`, docs/commands.md "Reports")
    {"REPORT_WRITE_FAILED", "Reports",
     "The file of `--report` cannot take the run's report: its directory is missing or may not "
     "be written in, it is a symbolic link, a directory or no regular file, (with "
     "`--report-append`) it holds no report of this CLI's format to append to or another run "
     "kept it locked, or the write itself failed (a full disk).",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Name a new or regular file in a directory you may write in (`details.path`, "
     "`details.reason`) and run again. Found before the run, nothing was run; found after it, "
     "the run's outcome and exit code stand and its document's `report` says why the report "
     "is missing.",
     Origin::Host, 400},

    // WebView & Chrome (`clawperator webview …`, docs/webview.md)
    {"WEBVIEW_NOT_FOUND", "WebView & Chrome",
     "No DevTools socket answers for the app (or on the device): its WebViews are not "
     "debuggable, or it runs none now.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Only debuggable WebViews are reachable: the app must call "
     "`WebView.setWebContentsDebuggingEnabled(true)` (a debuggable build does by default), and "
     "a WebView must be open. `clawperator webview list` shows the sockets there are "
     "(`details.sockets`).",
     Origin::Host, 409},
    {"WEBVIEW_PAGE_NOT_FOUND", "WebView & Chrome",
     "The DevTools socket lists no page that `--page` or `--url` names (or none at all), or the "
     "page is held by another DevTools client.",
     Delivery::NotDelivered, 1, RecoveryStrategy::None,
     "Pick a page of `details.pages` (`clawperator webview list`) and pass its id with `--page`, "
     "or close chrome://inspect's window on it.",
     Origin::Host, 409},
    {"WEBVIEW_AMBIGUOUS", "WebView & Chrome",
     "Several DevTools sockets or pages fit and the command was not told which one, so nothing "
     "was done.",
     Delivery::NotDelivered, 1, RecoveryStrategy::None,
     "Review `details.candidates` and rerun with `--app PACKAGE` (sockets) or `--page ID` / "
     "`--url TEXT` (pages).",
     Origin::Host, 409},
    {"WEBVIEW_ELEMENT_NOT_FOUND", "WebView & Chrome",
     "No element of the page matches the CSS selector (or the one that does cannot take the "
     "focus to be typed into), so nothing was done.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RefreshSnapshot,
     "Run `clawperator webview query` to see what the page holds, adjust the selector or "
     "`webview wait` for it, then retry.",
     Origin::Host, 409},
    {"WEBVIEW_ELEMENT_AMBIGUOUS", "WebView & Chrome",
     "The CSS selector matches several elements of the page where one is needed, so nothing was "
     "done.",
     Delivery::NotDelivered, 1, RecoveryStrategy::RefreshSnapshot,
     "Review `details.candidates`, narrow the selector (an id, an attribute, `:nth-of-type`) and "
     "retry.",
     Origin::Host, 409},
    {"WEBVIEW_SELECTOR_INVALID", "WebView & Chrome",
     "The page's `querySelectorAll` refuses the selector: it is no CSS selector.",
     Delivery::NotDelivered, 2, RecoveryStrategy::None,
     "Fix the selector (`details.reason` is the page's SyntaxError) and rerun.",
     Origin::Host, 400},
    {"WEBVIEW_WAIT_TIMEOUT", "WebView & Chrome",
     "`webview wait` reached its `--timeout` before an element matched (or, with `--gone`, "
     "before none did).",
     Delivery::NotDelivered, 1, RecoveryStrategy::None,
     "Check the selector with `clawperator webview query`, or wait longer with `--timeout`.",
     Origin::Host, 504},
    {"WEBVIEW_EVALUATION_FAILED", "WebView & Chrome",
     "The expression of `webview eval` threw (`details.exception` holds the exception's text), "
     "or its value is larger than the result may be.",
     Delivery::DeliveredVerified, 1, RecoveryStrategy::None,
     "Read `details.exception`; the expression ran up to the exception, so inspect the page "
     "before running a mutating expression again.",
     Origin::Host, 502},
    {"WEBVIEW_PROTOCOL_ERROR", "WebView & Chrome",
     "The DevTools endpoint answered outside the protocol, refused a call, or sent more than the "
     "client reads.",
     Delivery::DeliveryUncertain, 4, RecoveryStrategy::None,
     "Read the message and `details` (`cdpCode`, `cdpMessage`); inspect the page with `clawperator "
     "webview query` before repeating a click or type.",
     Origin::Host, 502},
    {"WEBVIEW_DISCONNECTED", "WebView & Chrome",
     "The DevTools connection went away mid-call: the page closed or navigated its WebView away, "
     "the app died, or another client took the page. A click or type may have happened.",
     Delivery::DeliveryUncertain, 4, RecoveryStrategy::None,
     "Run `clawperator webview list` to see what is there now, and inspect the page before "
     "repeating a click or type.",
     Origin::Host, 502},
    {"WEBVIEW_TIMEOUT", "WebView & Chrome",
     "A DevTools call got no answer before the command's `--timeout`. A click or type may have "
     "happened.",
     Delivery::DeliveryUncertain, 4, RecoveryStrategy::None,
     "Check that the app is responsive (`clawperator snapshot`), raise `--timeout`, and inspect "
     "the page before repeating a click or type.",
     Origin::Host, 504},

    // Text on the screen (`--visual-text`, docs/visual-text.md): read from a screenshot on the
    // host. Not found and ambiguous are NODE_NOT_FOUND and NODE_AMBIGUOUS, as for a selector.
    {"VISUAL_TEXT_LOW_CONFIDENCE", "Text on screen",
     "The phrase was recognised on the screen, but only with less confidence than the floor, so "
     "nothing was acted on.",
     Delivery::NotDelivered, 1, RecoveryStrategy::None,
     "Look at `details.candidates` (what was read, where, how sure): a word misread is better "
     "matched with `--visual-text-contains`, small text with a `--region` around it; lower "
     "`--min-confidence` only when the box is surely the one meant.",
     Origin::Host, 409},
    {"OCR_UNAVAILABLE", "Text on screen",
     "The host cannot read text on the screen: Tesseract's library, or the trained data of the "
     "language asked for, is not installed.",
     Delivery::NotDelivered, 3, RecoveryStrategy::RepairEnvironment,
     "Install the engine and the language (Debian: `apt install libtesseract5 tesseract-ocr-eng`, "
     "`tesseract-ocr-LANG` for `--ocr-lang LANG`; or set TESSDATA_PREFIX), then retry.",
     Origin::Host, 503},
    {"SCREEN_CAPTURE_FAILED", "Text on screen",
     "adb could not capture the screen (`screencap` failed or gave no PNG), so no text on it could "
     "be read and nothing was acted on.",
     Delivery::NotDelivered, 3, RecoveryStrategy::None,
     "Check the device with `clawperator doctor` (a locked or secure screen captures nothing), "
     "then retry.",
     Origin::Host, 502},
};
// clang-format on

}  // namespace

std::span<const CatalogEntry> error_catalog() {
  return kCatalog;
}

}  // namespace clawperator::contract
