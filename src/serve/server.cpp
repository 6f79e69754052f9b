// The routes, the guard, the limits and the lifecycle on cpp-httplib, the one file that
// includes httplib.h (linked into clawperator-serve only, never into `clawperator`).
#include "clawperator/serve/server.hpp"

#include <httplib.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "clawperator/cli/command.hpp"
#include "clawperator/io/log.hpp"
#include "clawperator/process/interrupt.hpp"
#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/access_log.hpp"
#include "clawperator/serve/http_status.hpp"
#include "clawperator/serve/request_body.hpp"
#include "clawperator/serve/static_files.hpp"

namespace clawperator::serve {
namespace {

using httplib::Request;
using httplib::Response;

constexpr const char* kJson = "application/json";
constexpr std::chrono::milliseconds kEventPoll{500};
constexpr int kKeepAliveComments = 30;  // one ": keep-alive" per 15 s without events

void send(Response& response, int status, const Json& document) {
  response.status = status;
  response.set_content(dump_json(document) + "\n", kJson);
}

void send(Response& response, const Reply& reply) {
  send(response, reply.status, reply.document);
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
  response.set_header("Cache-Control", "no-cache");
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
  const auto path = backend.artifact(request.matches[1].str());
  if (!path) {
    send_error(response, contract::usage_error("ROUTE_NOT_FOUND", "No such screenshot"));
    return;
  }
  std::ifstream in(*path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  response.set_header("Cache-Control", "no-store");
  response.set_content(bytes.str(), "image/png");
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
    send(response, 200, cli::run_errors("").document);
  });
  server.Get(R"(/errors/([^/]+))", [](const Request& request, Response& response) {
    const cli::CommandResult result = cli::run_errors(request.matches[1].str());
    // An unknown code is the CLI's USAGE document, answered as a missing resource.
    send(response, result.exit_code == 0 ? 200 : 404, result.document);
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
  server.Get(R"(/artifacts/([^/]+))", [&backend](const Request& request, Response& response) {
    serve_file(backend, request, response);
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
                             header(request, "Authorization")};
    if (auto refused = check_access(policy, facts)) {
      send_error(response, *refused);
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
      send_error(response, contract::validation_error(
                               "INVALID_BODY",
                               "The request could not be read (a POST body needs Content-Length)"));
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

// Blocks until SIGINT or SIGTERM (the process-wide interrupt) or until the listener ended.
void wait_for_interrupt(const std::atomic<bool>& listening) {
  while (listening.load() && process::interrupted_signal() == 0) {
    pollfd entry{process::interrupt_fd(), POLLIN, 0};
    ::poll(&entry, 1, 200);
  }
}

std::string url_host(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace

int run_server(ServerSettings settings) {
  if (!process::install_interrupt_handlers()) {
    std::fprintf(stderr, "Failed to start server: cannot install signal handlers: %s\n",
                 std::strerror(errno));
    return 1;
  }
  EventHub hub(settings.sse_clients);
  Backend backend(settings.backend, hub);
  httplib::Server server;
  const std::size_t threads = settings.workers + settings.sse_clients;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(kMaxBodyBytes);
  // A slow or silent client holds a thread for these at most.
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  server.set_keep_alive_timeout(2);
  server.set_keep_alive_max_count(20);
  add_guards(server, AccessPolicy{settings.host, settings.port, settings.token});
  add_routes(server, backend, hub);

  if (!server.bind_to_port(settings.host, settings.port)) {
    std::fprintf(stderr, "Failed to start server: cannot listen on %s:%d: %s\n",
                 settings.host.c_str(), settings.port, std::strerror(errno));
    return 1;
  }
  const std::string url = "http://" + url_host(settings.host) + ":" + std::to_string(settings.port);
  std::fprintf(stderr, "Clawperator API server listening on %s\n", url.c_str());
  std::fflush(stderr);
  io::log_event(io::LogLevel::Info, "serve.server.started",
                Json{{"host", settings.host},
                     {"port", settings.port},
                     {"tokenRequired", !settings.token.empty()}});

  // Signals go to this thread only: the listener and its workers inherit a blocked mask.
  sigset_t interrupts;
  sigemptyset(&interrupts);
  sigaddset(&interrupts, SIGINT);
  sigaddset(&interrupts, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &interrupts, nullptr);
  std::atomic<bool> listening{true};
  std::thread listener([&server, &listening] {
    server.listen_after_bind();
    listening = false;
  });
  pthread_sigmask(SIG_UNBLOCK, &interrupts, nullptr);

  wait_for_interrupt(listening);
  // In-flight executions see the same interrupt and answer RESULT_TRANSPORT_CANCELLED; the
  // streams end; listen_after_bind returns once every worker has finished.
  hub.close();
  server.stop();
  listener.join();
  io::log_event(io::LogLevel::Info, "serve.server.stopped",
                Json{{"signal", process::interrupted_signal()}});
  return 0;
}

}  // namespace clawperator::serve
