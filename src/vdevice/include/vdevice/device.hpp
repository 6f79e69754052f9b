// The seam between the virtual device's adb transport (src/vdevice/adb/) and
// the simulated Android behind it (src/vdevice/android/). Everything here runs
// on the transport's single event-loop thread: no locking anywhere.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawperator::vdevice {

// The output side of one adb stream, implemented by the transport. Bytes are
// queued and sent as the host's flow control allows.
class ServiceOutput {
 public:
  virtual ~ServiceOutput() = default;
  virtual void write_stdout(std::string_view bytes) = 0;
  // For a raw `shell:` or `exec:` stream stderr is merged into stdout.
  virtual void write_stderr(std::string_view bytes) = 0;
  // Ends the stream once the queued output is sent (shell v2: exit packet, then CLSE). A raw
  // stream (`exec:`, `sync:`, a socket) just closes: the code is not sent.
  virtual void exit(int code) = 0;
  // Bytes written but not yet taken by the host: a session relaying a source it can pause
  // (a socket) reads no more of it while this is large.
  virtual std::size_t queued_bytes() const noexcept { return 0; }
};

// One running service: a shell command, a `logcat` follower.
class ServiceSession {
 public:
  virtual ~ServiceSession() = default;
  virtual void on_input(std::string_view /*bytes*/) {}
  // The host will send no more input (shell v2 close-stdin; a raw stream has no such signal).
  virtual void on_input_closed() {}
  // The host closed the stream (or the connection went away): stop writing.
  virtual void on_host_close() {}
};

// How the transport should behave toward the host (scenario faults).
enum class ConnectionMode {
  Normal,
  Unauthorized,  // answer CNXN with AUTH tokens and never accept a signature
  Offline,       // close the connection right after the host's CNXN
};

// Lets the device act on its connections (the "TCP connection dropped" faults).
class TransportControl {
 public:
  virtual ~TransportControl() = default;
  virtual void drop_all_connections() = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  // "device::ro.product.name=…;ro.product.model=…;ro.product.device=…;features=…"
  virtual std::string banner() const = 0;
  virtual ConnectionMode connection_mode() const = 0;
  virtual void attach_transport(TransportControl* control) = 0;

  // `command` is what follows "shell:" / "shell,v2,…:" (the text the device sh parses).
  // The session writes to `out` now or later (from tick()); it must not use `out`
  // after exit() or after on_host_close().
  virtual std::unique_ptr<ServiceSession> open_shell(const std::string& command,
                                                     ServiceOutput& out) = 0;
  // `exec:CMD` (adb exec-out): binary-safe stdout, no pty, no exit status.
  virtual std::unique_ptr<ServiceSession> open_exec(const std::string& command,
                                                    ServiceOutput& out) = 0;
  // `sync:` (adb push, pull): the file sync protocol over a raw stream. nullptr: refused.
  virtual std::unique_ptr<ServiceSession> open_sync(ServiceOutput& /*out*/) { return nullptr; }
  // `localabstract:NAME`, what `adb forward tcp:N localabstract:NAME` opens for each connection
  // to the forwarded port: a raw byte stream to whoever listens on the abstract socket NAME.
  // nullptr when nothing listens, which adbd answers with CLSE (the host's connection closes).
  virtual std::unique_ptr<ServiceSession> open_local_abstract(const std::string& /*name*/,
                                                              ServiceOutput& /*out*/) {
    return nullptr;
  }

  // The largest message payload the device accepts (CNXN maxdata); nullopt: whatever the host
  // offers, up to 1 MiB. Old devices announce 4096.
  virtual std::optional<std::size_t> max_payload() const { return std::nullopt; }

  // Runs due timers (the Operator's work, sleeps, chunk pacing) and lets live
  // sessions (logcat) write what is new. Called on every loop iteration.
  virtual void tick(std::chrono::steady_clock::time_point now) = 0;
  // When tick() next has something to do; nullopt: only on I/O.
  virtual std::optional<std::chrono::steady_clock::time_point> next_deadline() const = 0;
  // Descriptors of the device's own (its sockets to a WebView's Chromium) whose readability
  // means tick() has something to do: the loop's poll() wakes for them too.
  virtual void add_watched_fds(std::vector<int>& /*fds*/) const {}
};

}  // namespace clawperator::vdevice
