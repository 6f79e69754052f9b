// The bounds the server enforces in its own code (docs/serve.md §4), as properties over many
// generated requests split at every place, and the pieces behind issue 26: the token's
// carriers, the caller-path check both servers share, the event queue's byte bound and the
// artefact store's limits.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "clawperator/contract/caller_paths.hpp"
#include "clawperator/serve/access_guard.hpp"
#include "clawperator/serve/artifact_store.hpp"
#include "clawperator/serve/event_hub.hpp"
#include "clawperator/serve/request_framer.hpp"
#include "clawperator/serve/response_headers.hpp"
#include "test_files.hpp"

using namespace clawperator;
using namespace clawperator::serve;

namespace {

// Feeds `bytes` in pieces cut at the positions `random` picks; the final state.
RequestFramer::State feed_in_pieces(RequestFramer& framer, const std::string& bytes,
                                    std::mt19937& random) {
  std::size_t at = 0;
  RequestFramer::State state = RequestFramer::State::NeedMore;
  while (at < bytes.size() && state == RequestFramer::State::NeedMore) {
    const std::size_t piece = std::uniform_int_distribution<std::size_t>(1, 64)(random);
    state = framer.feed(std::string_view(bytes).substr(at, piece));
    at += piece;
  }
  return state;
}

std::string chunked(const std::string& body, std::size_t piece) {
  std::string out;
  for (std::size_t at = 0; at < body.size(); at += piece) {
    const std::string part = body.substr(at, piece);
    char size[32];
    std::snprintf(size, sizeof size, "%zx", part.size());
    out += std::string(size) + "\r\n" + part + "\r\n";
  }
  return out + "0\r\n\r\n";
}

}  // namespace

TEST_CASE("framer: any split of a request frames it the same", "[serve][bounds]") {
  std::mt19937 random(26);
  for (int round = 0; round < 300; ++round) {
    const std::size_t body_size = std::uniform_int_distribution<std::size_t>(0, 3000)(random);
    const std::string body(body_size, 'b');
    const bool chunk = round % 2 == 0;
    std::string head = "POST /execute HTTP/1.1\r\nHost: 127.0.0.1:3000\r\n";
    const int extra = std::uniform_int_distribution<int>(0, 40)(random);
    for (int i = 0; i < extra; ++i) head += "X-H" + std::to_string(i) + ": v\r\n";
    head += chunk ? "Transfer-Encoding: chunked\r\n"
                  : "Content-Length: " + std::to_string(body_size) + "\r\n";
    const std::string request =
        head + "\r\n" + (chunk ? chunked(body, 1 + static_cast<std::size_t>(round) % 500) : body);
    RequestFramer framer;
    INFO(round);
    REQUIRE(feed_in_pieces(framer, request + "GET /next HTTP/1.1\r\n\r\n", random) ==
            RequestFramer::State::Complete);
    // Exactly this request: what follows it is not part of it.
    CHECK(framer.request() == request);
  }
}

TEST_CASE("framer: bodies over the limit are 413 however they are framed", "[serve][bounds]") {
  std::mt19937 random(413);
  const RequestLimits limits;
  for (const std::size_t size : {limits.max_body_bytes + 1, limits.max_body_bytes * 100}) {
    const std::string body(size, 'x');
    for (const std::size_t piece : {std::size_t{4096}, std::size_t{65536}, size}) {
      RequestFramer framer;
      const std::string request =
          "POST /execute HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(body, piece);
      CHECK(feed_in_pieces(framer, request, random) == RequestFramer::State::Refused);
      CHECK(framer.refusal().status == 413);
      CHECK(framer.refusal().code == "PAYLOAD_TOO_LARGE");
    }
    RequestFramer length;
    CHECK(length.feed("POST / HTTP/1.1\r\nContent-Length: " + std::to_string(size) + "\r\n\r\n") ==
          RequestFramer::State::Refused);
    CHECK(length.refusal().status == 413);
  }
  // Framing that costs more than the body it carries: one byte per chunk.
  RequestFramer tiny;
  CHECK(feed_in_pieces(tiny,
                       "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" +
                           chunked(std::string(10000, 'x'), 1),
                       random) == RequestFramer::State::Refused);
  CHECK(tiny.refusal().status == 413);
  // A chunk size of many digits is over the limit, never an overflow.
  RequestFramer huge;
  CHECK(
      huge.feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n") ==
      RequestFramer::State::Refused);
  CHECK(huge.refusal().status == 413);
}

TEST_CASE("framer: header lines and bytes are bounded (431)", "[serve][bounds]") {
  std::mt19937 random(431);
  const RequestLimits limits;
  std::string many = "GET / HTTP/1.1\r\n";
  for (std::size_t i = 0; i <= limits.max_header_lines; ++i) many += "A: b\r\n";
  RequestFramer lines;
  CHECK(feed_in_pieces(lines, many + "\r\n", random) == RequestFramer::State::Refused);
  CHECK(lines.refusal().status == 431);
  CHECK(lines.refusal().code == "REQUEST_HEADERS_TOO_LARGE");
  // One long header, never ended: refused once it passes the limit, not at its end.
  RequestFramer bytes;
  CHECK(bytes.feed("GET / HTTP/1.1\r\nX: " + std::string(limits.max_head_bytes, 'v')) ==
        RequestFramer::State::Refused);
  CHECK(bytes.refusal().status == 431);
  RequestFramer line;
  CHECK(line.feed("GET /" + std::string(limits.max_head_bytes, 'p')) ==
        RequestFramer::State::Refused);
  // Trailers count as headers.
  std::string trailers = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n";
  for (std::size_t i = 0; i <= limits.max_header_lines; ++i) trailers += "T: x\r\n";
  RequestFramer trailing;
  CHECK(feed_in_pieces(trailing, trailers + "\r\n", random) == RequestFramer::State::Refused);
  CHECK(trailing.refusal().status == 431);
  // Just within: accepted.
  std::string fits = "GET / HTTP/1.1\r\n";
  for (std::size_t i = 0; i < limits.max_header_lines; ++i) fits += "A: b\r\n";
  RequestFramer within;
  CHECK(within.feed(fits + "\r\n") == RequestFramer::State::Complete);
}

TEST_CASE("framer: framings two parsers could read differently are 400", "[serve][bounds]") {
  for (const char* head : {
           "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
           "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
           "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
           "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
           "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
           "POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n",
           "POST / HTTP/1.1\r\nno colon here\r\n\r\n",
           "\r\n",
           "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
           "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY",
       }) {
    INFO(head);
    RequestFramer framer;
    CHECK(framer.feed(head) == RequestFramer::State::Refused);
    CHECK(framer.refusal().status == 400);
    CHECK(framer.refusal().code == "MALFORMED_REQUEST");
  }
  // No Content-Length and no chunked: no body, whatever follows.
  RequestFramer bare;
  CHECK(bare.feed("POST /execute HTTP/1.1\r\nHost: h\r\n\r\n{\"execution\":1}") ==
        RequestFramer::State::Complete);
  CHECK(bare.request() == "POST /execute HTTP/1.1\r\nHost: h\r\n\r\n");
}

TEST_CASE("the gate's own responses carry the security headers", "[serve][bounds]") {
  const std::string response = closing_response(431, Json{{"code", "REQUEST_HEADERS_TOO_LARGE"}});
  CHECK(response.rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0) == 0);
  for (const auto& [name, value] : security_headers()) {
    CHECK(response.find(std::string(name) + ": " + std::string(value) + "\r\n") !=
          std::string::npos);
  }
  CHECK(response.find("Connection: close\r\n") != std::string::npos);
}

TEST_CASE("access guard: the token by bearer in any case, never by a query", "[serve][bounds]") {
  const AccessPolicy policy{"127.0.0.1", 3000, "s3cret"};
  auto facts = [](std::string_view path, std::optional<std::string_view> authorization,
                  bool token_in_query = false) {
    return RequestFacts{path, "127.0.0.1:3000", std::nullopt, authorization, token_in_query};
  };
  CHECK(check_access(policy, facts("/devices", "Bearer s3cret")));
  CHECK(check_access(policy, facts("/devices", "BEARER   s3cret ")));
  CHECK(check_access(policy, facts("/devices", "Basic s3cret")).error().code == "UNAUTHORIZED");
  CHECK(check_access(policy, facts("/devices", "Bearer s3cre")).error().code == "UNAUTHORIZED");
  CHECK(check_access(policy, facts("/devices", std::nullopt)).error().code == "UNAUTHORIZED");
  // ?token= is refused even beside the right bearer, on a public path and without a token.
  for (const AccessPolicy& each : {policy, AccessPolicy{"127.0.0.1", 3000, ""}}) {
    for (const char* path : {"/devices", "/", "/ping"}) {
      INFO(path);
      auto refused = check_access(each, facts(path, "Bearer s3cret", true));
      REQUIRE_FALSE(refused);
      CHECK(refused.error().code == "UNAUTHORIZED");
      CHECK(refused.error().details["parameter"] == "token");
    }
  }
  // /ping and the inspector's own files need none; --no-token (an empty token) none anywhere.
  for (const char* path : {"/ping", "/", "/inspector/inspector.js", "/inspector/index.html"}) {
    INFO(path);
    CHECK(is_public_path(path));
    CHECK(check_access(policy, facts(path, std::nullopt)));
  }
  for (const char* path : {"/inspector/", "/inspector/a/b", "/inspector", "/events", "/version",
                           "/artifacts/shot-1", "//", "/ping/"}) {
    INFO(path);
    CHECK_FALSE(is_public_path(path));
    CHECK(check_access(policy, facts(path, std::nullopt)).error().code == "UNAUTHORIZED");
  }
  CHECK(check_access(AccessPolicy{"127.0.0.1", 3000, ""}, facts("/devices", std::nullopt)));
}

TEST_CASE("caller paths: every alias of path on every alias of take_screenshot",
          "[serve][bounds]") {
  for (const char* type : {"take_screenshot", "screenshot", "capture_screenshot", " Screenshot "}) {
    for (const char* key : {"path", "file", "filePath", "output_path"}) {
      const Json actions =
          Json::array({{{"id", "a"}, {"type", "sleep"}, {"params", {{"durationMs", 1}}}},
                       {{"id", "b"}, {"type", type}, {"params", {{key, "/home/u/.bashrc"}}}}});
      const auto issue = contract::find_caller_host_path(actions);
      INFO(type << " " << key);
      REQUIRE(issue);
      CHECK(issue->path == std::string("actions.1.params.") + key);
      CHECK(issue->action_id == "b");
      const contract::HostError error = contract::validation_failure({*issue});
      CHECK(error.code == "EXECUTION_VALIDATION_FAILED");
      CHECK(error.details["path"] == issue->path);
    }
  }
  CHECK_FALSE(
      contract::find_caller_host_path(Json::array({{{"id", "a"}, {"type", "take_screenshot"}}})));
  CHECK_FALSE(contract::find_caller_host_path(
      Json::array({{{"id", "a"}, {"type", "open_uri"}, {"params", {{"path", "/x"}}}}})));
  CHECK_FALSE(contract::find_caller_host_path(Json::object()));
}

TEST_CASE("event hub: a subscriber that falls behind in bytes is dropped", "[serve][bounds]") {
  EventHub hub(4, 64 * 1024);
  auto slow = hub.subscribe();
  auto quick = hub.subscribe();
  std::string text;
  REQUIRE(quick->next(std::chrono::milliseconds(0), text) == Subscription::Wait::Event);
  const Json big = {{"blob", std::string(10 * 1024, 'x')}};
  for (int i = 0; i < 50; ++i) {
    hub.publish("clawperator:execution", big);
    // The reader keeps up: one event at a time, never dropped.
    REQUIRE(quick->next(std::chrono::milliseconds(0), text) == Subscription::Wait::Event);
    CHECK(text.rfind("event: clawperator:execution", 0) == 0);
    CHECK(hub.queued_bytes() <= 64 * 1024 + 2048);
  }
  // The slow one's queue was replaced by a single `dropped` event, then its stream ends.
  REQUIRE(slow->next(std::chrono::milliseconds(0), text) == Subscription::Wait::Event);
  CHECK(text.rfind("event: dropped\ndata: {\"code\":\"SSE_SUBSCRIBER_TOO_SLOW\"", 0) == 0);
  CHECK(slow->next(std::chrono::milliseconds(0), text) == Subscription::Wait::Closed);
  // An event bigger than the bound still reaches a subscriber that is up to date.
  hub.publish("clawperator:result", Json{{"blob", std::string(100 * 1024, 'y')}});
  CHECK(quick->next(std::chrono::milliseconds(0), text) == Subscription::Wait::Event);
  CHECK(text.size() > 100 * 1024);
}

TEST_CASE("artifact store: private, by id only, oldest removed beyond the limits",
          "[serve][bounds]") {
  const clawperator::testing::TemporaryDirectory scratch("artifacts-test");
  const std::filesystem::path& root = scratch.path();
  auto state =
      io::StateDirectory::open(root / "state", ::geteuid(), io::StateDirectory::Symlinks::Refuse);
  REQUIRE(state);
  {
    auto store = ArtifactStore::create(*state, ArtifactLimits{3, 1000});
    REQUIRE(store);
    struct stat status {};
    REQUIRE(::stat((*store)->directory().c_str(), &status) == 0);
    CHECK((status.st_mode & 0777) == 0700);
    std::vector<std::string> ids;
    auto take = [&](std::size_t bytes) {
      contract::Execution execution;
      contract::Action action;
      action.id = "s";
      action.type = contract::ActionType::TakeScreenshot;
      execution.actions.push_back(action);
      (*store)->direct_screenshots(execution);
      const std::string path = *execution.actions[0].params->path;
      CHECK(std::filesystem::path(path).parent_path() == (*store)->directory());
      std::ofstream(path, std::ios::binary) << std::string(bytes, 'p');
      Json document = {
          {"envelope", {{"stepResults", Json::array({{{"data", {{"path", path}}}}})}}}};
      (*store)->adopt(document);
      const Json& data = document["envelope"]["stepResults"][0]["data"];
      CHECK_FALSE(data.contains("path"));
      ids.push_back(data["artifactId"]);
      CHECK(data["artifactUrl"] == "/artifacts/" + ids.back());
    };
    for (int i = 0; i < 4; ++i) take(100);
    // Count: the oldest of four went.
    CHECK((*store)->count() == 3);
    CHECK_FALSE((*store)->read(ids[0]));
    CHECK((*store)->read(ids[3]) == std::string(100, 'p'));
    // Bytes: 600 more push the total past 1000, so older ones go until it fits.
    take(600);
    take(600);
    CHECK((*store)->count() == 1);
    CHECK((*store)->read(ids[5]) == std::string(600, 'p'));
    // A path elsewhere is left alone, and no id names anything outside the store.
    Json other = {
        {"envelope", {{"stepResults", Json::array({{{"data", {{"path", "/etc/passwd"}}}}})}}}};
    (*store)->adopt(other);
    CHECK(other["envelope"]["stepResults"][0]["data"]["path"] == "/etc/passwd");
    CHECK_FALSE((*store)->read("../../etc/passwd"));
    CHECK_FALSE((*store)->read("shot-1-abc"));
  }
  // Removed with the store.
  CHECK(std::distance(std::filesystem::directory_iterator(root / "state"),
                      std::filesystem::directory_iterator()) == 0);
}
