#include "vdevice/android/operator/direct_results.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "clawperator/json.hpp"
#include "clawperator/transport/sha256.hpp"
#include "vdevice/android/operator/result_frames.hpp"
#include "vdevice/android/system/android_system.hpp"

namespace clawperator::vdevice::android {
namespace {

using std::chrono::milliseconds;

constexpr const char* kResultSocketTag = "OperatorResultSocket";
constexpr double kMaxLifetimeMs = 150000;
constexpr std::size_t kMaxSessionIdLength = 128;
// How much longer than its header's byteLength the oversizedFrame fault makes the data frame.
constexpr std::size_t kOversize = 64;

bool valid_session_id(const std::string& id) {
  return !id.empty() && id.size() <= kMaxSessionIdLength &&
         std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_' || c == '.';
         });
}

std::string control_frame(const Json& object) {
  std::string out;
  append_frame(out, dump_json(object));
  return out;
}

long long elapsed_ms(SteadyTime from, SteadyTime to) {
  return std::chrono::duration_cast<milliseconds>(to - from).count();
}

}  // namespace

struct DirectResults::Session {
  std::string id;
  std::string package;
  std::string command_id;
  std::string task_id;
  std::string socket;
  DirectFault fault = DirectFault::None;
  Connection* connection = nullptr;  // the one connection it serves, while open
  bool connected = false;            // a connection was accepted: later ones are refused
  bool over = false;
  std::optional<std::string> result;  // the canonical line, until it is written
  SteadyTime delivered_at;
};

// One accepted connection to a session's socket.
class DirectResults::Connection : public ServiceSession {
 public:
  Connection(DirectResults& owner, std::shared_ptr<Session> session, ServiceOutput& out)
      : owner_(owner), alive_(owner.alive_), session_(std::move(session)), out_(&out) {
    Session& s = *session_;
    if (s.over || s.connected || s.fault == DirectFault::RefuseConnection) {
      close();
      return;
    }
    s.connected = true;
    s.connection = this;
    if (s.fault == DirectFault::NeverReady) return;
    Json ready = Json::object();
    ready["type"] = "ready";
    ready["protocol"] = 1;
    ready["sessionId"] = s.id;
    ready["operatorPackage"] = s.package;
    ready["commandId"] = s.command_id;
    ready["taskId"] = s.task_id;
    out_->write_stdout(control_frame(ready));
    ready_sent_ = true;
    if (s.result) send_result();
  }

  ~Connection() override { detach(); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void on_input(std::string_view bytes) override {
    // A hung Operator (neverReady) reads nothing; a device that is gone neither.
    if (closed_ || !ready_sent_ || !*alive_) return;
    frames_.feed(bytes);
    while (!closed_) {
      std::optional<std::string> frame = frames_.next();
      if (!frame) break;
      handle(*frame);
    }
    if (!closed_ && frames_.error()) {
      owner_.log('W', "session " + session_->id + ": a frame over 4096 bytes; closing");
      end_session();
    }
  }

  void on_host_close() override {
    closed_ = true;
    if (!*alive_) return;
    // Single use: a session whose connection went away before its result is over.
    if (!result_sent_) {
      owner_.log('W', "session " + session_->id + ": the host closed the connection");
    }
    detach();
    if (!session_->over) owner_.expire(session_->id);
  }

  // The result is ready (or was before this connection): writes it.
  void send_result() {
    Session& s = *session_;
    if (closed_ || result_sent_ || !ready_sent_ || !s.result) return;
    const std::string line = std::move(*s.result);
    s.result.reset();
    result_sent_ = true;
    sent_at_ = owner_.system_.now();
    write_ms_ = elapsed_ms(s.delivered_at, sent_at_);
    Json header = Json::object();
    header["type"] = "result";
    header["sessionId"] = s.id;
    header["commandId"] = s.command_id;
    header["taskId"] = s.task_id;
    header["byteLength"] = line.size();
    header["sha256"] =
        transport::sha256_hex(s.fault == DirectFault::BadSha256 ? line + " (altered)" : line);
    std::string wire = control_frame(header);
    const auto declared = static_cast<std::uint32_t>(line.size());
    switch (s.fault) {
      case DirectFault::ShortFrame:
        // Half the bytes under the full length, then the Operator hangs up.
        append_frame(wire, std::string_view(line).substr(0, line.size() / 2), declared);
        out_->write_stdout(wire);
        end_session();
        return;
      case DirectFault::OversizedFrame:
        append_frame(wire, line + std::string(kOversize, ' '));
        break;
      case DirectFault::DropMidResult: {
        append_frame(wire, std::string_view(line).substr(0, line.size() / 2), declared);
        out_->write_stdout(wire);
        AndroidSystem& system = owner_.system_;
        system.events().after(milliseconds(system.scenario().faults.drop_delay_ms),
                              [&system] { system.drop_connections(); });
        return;
      }
      default:
        append_frame(wire, line);
        break;
    }
    out_->write_stdout(wire);
    if (s.fault == DirectFault::CloseBeforeAck) end_session();
  }

 private:
  void handle(const std::string& frame) {
    const Json message = Json::parse(frame, nullptr, false);
    const auto type = message.is_object() ? message.find("type") : message.end();
    if (!message.is_object() || type == message.end() || !type->is_string()) {
      owner_.log('W', "session " + session_->id + ": a frame without a \"type\"; closing");
      end_session();
      return;
    }
    const std::string name = type->get<std::string>();
    if (name == "ping") {
      Json pong = Json::object();
      pong["type"] = "pong";
      pong["sessionId"] = session_->id;
      out_->write_stdout(control_frame(pong));
    } else if (name == "ack" && result_sent_ && !acked_) {
      acked_ = true;
      // noTiming: the ack goes unanswered and the connection stays open until the lifetime.
      if (session_->fault == DirectFault::NoTiming) return;
      Json timing = Json::object();
      timing["type"] = "timing";
      timing["sessionId"] = session_->id;
      timing["androidResultWriteMs"] = write_ms_;
      timing["androidResultAckRoundTripMs"] = elapsed_ms(sent_at_, owner_.system_.now());
      out_->write_stdout(control_frame(timing));
      end_session();
    }
    // Other types (and a repeated ack) are ignored, for the protocol's later versions.
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    out_->exit(0);
  }

  // The exchange is over: this connection closes and the socket stops listening.
  void end_session() {
    close();
    detach();
    if (!session_->over) owner_.expire(session_->id);
  }

  void detach() {
    if (session_ && session_->connection == this) session_->connection = nullptr;
  }

  DirectResults& owner_;
  // False once the device (and owner_) is gone while the transport still holds this.
  std::shared_ptr<const bool> alive_;
  std::shared_ptr<Session> session_;
  ServiceOutput* out_;
  FrameDecoder frames_;
  bool closed_ = false;
  bool ready_sent_ = false;
  bool result_sent_ = false;
  bool acked_ = false;
  SteadyTime sent_at_;
  long long write_ms_ = 0;

  friend class DirectResults;
};

DirectResults::DirectResults(AndroidSystem& system) : system_(system) {}

DirectResults::~DirectResults() {
  *alive_ = false;
  for (auto& [id, session] : sessions_) {
    session->over = true;
    system_.sockets().close(session->socket);
  }
}

void DirectResults::log(char level, const std::string& message) {
  const int pid = system_.scenario().operator_behavior.pid;
  system_.log_line(pid, pid + 17, level, kResultSocketTag, message);
}

void DirectResults::prepare(const std::string& package, const std::optional<std::string>& payload) {
  const Json request = payload ? Json::parse(*payload, nullptr, false) : Json();
  const auto text = [&](const char* key) -> std::optional<std::string> {
    const auto it = request.find(key);
    if (it == request.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  if (!request.is_object()) {
    log('E', "Rejected result connection request: the payload is not a JSON object");
    return;
  }
  const auto protocol = request.find("protocol");
  const auto lifetime = request.find("lifetimeMs");
  const auto session_id = text("sessionId");
  const auto command_id = text("commandId");
  const auto task_id = text("taskId");
  std::string problem;
  if (protocol == request.end() || !protocol->is_number_integer() || *protocol != 1) {
    problem = "protocol must be 1";
  } else if (!session_id || !valid_session_id(*session_id)) {
    problem = "sessionId must be 1-128 characters of [A-Za-z0-9._-]";
  } else if (!command_id || !task_id) {
    problem = "commandId and taskId must be strings";
  } else if (lifetime == request.end() || !lifetime->is_number() ||
             !std::isfinite(lifetime->get<double>()) || lifetime->get<double>() <= 0) {
    problem = "lifetimeMs must be a positive number";
  } else if (sessions_.contains(*session_id)) {
    problem = "session " + *session_id + " exists already";
  }
  if (!problem.empty()) {
    log('E', "Rejected result connection request: " + problem);
    return;
  }

  auto session = std::make_shared<Session>();
  session->id = *session_id;
  session->package = package;
  session->command_id = *command_id;
  session->task_id = *task_id;
  session->socket = package + ".result." + *session_id;
  const FaultSpec& faults = system_.scenario().faults;
  if (faults.direct != DirectFault::None) {
    if (faults.count && !faults_left_) faults_left_ = *faults.count;
    if (!faults_left_ || *faults_left_ > 0) {
      session->fault = faults.direct;
      if (faults_left_) --*faults_left_;
    }
  }
  std::weak_ptr<Session> weak = session;
  if (!system_.sockets().listen(
          session->socket, [this, weak](ServiceOutput& out) -> std::unique_ptr<ServiceSession> {
            auto live = weak.lock();
            if (!live) return nullptr;
            return std::make_unique<Connection>(*this, live, out);
          })) {
    log('E', "Rejected result connection request: " + session->socket + " is in use");
    return;
  }
  const auto lifetime_ms = std::llround(std::min(lifetime->get<double>(), kMaxLifetimeMs));
  log('I', "session " + session->id + " for commandId=" + session->command_id + " listening on @" +
               session->socket + " for " + std::to_string(lifetime_ms) + " ms");
  sessions_.emplace(session->id, session);
  const std::string id = session->id;
  system_.events().after(milliseconds(lifetime_ms), [this, weak, id] {
    if (auto live = weak.lock(); live && !live->over) {
      log('W', "session " + id + ": lifetime over");
      expire(id);
    }
  });
}

bool DirectResults::deliver(const std::string& session_id, const std::string& command_id,
                            const std::string& task_id, std::string line) {
  const auto found = sessions_.find(session_id);
  if (found == sessions_.end() || found->second->over) {
    log('W', "[commandId=" + command_id + "] result session " + session_id +
                 " is not open: the result is lost");
    return false;
  }
  Session& session = *found->second;
  if (line.size() > kMaxResultFrame) {
    log('E', "[commandId=" + command_id + "] result of " + std::to_string(line.size()) +
                 " bytes is over the 32 MiB frame limit: the session closes");
    expire(session_id);
    return false;
  }
  // The result frame names the command that produced it.
  session.command_id = command_id;
  session.task_id = task_id;
  session.result = std::move(line);
  session.delivered_at = system_.now();
  if (session.connection != nullptr) session.connection->send_result();
  return true;
}

void DirectResults::expire(const std::string& session_id) {
  const auto found = sessions_.find(session_id);
  if (found == sessions_.end()) return;
  const std::shared_ptr<Session> session = found->second;
  sessions_.erase(found);
  session->over = true;
  session->result.reset();
  system_.sockets().close(session->socket);
  if (session->connection != nullptr) {
    Connection* connection = session->connection;
    session->connection = nullptr;
    connection->close();
  }
}

}  // namespace clawperator::vdevice::android
