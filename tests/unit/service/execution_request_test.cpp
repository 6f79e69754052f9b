// The one place an execution request is filled (src/service/execution.cpp): every front end's
// execution gets the same rules, the budget above all, which MCP and HTTP executions once ran
// without (issue 45).
#include <catch2/catch.hpp>

#include "clawperator/contract/payload_validation.hpp"
#include "clawperator/service/execution.hpp"

using namespace clawperator;

namespace {

contract::Execution execution_of(double timeout_ms) {
  const Json payload = {
      {"commandId", "c"},        {"taskId", "t"},
      {"source", "test"},        {"expectedFormat", "android-ui-automator"},
      {"timeoutMs", timeout_ms}, {"actions", Json::array({{{"id", "s"}, {"type", "snapshot"}}})}};
  contract::ValidationOutcome outcome = contract::validate_execution(payload);
  REQUIRE(outcome.valid);
  return std::move(*outcome.valid);
}

}  // namespace

TEST_CASE("execution_request: the budget is the execution's timeoutMs on every front end",
          "[service]") {
  service::Session server;  // as `serve` and `mcp serve` make theirs: queue, no CLI flags
  server.device = "emulator-5554";
  server.operator_package = "com.clawperator.operator";
  service::ExecutionCall call;
  call.execution = execution_of(1500.5);
  const exec::ExecutionRequest request = service::execution_request(server, call);
  REQUIRE(request.budget);
  CHECK(request.budget->count() == 1501);  // whole milliseconds, never less than asked
  // A server's callers queue on a busy device for as long as their own timeoutMs, within it.
  CHECK(request.lock_wait_ms == 1500);
  CHECK(request.device == "emulator-5554");
  CHECK(request.operator_package == "com.clawperator.operator");
  CHECK(request.record_approvals);

  service::Session cli = server;  // as the CLI makes its: --lock-wait, 0 by default
  cli.lock_wait_ms = 0;
  CHECK(service::execution_request(cli, call).lock_wait_ms == 0);
  CHECK(service::execution_request(cli, call).budget->count() == 1501);
}

TEST_CASE("execution_request: the request's own device and package win over the session's",
          "[service]") {
  service::Session session;
  session.device = "default-serial";
  session.operator_package = "com.clawperator.operator";
  session.record_approvals = false;  // MCP
  session.lock_token = "0123";
  service::ExecutionCall call;
  call.execution = execution_of(30000);
  call.target = {std::string("chosen"), std::string("com.clawperator.operator.dev")};
  call.approval_id = "id";
  call.ask_person_through = "elicitation";
  const exec::ExecutionRequest request = service::execution_request(session, call);
  CHECK(request.device == "chosen");
  CHECK(request.operator_package == "com.clawperator.operator.dev");
  CHECK_FALSE(request.record_approvals);
  CHECK(request.lock_token == "0123");
  CHECK(request.approval_id == "id");
  CHECK(request.ask_person_through == "elicitation");
  call.target = {};
  const exec::ExecutionRequest defaults = service::execution_request(session, call);
  CHECK(defaults.device == "default-serial");
  CHECK(defaults.operator_package == "com.clawperator.operator");
}

TEST_CASE("execution_base: what an evidence capture's snapshot shares with every execution",
          "[service]") {
  service::Session server;
  server.device = "default-serial";
  server.operator_package = "com.clawperator.operator";
  server.result_transport = exec::ResultTransport::Auto;
  server.require_authentic_result = true;
  server.lock_token = "0123";
  const exec::ExecutionRequest base = service::execution_base(
      server, {std::string("chosen"), std::nullopt}, std::chrono::milliseconds(30000));
  CHECK(base.device == "chosen");
  CHECK(base.operator_package == "com.clawperator.operator");
  CHECK(base.result_transport == exec::ResultTransport::Auto);
  CHECK(base.require_authentic_result);
  CHECK(base.lock_token == "0123");
  CHECK(base.lock_wait_ms == 30000);  // a server's caller queues for its own deadline
  CHECK_FALSE(base.policy);           // a capture only reads
  CHECK_FALSE(base.budget);           // the capture sets its own (evidence/capture.cpp)
  service::Session cli = server;
  cli.lock_wait_ms = 250;  // --lock-wait
  CHECK(service::execution_base(cli, {}, std::chrono::milliseconds(30000)).lock_wait_ms == 250);
}
