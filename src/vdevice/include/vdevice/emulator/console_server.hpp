// The emulator console's listener on 127.0.0.1:PORT: a poll() loop serving every connection
// through its own ConsoleSession, until a signal or an authenticated `kill`.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/process/unique_fd.hpp"
#include "vdevice/emulator/console.hpp"

namespace clawperator::vdevice::emulator {

class ConsoleServer {
 public:
  enum class Outcome { Stopped, Killed, Failed };

  // Listens on 127.0.0.1:port. Throws std::system_error when it cannot. `config` must
  // outlive the server.
  ConsoleServer(std::uint16_t port, const ConsoleConfig& config);
  ~ConsoleServer();
  ConsoleServer(const ConsoleServer&) = delete;
  ConsoleServer& operator=(const ConsoleServer&) = delete;

  // Serves until `stop` becomes true (checked at least every 100 ms): Stopped; or until a
  // client's `kill` has been answered, unless `ignore_kill`: Killed (every connection is
  // closed first); or until poll() fails: Failed (error() says why).
  Outcome run(const std::atomic<bool>& stop, bool ignore_kill);
  const std::string& error() const noexcept { return error_; }

  // One line per notable event (a kill ignored, a write that failed). Set before run().
  void set_log(std::function<void(std::string_view)> log) { log_ = std::move(log); }

 private:
  struct Client {
    Client(int fd, const ConsoleConfig& config) : socket(fd), session(config) {}
    process::UniqueFd socket;
    ConsoleSession session;
  };

  void accept_clients();
  // Reads what arrived and answers it; false when the client is done (closed, quit).
  bool serve_client(Client& client, bool& kill);
  // Answers are a few lines: a client that does not read them loses them and the connection.
  bool send_all(Client& client, const std::string& bytes);
  void note(std::string_view line) const;

  const ConsoleConfig& config_;
  process::UniqueFd listener_;
  std::vector<std::unique_ptr<Client>> clients_;
  std::string error_;
  std::function<void(std::string_view)> log_;
};

}  // namespace clawperator::vdevice::emulator
