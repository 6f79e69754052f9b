// The routes, the guard and the lifecycle on cpp-httplib, the one file that includes httplib.h
// (linked into clawperator-serve only, never into `clawperator`). cpp-httplib routes and
// writes; it never reads from a socket: the connection gate (connection_gate.hpp) reads every
// request whole and bounded first, and a worker hands those bytes to httplib's
// process_request.
#include "clawperator/serve/server.hpp"

#include <httplib.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "clawperator/io/log.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/process/terminal.hpp"
#include "clawperator/process/unique_fd.hpp"
#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/access_log.hpp"
#include "clawperator/serve/connection_gate.hpp"
#include "clawperator/serve/http_status.hpp"
#include "clawperator/serve/request_body.hpp"
#include "clawperator/serve/response_headers.hpp"
#include "clawperator/serve/static_files.hpp"
#include "clawperator/service/document.hpp"
#include "clawperator/service/errors.hpp"

namespace clawperator::serve {
namespace {

using httplib::Request;
using httplib::Response;

constexpr const char* kJson = "application/json";
constexpr std::chrono::milliseconds kEventPoll{500};
constexpr int kKeepAliveComments = 30;  // one ": keep-alive" per 15 s without events
constexpr std::chrono::milliseconds kWriteTimeout{5000};

// The server's one redaction (ServerSettings::redaction), set by run_server before it serves.
contract::HostRedaction& body_redaction() {
  static contract::HostRedaction redaction;
  return redaction;
}

void send(Response& response, int status, const Json& document, const Json& kept = Json::object()) {
  response.status = status;
  Json body = body_redaction().apply(document);
  for (const auto& [key, value] : kept.items()) body[key] = value;
  response.set_content(dump_json(body) + "\n", kJson);
}

void send(Response& response, const Reply& reply) {
  send(response, reply.status, reply.document, reply.kept);
}

void send_error(Response& response, const contract::HostError& error) {
  const Json document = contract::to_json(error);
  send(response, http_status_of(document), document);
}

std::optional<std::string_view> header(const Request& request, const char* name) {
  const auto found = request.headers.find(name);
  if (found == request.headers.end()) return std::nullopt;
  return std::string_view(found->second);
}

Json version_document() {
  Json document = Json::object();
  document["ok"] = true;
  document["version"] = CLAWPERATOR_VERSION;
  return document;
}

void stream_events(EventHub& hub, Response& response) {
  std::shared_ptr<Subscription> subscription = hub.subscribe();
  if (!subscription) {
    send_error(response,
               contract::usage_error("SSE_CLIENT_LIMIT",
                                     "The server already streams events to its limit of clients"));
    return;
  }
  io::log_event(io::LogLevel::Info, "serve.sse.client.connected");
  response.set_header("X-Accel-Buffering", "no");
  auto idle = std::make_shared<int>(0);
  response.set_chunked_content_provider(
      "text/event-stream",
      [subscription, idle](std::size_t, httplib::DataSink& sink) {
        std::string text;
        switch (subscription->next(kEventPoll, text)) {
          case Subscription::Wait::Event:
            *idle = 0;
            return sink.write(text.data(), text.size());
          case Subscription::Wait::Timeout:
            if (++*idle < kKeepAliveComments) return sink.is_writable();
            *idle = 0;
            return sink.write(": keep-alive\n\n", 14);
          case Subscription::Wait::Closed:
            break;
        }
        sink.done();
        return true;
      },
      [](bool) { io::log_event(io::LogLevel::Info, "serve.sse.client.disconnected"); });
}

void serve_file(const Backend& backend, const Request& request, Response& response) {
  auto png = backend.artifact(request.matches[1].str());
  if (!png) {
    send_error(response, contract::usage_error("ROUTE_NOT_FOUND", "No such screenshot"));
    return;
  }
  response.set_content(std::move(*png), "image/png");
}

// A bundle's file, streamed from its descriptor: a video may be hundreds of megabytes.
void serve_evidence_file(const Backend& backend, const Request& request, Response& response) {
  auto file = backend.evidence_file(request.matches[1].str(), request.matches[2].str());
  if (!file) {
    send_error(response, contract::usage_error("ROUTE_NOT_FOUND", "No such evidence file"));
    return;
  }
  const auto fd = std::make_shared<process::UniqueFd>(file->fd);
  response.set_content_provider(
      static_cast<std::size_t>(file->bytes), file->mime_type,
      [fd](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        char buffer[1 << 16];
        const ssize_t n =
            ::pread(fd->get(), buffer, std::min(length, sizeof buffer), static_cast<off_t>(offset));
        if (n <= 0) return false;
        return sink.write(buffer, static_cast<std::size_t>(n));
      });
}

void add_routes(httplib::Server& server, const Backend& backend, EventHub& hub) {
  server.Get("/ping", [](const Request&, Response& response) {
    send(response, 200, Json{{"ok", true}});
  });
  server.Get("/version",
             [](const Request&, Response& response) { send(response, 200, version_document()); });
  server.Get("/devices",
             [&backend](const Request&, Response& response) { send(response, backend.devices()); });
  server.Get("/errors", [](const Request&, Response& response) {
    send(response, 200, service::document_of(service::errors_document("")));
  });
  server.Get(R"(/errors/([^/]+))", [](const Request& request, Response& response) {
    auto found = service::errors_document(request.matches[1].str());
    // An unknown code is the CLI's USAGE document, answered as a missing resource.
    const int status = found ? 200 : 404;
    send(response, status, service::document_of(std::move(found)));
  });
  server.Post("/execute", [&backend](const Request& request, Response& response) {
    send(response, backend.execute(request.body));
  });
  server.Post("/snapshot", [&backend](const Request& request, Response& response) {
    send(response, backend.snapshot(request.body));
  });
  server.Post("/screenshot", [&backend](const Request& request, Response& response) {
    send(response, backend.screenshot(request.body));
  });
  server.Post("/query", [&backend](const Request& request, Response& response) {
    send(response, backend.query(request.body));
  });
  server.Get("/skills", [&backend](const Request& request, Response& response) {
    const auto parameter = [&request](const char* name) -> std::optional<std::string> {
      if (!request.has_param(name)) return std::nullopt;
      return request.get_param_value(name);
    };
    send(response, backend.skills(parameter("app"), parameter("intent"), parameter("keyword")));
  });
  server.Get(R"(/skills/([^/]+))", [&backend](const Request& request, Response& response) {
    send(response, backend.skill(request.matches[1].str()));
  });
  server.Post(R"(/skills/([^/]+)/run)", [&backend](const Request& request, Response& response) {
    send(response, backend.run_skill(request.matches[1].str(), request.body));
  });
  // Emulators (docs/serve.md, "Emulators"): /running is registered before /:name, which it
  // would otherwise match.
  const auto image_query = [](const Request& request) {
    Json options = Json::object();
    for (const char* key : {"api", "target", "abi", "profile"}) {
      if (!request.has_param(key)) continue;
      const std::string value = request.get_param_value(key);
      // api is a number in a body; in a query it is text, read as one when it is digits only.
      const bool digits = !value.empty() && value.size() <= 4 &&
                          value.find_first_not_of("0123456789") == std::string::npos;
      options[key] = std::string(key) == "api" && digits ? Json(std::stoi(value)) : Json(value);
    }
    return options;
  };
  const auto emulator_route = [&backend](std::string_view action, const Request& request,
                                         Response& response, std::string name) {
    send(response, backend.emulator_post(action, name, request.body));
  };
  server.Get("/android/emulators",
             [&backend, image_query](const Request& request, Response& response) {
               send(response, backend.emulator("list", "", image_query(request)));
             });
  server.Get("/android/emulators/running",
             [&backend, image_query](const Request& request, Response& response) {
               send(response, backend.emulator("status", "", image_query(request)));
             });
  server.Get(R"(/android/emulators/([^/]+))", [&backend, image_query](const Request& request,
                                                                      Response& response) {
    send(response, backend.emulator("inspect", request.matches[1].str(), image_query(request)));
  });
  server.Post("/android/emulators/create",
              [emulator_route](const Request& request, Response& response) {
                emulator_route("create", request, response, "");
              });
  server.Post(R"(/android/emulators/([^/]+)/(start|stop))", [emulator_route](const Request& request,
                                                                             Response& response) {
    emulator_route(request.matches[2].str(), request, response, request.matches[1].str());
  });
  server.Delete(R"(/android/emulators/([^/]+))",
                [emulator_route](const Request& request, Response& response) {
                  emulator_route("delete", request, response, request.matches[1].str());
                });
  server.Post("/android/provision/emulator",
              [emulator_route](const Request& request, Response& response) {
                emulator_route("provision", request, response, "");
              });
  // Evidence (docs/serve.md, "Evidence"): GET /evidence/video/:id before /evidence/:id/:file,
  // which needs a 36-character id and so never takes "video".
  server.Post(R"(/visual-text/(query|click|wait|read))",
              [&backend](const Request& request, Response& response) {
                send(response, backend.visual_text(request.matches[1].str(), request.body));
              });
  server.Post(R"(/webview/(list|query|click|type|eval|wait|screenshot))",
              [&backend](const Request& request, Response& response) {
                send(response, backend.webview(request.matches[1].str(), request.body));
              });
  server.Post("/evidence/capture", [&backend](const Request& request, Response& response) {
    send(response, backend.evidence_capture(request.body));
  });
  server.Post("/evidence/video", [&backend](const Request& request, Response& response) {
    send(response, backend.evidence_video_start(request.body));
  });
  server.Get(R"(/evidence/video/([^/]+))", [&backend](const Request& request, Response& response) {
    send(response, backend.evidence_video("status", request.matches[1].str()));
  });
  server.Post(R"(/evidence/video/([^/]+)/stop)",
              [&backend](const Request& request, Response& response) {
                send(response, backend.evidence_video("stop", request.matches[1].str()));
              });
  server.Get(R"(/evidence/([0-9a-f-]{36})/([A-Za-z0-9._-]+))",
             [&backend](const Request& request, Response& response) {
               serve_evidence_file(backend, request, response);
             });
  server.Get(R"(/artifacts/([^/]+))", [&backend](const Request& request, Response& response) {
    serve_file(backend, request, response);
  });
  // Approvals (docs/serve.md §7): listed with the token; answered only with the
  // approver credential as well, which only the server's terminal showed.
  server.Get("/approvals", [&backend](const Request&, Response& response) {
    send(response, backend.approvals());
  });
  server.Post(
      R"(/approvals/([0-9a-f]{32}))", [&backend](const Request& request, Response& response) {
        send(response, backend.approve(request.matches[1].str(),
                                       header(request, "X-Clawperator-Approver"), request.body));
      });
  server.Get("/events",
             [&hub](const Request&, Response& response) { stream_events(hub, response); });
  server.Get(R"(/(|inspector/[A-Za-z0-9_.-]+))", [](const Request& request, Response& response) {
    const StaticFile* file = find_static_file(request.path);
    if (file == nullptr) {
      send_error(response, contract::usage_error("ROUTE_NOT_FOUND", "No such page"));
      return;
    }
    response.set_content(std::string(file->body), std::string(file->content_type).c_str());
  });
}

void add_guards(httplib::Server& server, const AccessPolicy& policy) {
  server.set_pre_routing_handler([policy](const Request& request, Response& response) {
    const RequestFacts facts{request.path, header(request, "Host"), header(request, "Origin"),
                             header(request, "Authorization"), request.has_param("token")};
    if (auto refused = check_access(policy, facts); !refused) {
      send_error(response, refused.error());
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  // httplib's own refusals (no route, a body over the limit) in our vocabulary.
  server.set_error_handler(httplib::Server::HandlerWithResponse([](const Request&,
                                                                   Response& response) {
    if (!response.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    if (response.status == 413) {
      send_error(response,
                 contract::validation_error("PAYLOAD_TOO_LARGE", "Payload exceeds 100kb limit"));
    } else if (response.status == 400) {
      send_error(response,
                 contract::validation_error("MALFORMED_REQUEST", "The request could not be read"));
    } else if (response.status == 404 || response.status == 405) {
      send_error(response, contract::usage_error("ROUTE_NOT_FOUND", "No such route"));
    } else {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    return httplib::Server::HandlerResponse::Handled;
  }));
  server.set_exception_handler([](const Request&, Response& response, std::exception_ptr) {
    send_error(response, contract::usage_error("INTERNAL_ERROR", "The request failed"));
  });
  server.set_logger([](const Request& request, const Response& response) {
    log_access(
        {request.method, request.path, response.status, response.body.size(), request.remote_addr});
  });
}

// Blocks until SIGINT or SIGTERM (the process-wide interrupt) or until the gate ended.
void wait_for_interrupt(const std::atomic<bool>& listening) {
  while (listening.load() && process::interrupted_signal() == 0) {
    pollfd entry{process::interrupt_fd(), POLLIN, 0};
    ::poll(&entry, 1, 200);
  }
}

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

// A request the gate read whole, served to httplib as the connection: reads come from those
// bytes (then the end), writes go to the socket within the write timeout.
class ReadStream final : public httplib::Stream {
 public:
  explicit ReadStream(const ReadyRequest& request) : request_(request) {}
  using httplib::Stream::write;

  bool is_readable() const override { return offset_ < request_.bytes.size(); }
  bool is_writable() const override {
    pollfd entry{request_.fd, POLLOUT | POLLRDHUP, 0};
    if (::poll(&entry, 1, static_cast<int>(kWriteTimeout.count())) <= 0) return false;
    // A peer that hung up (an event stream's closed tab) is not worth writing to.
    return (entry.revents & (POLLERR | POLLHUP | POLLRDHUP)) == 0;
  }
  ssize_t read(char* out, size_t size) override {
    const std::size_t take = std::min(size, request_.bytes.size() - offset_);
    std::memcpy(out, request_.bytes.data() + offset_, take);
    offset_ += take;
    return static_cast<ssize_t>(take);
  }
  ssize_t write(const char* data, size_t size) override {
    std::size_t done = 0;
    while (done < size) {
      const ssize_t wrote =
          ::send(request_.fd, data + done, size - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (wrote > 0) {
        done += static_cast<std::size_t>(wrote);
        continue;
      }
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote < 0 && errno != EAGAIN) return -1;
      pollfd entry{request_.fd, POLLOUT, 0};
      if (::poll(&entry, 1, static_cast<int>(kWriteTimeout.count())) <= 0) return -1;
    }
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = request_.remote;
    port = request_.remote_port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = request_.local;
    port = request_.local_port;
  }
  socket_t socket() const override { return request_.fd; }

 private:
  const ReadyRequest& request_;
  std::size_t offset_ = 0;
};

// httplib's routing without its sockets: process_request on a stream of ours.
class Router final : public httplib::Server {
 public:
  // httplib ends a streamed response (the event stream) when its listening socket is gone; it
  // has none here, so it is told one exists until shutdown.
  void open_streams(int listen_fd) { svr_sock_ = listen_fd; }
  void end_streams() { svr_sock_ = INVALID_SOCKET; }
  void answer(httplib::Stream& stream) {
    bool closed = true;
    process_request(stream, true, closed, nullptr);
  }
};

// The workers: a fixed number of threads answering what the gate hands over, in order.
class Workers {
 public:
  using Finished = std::function<void(const ReadyRequest&)>;
  Workers(std::size_t count, Router& router, Finished finished)
      : router_(router), finished_(std::move(finished)) {
    for (std::size_t i = 0; i < count; ++i) threads_.emplace_back([this] { work(); });
  }
  ~Workers() { stop(); }
  void add(ReadyRequest request) {
    {
      const std::lock_guard lock(mutex_);
      queue_.push_back(std::move(request));
    }
    ready_.notify_one();
  }
  // Answers what is queued, then joins.
  void stop() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }

 private:
  void work() {
    for (;;) {
      ReadyRequest request;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        request = std::move(queue_.front());
        queue_.pop_front();
      }
      ReadStream stream(request);
      router_.answer(stream);
      finished_(request);
    }
  }

  Router& router_;
  Finished finished_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<ReadyRequest> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

int listen_socket(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
    errno = EADDRNOTAVAIL;
    return -1;
  }
  int fd = -1;
  int error = EADDRNOTAVAIL;
  for (addrinfo* entry = found; entry != nullptr && fd < 0; entry = entry->ai_next) {
    fd = ::socket(entry->ai_family, entry->ai_socktype | SOCK_CLOEXEC, entry->ai_protocol);
    if (fd < 0) continue;
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, entry->ai_addr, entry->ai_addrlen) != 0 || ::listen(fd, 128) != 0) {
      error = errno;
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) errno = error;
  return fd;
}

int run_server(ServerSettings settings) {
  if (!process::install_interrupt_handlers()) {
    std::fprintf(stderr, "Failed to start server: cannot install signal handlers: %s\n",
                 std::strerror(errno));
    return 1;
  }
  body_redaction() = settings.redaction;
  EventHub hub(settings.sse_clients);
  hub.set_redaction(settings.redaction);
  Backend backend(settings.backend, hub);
  Router router;
  router.set_payload_max_length(kMaxBodyBytes);
  httplib::Headers headers;
  for (const auto& [name, value] : security_headers()) {
    headers.emplace(std::string(name), std::string(value));
  }
  router.set_default_headers(std::move(headers));
  add_guards(router, AccessPolicy{settings.host, settings.port, settings.token});
  add_routes(router, backend, hub);

  const int listen_fd = settings.listen_fd;
  // The token in the fragment: a browser never sends it to any server, so it reaches no log,
  // no proxy and no Referer; the inspector takes it from there (src/serve/inspector/inspector.js).
  std::string url = "http://" + url_host(settings.host) + ":" + std::to_string(settings.port);
  if (settings.print_token) url += "/#token=" + settings.token;
  std::fprintf(stderr, "Clawperator API server listening on %s\n", url.c_str());
  std::fflush(stderr);
  // The approver link: on the server's own terminal only, never stdout or stderr (whoever
  // started the server may read those), in no argv and no log.
  const bool approver_link = settings.approver_terminal.valid();
  if (approver_link) {
    std::string link = "http://" + url_host(settings.host) + ":" + std::to_string(settings.port) +
                       "/#" + (settings.print_token ? "token=" + settings.token + "&" : "") +
                       "approver=" + settings.backend.approver;
    process::write_to_terminal(
        settings.approver_terminal.get(),
        "Approver link, for a person at this terminal only (it approves steps the action policy "
        "stopped; never hand it to an agent or a script):\n  " +
            link + "\n");
    settings.approver_terminal.reset();
  }
  Json started = {{"host", settings.host},
                  {"port", settings.port},
                  {"tokenRequired", !settings.token.empty()},
                  {"approverLink", approver_link}};
  if (!settings.token_file.empty()) started["tokenFile"] = settings.token_file.string();
  io::log_event(io::LogLevel::Info, "serve.server.started", started);

  // Signals go to this thread only: the gate and the workers inherit a blocked mask.
  sigset_t interrupts;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &interrupts, nullptr);
  router.open_streams(listen_fd);
  std::optional<Workers> workers;
  ConnectionGate gate(listen_fd, settings.limits,
                      [&workers](ReadyRequest request) { workers->add(std::move(request)); });
  workers.emplace(
      settings.workers + settings.sse_clients, router,
      [&gate](const ReadyRequest& request) { gate.finished(request.fd, request.remote); });
  std::atomic<bool> listening{true};
  std::thread listener([&gate, &listening] {
    gate.run();
    listening = false;
  });
  pthread_sigmask(SIG_UNBLOCK, &interrupts, nullptr);

  wait_for_interrupt(listening);
  // In-flight executions see the same interrupt and answer RESULT_TRANSPORT_CANCELLED; the
  // streams end; the workers answer what they hold, then return.
  hub.close();
  router.end_streams();
  gate.stop();
  listener.join();
  workers->stop();
  io::log_event(io::LogLevel::Info, "serve.server.stopped",
                Json{{"signal", process::interrupted_signal()}});
  return 0;
}

}  // namespace clawperator::serve
