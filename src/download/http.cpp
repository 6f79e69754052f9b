// libcurl, opened with dlopen on the first fetch. Linked as usual, it would bring some thirty
// shared libraries (OpenSSL, GnuTLS through librtmp, Kerberos, LDAP, …) into every start of
// `clawperator`, --version included, and run their constructors: about 2.5 ms of the ~2 ms a
// start takes (docs/performance.md, "libcurl, loaded when a download starts"). The headers are
// those find_package(CURL) found; the library is opened by its soname.
#define CURL_DISABLE_TYPECHECK
#include "clawperator/download/http.hpp"

#include <curl/curl.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "clawperator/download/release.hpp"
#include "clawperator/dynamic_symbol.hpp"
#include "clawperator/process/interrupt.hpp"

namespace clawperator::download {
namespace {

using Clock = std::chrono::steady_clock;

// CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR came with 7.85.0.
constexpr unsigned kMinimumCurl = 0x075500;

// The entry points used here, resolved once.
struct Curl {
  decltype(&curl_global_init) global_init = nullptr;
  decltype(&curl_version_info) version_info = nullptr;
  decltype(&curl_easy_init) easy_init = nullptr;
  decltype(&curl_easy_setopt) easy_setopt = nullptr;
  decltype(&curl_easy_perform) easy_perform = nullptr;
  decltype(&curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&curl_easy_strerror) easy_strerror = nullptr;
  decltype(&curl_easy_cleanup) easy_cleanup = nullptr;
};

// The library, loaded and initialised on the first call; what went wrong otherwise. Never
// unloaded: curl_global_cleanup at exit would race a thread still in a transfer.
const Expected<Curl, Problem>& curl_library() {
  static const Expected<Curl, Problem> loaded = []() -> Expected<Curl, Problem> {
    // The library's problems have no place in an input: their path is empty.
    const auto failure = [](std::string why) { return Unexpected(Problem{"", std::move(why)}); };
    void* library = ::dlopen(CLAWPERATOR_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* why = ::dlerror();
      return failure(std::string(CLAWPERATOR_CURL_SONAME) + " could not be loaded" +
                     (why != nullptr ? std::string(": ") + why : std::string()));
    }
    Curl curl;
    if (!resolve_symbol(library, "curl_global_init", curl.global_init) ||
        !resolve_symbol(library, "curl_version_info", curl.version_info) ||
        !resolve_symbol(library, "curl_easy_init", curl.easy_init) ||
        !resolve_symbol(library, "curl_easy_setopt", curl.easy_setopt) ||
        !resolve_symbol(library, "curl_easy_perform", curl.easy_perform) ||
        !resolve_symbol(library, "curl_easy_getinfo", curl.easy_getinfo) ||
        !resolve_symbol(library, "curl_easy_strerror", curl.easy_strerror) ||
        !resolve_symbol(library, "curl_easy_cleanup", curl.easy_cleanup)) {
      return failure(std::string(CLAWPERATOR_CURL_SONAME) + " lacks a libcurl function");
    }
    const curl_version_info_data* version = curl.version_info(CURLVERSION_NOW);
    if (version == nullptr || version->version_num < kMinimumCurl) {
      return failure("libcurl " + std::string(version != nullptr ? version->version : "?") +
                     " is older than 7.85.0");
    }
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      return failure("libcurl could not be initialised");
    }
    return curl;
  }();
  return loaded;
}

Unexpected<FetchError> fetch_error(FetchErrorKind kind, std::string message, long status = 0) {
  FetchError error;
  error.kind = kind;
  error.message = std::move(message);
  error.http_status = status;
  return Unexpected<FetchError>{std::move(error)};
}

std::string megabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / 1e6);
  return text;
}

// One transfer's state, shared with libcurl's callbacks.
struct Transfer {
  const FetchLimits* limits = nullptr;
  const ByteSink* sink = nullptr;
  const ProgressDisplay* progress = nullptr;
  std::uint64_t received = 0;
  Clock::time_point last_byte = Clock::now();
  Clock::time_point last_drawn{};
  bool too_large = false;
  bool stalled = false;
  bool refused_by_sink = false;
  int signal = 0;
  bool drawn = false;

  void draw(curl_off_t total) {
    const auto now = Clock::now();
    if (!progress->enabled || received == 0 || now - last_drawn < std::chrono::milliseconds(100)) {
      return;
    }
    last_drawn = now;
    std::string line = "\r\033[K[clawperator] " + progress->label + "  " + megabytes(received);
    if (total > 0) {
      line += "/" + megabytes(static_cast<std::uint64_t>(total)) + " MB  " +
              std::to_string(received * 100 / static_cast<std::uint64_t>(total)) + "%";
    } else {
      line += " MB";
    }
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    drawn = true;
  }
  ~Transfer() {
    if (drawn) std::fputs("\r\033[K", stderr);
  }
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* context) {
  auto& transfer = *static_cast<Transfer*>(context);
  const std::size_t bytes = size * count;
  if (transfer.received + bytes > transfer.limits->max_bytes) {
    transfer.too_large = true;
    return 0;  // CURLE_WRITE_ERROR
  }
  transfer.received += bytes;
  transfer.last_byte = Clock::now();
  if (!(*transfer.sink)(std::string_view(data, bytes))) {
    transfer.refused_by_sink = true;
    return 0;
  }
  return bytes;
}

// Called at least about once a second, also while nothing arrives: the silence deadline and
// Ctrl-C are judged here.
int on_progress(void* context, curl_off_t total, curl_off_t, curl_off_t, curl_off_t) {
  auto& transfer = *static_cast<Transfer*>(context);
  if (const int signal = process::interrupted_signal(); signal != 0) {
    transfer.signal = signal;
    return 1;
  }
  if (Clock::now() - transfer.last_byte > transfer.limits->stall_timeout) {
    transfer.stalled = true;
    return 1;
  }
  transfer.draw(total);
  return 0;
}

// Where to find the certificate authorities when the environment names them, as the curl
// program reads it: CURL_CA_BUNDLE, else SSL_CERT_FILE; SSL_CERT_DIR for a directory.
const char* environment_value(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

}  // namespace

std::string_view to_string(FetchErrorKind kind) {
  switch (kind) {
    case FetchErrorKind::Unavailable:
      return "libcurl_unavailable";
    case FetchErrorKind::Refused:
      return "address_refused";
    case FetchErrorKind::Network:
      return "network";
    case FetchErrorKind::HttpStatus:
      return "http_status";
    case FetchErrorKind::TooLarge:
      return "too_large";
    case FetchErrorKind::Stalled:
      return "stalled";
    case FetchErrorKind::Interrupted:
      return "interrupted";
    case FetchErrorKind::Write:
      break;
  }
  return "write_failed";
}

Expected<std::uint64_t, FetchError> fetch(std::string_view url, const FetchLimits& limits,
                                          const ByteSink& sink, const ProgressDisplay& progress) {
  if (auto checked = check_url(url); !checked) {
    return fetch_error(FetchErrorKind::Refused, checked.error().text());
  }
  const Expected<Curl, Problem>& library = curl_library();
  if (!library) return fetch_error(FetchErrorKind::Unavailable, library.error().message);
  const Curl& curl = *library;
  CURL* handle = curl.easy_init();
  if (handle == nullptr) {
    return fetch_error(FetchErrorKind::Unavailable, "libcurl could not start a transfer");
  }
  struct Cleanup {
    const Curl& curl;
    CURL* handle;
    ~Cleanup() { curl.easy_cleanup(handle); }
  } cleanup{curl, handle};

  const std::string address(url);
  const bool plain_http = parse_url(url)->scheme == "http";  // check_url: loopback only
  char error_text[CURL_ERROR_SIZE] = {};
  Transfer transfer;
  transfer.limits = &limits;
  transfer.sink = &sink;
  transfer.progress = &progress;
  const long stall_ms = static_cast<long>(limits.stall_timeout.count());
  const std::string agent = "clawperator/" CLAWPERATOR_VERSION;
  curl.easy_setopt(handle, CURLOPT_URL, address.c_str());
  curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, plain_http ? "http,https" : "https");
  // A redirect never leaves https, whatever the first address was.
  curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "https");
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
  curl.easy_setopt(handle, CURLOPT_MAXREDIRS, 5L);
  curl.easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 1L);
  curl.easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 2L);
  if (const char* bundle = environment_value("CURL_CA_BUNDLE")) {
    curl.easy_setopt(handle, CURLOPT_CAINFO, bundle);
  } else if (const char* file = environment_value("SSL_CERT_FILE")) {
    curl.easy_setopt(handle, CURLOPT_CAINFO, file);
  }
  if (const char* directory = environment_value("SSL_CERT_DIR")) {
    curl.easy_setopt(handle, CURLOPT_CAPATH, directory);
  }
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(handle, CURLOPT_USERAGENT, agent.c_str());
  curl.easy_setopt(handle, CURLOPT_FAILONERROR, 1L);
  curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, stall_ms);
  curl.easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(limits.max_bytes));
  curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, error_text);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, &on_body);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
  curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl.easy_setopt(handle, CURLOPT_XFERINFODATA, &transfer);

  const CURLcode code = curl.easy_perform(handle);
  long status = 0;
  curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
  const std::string said =
      error_text[0] != '\0' ? std::string(error_text) : std::string(curl.easy_strerror(code));
  if (transfer.signal != 0) {
    FetchError error;
    error.kind = FetchErrorKind::Interrupted;
    error.message = "interrupted";
    error.signal = transfer.signal;
    return Unexpected<FetchError>{std::move(error)};
  }
  if (transfer.too_large || code == CURLE_FILESIZE_EXCEEDED) {
    return fetch_error(FetchErrorKind::TooLarge,
                       address + " is larger than " + std::to_string(limits.max_bytes) + " bytes");
  }
  if (transfer.stalled || code == CURLE_OPERATION_TIMEDOUT) {
    return fetch_error(FetchErrorKind::Stalled,
                       address + ": nothing arrived for " + std::to_string(stall_ms) + " ms");
  }
  if (transfer.refused_by_sink) {
    return fetch_error(FetchErrorKind::Write, address + ": the received bytes could not be kept");
  }
  if (code == CURLE_HTTP_RETURNED_ERROR || (code == CURLE_OK && (status < 200 || status > 299))) {
    return fetch_error(FetchErrorKind::HttpStatus,
                       address + " answered HTTP " + std::to_string(status), status);
  }
  if (code != CURLE_OK) return fetch_error(FetchErrorKind::Network, address + ": " + said);
  return transfer.received;
}

Expected<std::string, FetchError> fetch_text(std::string_view url, const FetchLimits& limits) {
  std::string body;
  CLAWPERATOR_TRY(fetch(url, limits, [&body](std::string_view bytes) {
    body.append(bytes);
    return true;
  }));
  return body;
}

}  // namespace clawperator::download
