#include "release_server.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

namespace clawperator::testing {
namespace {

// A connection's reads and writes, plain or through TLS.
class Stream {
 public:
  Stream(int fd, SSL* ssl) : fd_(fd), ssl_(ssl) {}
  ~Stream() {
    if (ssl_ != nullptr) {
      SSL_shutdown(ssl_);
      SSL_free(ssl_);
    }
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  bool handshake() { return ssl_ == nullptr || SSL_accept(ssl_) == 1; }
  long read(char* buffer, std::size_t size) {
    if (ssl_ != nullptr) return SSL_read(ssl_, buffer, static_cast<int>(size));
    return ::recv(fd_, buffer, size, 0);
  }
  bool write(std::string_view bytes) {
    while (!bytes.empty()) {
      const long n = ssl_ != nullptr ? SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size()))
                                     : ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

 private:
  int fd_;
  SSL* ssl_;
};

std::string reason_of(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 404:
      return "Not Found";
    case 500:
      return "Internal Server Error";
    default:
      return "Status";
  }
}

}  // namespace

ReleaseServer::ReleaseServer(std::optional<Tls> tls) : tls_(std::move(tls)) {
  if (tls_) {
    SSL_CTX* context = SSL_CTX_new(TLS_server_method());
    if (context == nullptr ||
        SSL_CTX_use_certificate_chain_file(context, tls_->certificate_file.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(context, tls_->key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
      SSL_CTX_free(context);
      throw std::runtime_error("the test server's certificate or key could not be loaded");
    }
    tls_context_ = context;
  }
  listener_.reset(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (::bind(listener_.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener_.get(), 16) != 0 ||
      ::getsockname(listener_.get(), reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    throw std::runtime_error("the test server could not listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
  int stop[2];
  if (::pipe2(stop, O_CLOEXEC) != 0) throw std::runtime_error("pipe2");
  stop_read_.reset(stop[0]);
  stop_write_.reset(stop[1]);
  acceptor_ = std::thread([this] { accept_loop(); });
}

ReleaseServer::~ReleaseServer() {
  [[maybe_unused]] const ssize_t written = ::write(stop_write_.get(), "x", 1);
  acceptor_.join();
  std::vector<std::thread> connections;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    connections.swap(connections_);
  }
  for (std::thread& connection : connections) connection.join();
  SSL_CTX_free(static_cast<SSL_CTX*>(tls_context_));
}

void ReleaseServer::route(const std::string& path, Route route) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[path] = std::move(route);
}

std::string ReleaseServer::url(const std::string& path) const {
  return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<std::string> ReleaseServer::requests() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

std::size_t ReleaseServer::count(const std::string& path) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<std::size_t>(std::count(requests_.begin(), requests_.end(), path));
}

void ReleaseServer::accept_loop() {
  for (;;) {
    pollfd ready[2] = {{listener_.get(), POLLIN, 0}, {stop_read_.get(), POLLIN, 0}};
    if (::poll(ready, 2, -1) < 0) continue;
    if (ready[1].revents != 0) return;
    process::UniqueFd connection(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!connection.valid()) continue;
    const std::lock_guard<std::mutex> lock(mutex_);
    connections_.emplace_back(
        [this, fd = connection.release()]() mutable { serve(process::UniqueFd(fd)); });
  }
}

void ReleaseServer::serve(process::UniqueFd connection) {
  // A client that hangs up mid-answer makes a write fail (EPIPE), not the test process end.
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
  // A client that never speaks cannot hold the server past its end.
  const timeval patience{10, 0};
  ::setsockopt(connection.get(), SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);

  SSL* ssl = nullptr;
  if (tls_context_ != nullptr) {
    ssl = SSL_new(static_cast<SSL_CTX*>(tls_context_));
    SSL_set_fd(ssl, connection.get());
  }
  Stream stream(connection.get(), ssl);
  if (!stream.handshake()) return;  // e.g. a client that does not trust the certificate
  std::string head;
  char buffer[4096];
  while (head.find("\r\n\r\n") == std::string::npos && head.size() < 16384) {
    const long n = stream.read(buffer, sizeof buffer);
    if (n <= 0) return;
    head.append(buffer, static_cast<std::size_t>(n));
  }
  // "GET /path HTTP/1.1"
  const std::size_t first_space = head.find(' ');
  const std::size_t second_space = head.find(' ', first_space + 1);
  if (first_space == std::string::npos || second_space == std::string::npos) return;
  const std::string path = head.substr(first_space + 1, second_space - first_space - 1);
  Route answer{404, "not found\n", std::nullopt};
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    requests_.push_back(path);
    if (const auto found = routes_.find(path); found != routes_.end()) answer = found->second;
  }
  const std::string headers = "HTTP/1.1 " + std::to_string(answer.status) + " " +
                              reason_of(answer.status) +
                              "\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
                              std::to_string(answer.body.size()) + "\r\nConnection: close\r\n\r\n";
  if (!stream.write(headers)) return;
  if (!answer.stall_after) {
    stream.write(answer.body);
    return;
  }
  stream.write(std::string_view(answer.body).substr(0, *answer.stall_after));
  // Nothing more: until the client hangs up or the server stops.
  pollfd ready[2] = {{connection.get(), POLLIN, 0}, {stop_read_.get(), POLLIN, 0}};
  while (::poll(ready, 2, -1) < 0) {
  }
}

}  // namespace clawperator::testing
