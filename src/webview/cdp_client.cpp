// The only translation unit that compiles Boost.Beast (include/clawperator/webview/
// cdp_client.hpp says why). Every operation is started asynchronously on a private io_context
// and driven in short slices, so that a call is synchronous to its caller yet notices the
// cancellation token and an interrupt between slices; the deadline itself is the tcp_stream's
// (expires_at), which closes the socket when it passes.
#include "clawperator/webview/cdp_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <optional>

namespace clawperator::webview {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

namespace {

// How often a running operation looks at the token: short enough for Ctrl-C to feel immediate.
constexpr std::chrono::milliseconds kSlice{50};

CdpFailure failure(CdpFailure::Kind kind, std::string message) {
  return CdpFailure{kind, std::move(message), Json::object()};
}

CdpFailure failure_of(const beast::error_code& error, std::string_view what) {
  if (error == beast::error::timeout) {
    return failure(CdpFailure::Kind::TimedOut,
                   std::string(what) + ": no answer before the deadline");
  }
  if (error == asio::error::connection_refused) {
    return failure(CdpFailure::Kind::Unreachable,
                   std::string(what) + ": nothing accepts connections on the port");
  }
  if (error == websocket::error::closed || error == asio::error::eof ||
      error == asio::error::connection_reset || error == asio::error::broken_pipe ||
      error == asio::error::connection_aborted || error == http::error::end_of_stream ||
      error == http::error::partial_message) {
    return failure(CdpFailure::Kind::Disconnected,
                   std::string(what) + ": the connection closed (" + error.message() + ")");
  }
  if (error == http::error::body_limit || error == websocket::error::message_too_big ||
      error == websocket::error::buffer_overflow) {
    return failure(CdpFailure::Kind::Protocol, std::string(what) + ": the answer is larger than " +
                                                   std::to_string(kMaxMessageBytes) + " bytes");
  }
  return failure(CdpFailure::Kind::Disconnected, std::string(what) + ": " + error.message());
}

// Runs `start(handler)` on `context` until the handler ran: its error, or Cancelled once the
// token asked (the stream cancelled, the handler then run with operation_aborted).
template <typename Stream, typename Start>
CdpResult<void> drive(asio::io_context& context, Stream& stream, const process::CancelToken& cancel,
                      std::string_view what, Start start) {
  // Asked before it starts: nothing is sent once a stop was requested, however quickly the
  // operation would have completed.
  if (process::stop_requested(cancel)) {
    return Unexpected{failure(CdpFailure::Kind::Cancelled, std::string(what) + ": interrupted")};
  }
  bool done = false;
  bool cancelled = false;
  beast::error_code result;
  start([&](beast::error_code error, auto&&...) {
    done = true;
    result = error;
  });
  context.restart();
  while (!done) {
    context.run_one_for(kSlice);
    if (!done && !cancelled && process::stop_requested(cancel)) {
      cancelled = true;
      beast::get_lowest_layer(stream).cancel();
    }
  }
  if (cancelled)
    return Unexpected{failure(CdpFailure::Kind::Cancelled, std::string(what) + ": interrupted")};
  if (result) return Unexpected{failure_of(result, what)};
  return {};
}

template <typename Stream>
CdpResult<void> connect_stream(asio::io_context& context, Stream& stream, const Endpoint& endpoint,
                               Deadline deadline, const process::CancelToken& cancel) {
  beast::error_code parsed;
  const asio::ip::address address = asio::ip::make_address(endpoint.host, parsed);
  if (parsed || endpoint.port <= 0 || endpoint.port > 65535) {
    return Unexpected{
        failure(CdpFailure::Kind::Unreachable,
                "not an address and port: " + endpoint.host + ":" + std::to_string(endpoint.port))};
  }
  auto& lowest = beast::get_lowest_layer(stream);
  lowest.expires_at(deadline);
  const asio::ip::tcp::endpoint target(address, static_cast<unsigned short>(endpoint.port));
  return drive(context, stream, cancel, "connect",
               [&](auto handler) { lowest.async_connect(target, std::move(handler)); });
}

std::string host_header(const Endpoint& endpoint) {
  return endpoint.host + ":" + std::to_string(endpoint.port);
}

}  // namespace

CdpResult<std::string> http_get(const Endpoint& endpoint, std::string_view target,
                                Deadline deadline, const process::CancelToken& cancel) {
  asio::io_context context;
  beast::tcp_stream stream(context);
  if (auto connected = connect_stream(context, stream, endpoint, deadline, cancel); !connected) {
    return Unexpected{connected.error()};
  }
  http::request<http::empty_body> request(http::verb::get, std::string(target), 11);
  // DevTools answers only a Host that is an IP address or localhost (its DNS-rebinding guard).
  request.set(http::field::host, host_header(endpoint));
  request.set(http::field::connection, "close");
  if (auto sent =
          drive(context, stream, cancel, "GET " + std::string(target),
                [&](auto handler) { http::async_write(stream, request, std::move(handler)); });
      !sent) {
    return Unexpected{sent.error()};
  }
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMaxMessageBytes);
  if (auto read = drive(
          context, stream, cancel, "GET " + std::string(target),
          [&](auto handler) { http::async_read(stream, buffer, parser, std::move(handler)); });
      !read) {
    return Unexpected{read.error()};
  }
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  const auto& response = parser.get();
  if (response.result() != http::status::ok) {
    return Unexpected{failure(
        CdpFailure::Kind::Protocol,
        "GET " + std::string(target) + " answered HTTP " + std::to_string(response.result_int()))};
  }
  return response.body();
}

struct CdpSession::Impl {
  asio::io_context context;
  websocket::stream<beast::tcp_stream> socket{context};
  beast::flat_buffer buffer;
  process::CancelToken cancel;
  long next_id = 1;
  // Set once the session ended (closed, detached, timed out): every later call fails at once.
  std::optional<CdpFailure> ended;
};

CdpSession::CdpSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

CdpSession::~CdpSession() {
  if (!impl_->ended && impl_->socket.is_open()) {
    // A polite close, bounded: the page stays as it is whatever happens here.
    beast::get_lowest_layer(impl_->socket).expires_after(std::chrono::milliseconds(500));
    (void)drive(impl_->context, impl_->socket, impl_->cancel, "close", [&](auto handler) {
      impl_->socket.async_close(websocket::close_code::normal, std::move(handler));
    });
  }
}

CdpResult<std::unique_ptr<CdpSession>> CdpSession::connect(const Endpoint& endpoint,
                                                           const std::string& path,
                                                           Deadline deadline,
                                                           process::CancelToken cancel) {
  auto impl = std::make_unique<Impl>();
  impl->cancel = std::move(cancel);
  if (auto connected =
          connect_stream(impl->context, impl->socket, endpoint, deadline, impl->cancel);
      !connected) {
    return Unexpected{connected.error()};
  }
  impl->socket.read_message_max(kMaxMessageBytes);
  if (auto shaken = drive(impl->context, impl->socket, impl->cancel, "WebSocket handshake",
                          [&](auto handler) {
                            impl->socket.async_handshake(host_header(endpoint), path,
                                                         std::move(handler));
                          });
      !shaken) {
    return Unexpected{shaken.error()};
  }
  impl->socket.text(true);
  return std::unique_ptr<CdpSession>(new CdpSession(std::move(impl)));
}

CdpResult<Json> CdpSession::call(std::string_view method, const Json& params, Deadline deadline) {
  Impl& impl = *impl_;
  if (impl.ended) return Unexpected{*impl.ended};
  const long id = impl.next_id++;
  const std::string what(method);
  auto end_with = [&](CdpFailure failed) -> CdpResult<Json> {
    if (failed.kind != CdpFailure::Kind::Protocol) impl.ended = failed;
    return Unexpected{std::move(failed)};
  };
  // A deadline already past sends nothing: the timer would race an answer that is ready at
  // once, and the call would sometimes succeed late (seen under ASan on CI).
  if (std::chrono::steady_clock::now() >= deadline) {
    return end_with(failure(CdpFailure::Kind::TimedOut, what + ": its deadline had passed"));
  }
  beast::get_lowest_layer(impl.socket).expires_at(deadline);
  const std::string message = dump_json(Json{{"id", id}, {"method", what}, {"params", params}});
  if (auto sent = drive(impl.context, impl.socket, impl.cancel, what,
                        [&](auto handler) {
                          impl.socket.async_write(asio::buffer(message), std::move(handler));
                        });
      !sent) {
    return end_with(sent.error());
  }
  for (;;) {
    impl.buffer.clear();
    if (auto read =
            drive(impl.context, impl.socket, impl.cancel, what,
                  [&](auto handler) { impl.socket.async_read(impl.buffer, std::move(handler)); });
        !read) {
      return end_with(read.error());
    }
    const Json answer = parse_json(beast::buffers_to_string(impl.buffer.data()));
    if (!answer.is_object()) {
      return end_with(
          failure(CdpFailure::Kind::Protocol, what + ": an answer that is no JSON object"));
    }
    if (const auto event = answer.find("method"); event != answer.end()) {
      // The page closed under us, or another client took it: nothing more will answer.
      if (event->is_string() && event->get<std::string>() == "Inspector.detached") {
        const Json reason =
            answer.contains("params") ? answer["params"].value("reason", Json("")) : Json("");
        CdpFailure gone =
            failure(CdpFailure::Kind::Disconnected,
                    what + ": the page went away (" +
                        (reason.is_string() ? reason.get<std::string>() : std::string()) + ")");
        impl.ended = gone;
        return Unexpected{std::move(gone)};
      }
      continue;
    }
    const auto answered = answer.find("id");
    if (answered == answer.end() || !answered->is_number_integer() || answered->get<long>() != id) {
      continue;  // an answer to a call given up on earlier
    }
    if (const auto error = answer.find("error"); error != answer.end()) {
      CdpFailure refused =
          failure(CdpFailure::Kind::Protocol,
                  what + ": " +
                      (error->is_object() ? error->value("message", std::string("DevTools error"))
                                          : std::string("DevTools error")));
      if (error->is_object()) {
        refused.details = Json{{"cdpCode", error->value("code", Json(nullptr))},
                               {"cdpMessage", error->value("message", Json(nullptr))}};
      }
      return Unexpected{std::move(refused)};
    }
    const auto result = answer.find("result");
    return result != answer.end() ? *result : Json::object();
  }
}

}  // namespace clawperator::webview
