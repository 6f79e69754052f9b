// The MCP server's reader: any bytes, split into lines, give a classified message; every
// answer owed is one line of valid JSON-RPC; tool arguments, whatever they are, give a plan or
// an argument error, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "clawperator/json.hpp"
#include "clawperator/mcp/jsonrpc.hpp"
#include "clawperator/mcp/tool_calls.hpp"
#include "clawperator/mcp/tools.hpp"
#include "clawperator/transport/line_splitter.hpp"

namespace {

using namespace clawperator;

void check_line(const std::string& line) {
  if (line.empty() || line.back() != '\n' || line.find('\n') != line.size() - 1) std::abort();
  const Json answer = parse_json(std::string_view(line).substr(0, line.size() - 1));
  if (!answer.is_object() || answer["jsonrpc"] != "2.0") std::abort();
}

void handle(std::string_view line) {
  const mcp::Message message = mcp::parse_message(line);
  if (const auto* error = std::get_if<mcp::Malformed>(&message)) {
    check_line(mcp::error_line(error->id, error->code, error->message));
    return;
  }
  const auto* request = std::get_if<mcp::Request>(&message);
  if (request == nullptr) return;
  check_line(mcp::result_line(request->id, request->params));
  if (request->method != "tools/call" || !request->params.contains("name") ||
      !request->params["name"].is_string()) {
    return;
  }
  const mcp::ToolDefinition* tool = mcp::find_tool(request->params["name"].get<std::string>());
  if (tool == nullptr) return;
  const Json arguments = request->params.value("arguments", Json::object());
  if (!arguments.is_object()) return;
  (void)mcp::plan_tool_call(*tool, arguments, {}, service::IdStamp{std::string(32, 'a')});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  transport::LineSplitter splitter(1 << 16);
  splitter.feed(std::string_view(reinterpret_cast<const char*>(data), size), handle);
  if (auto tail = splitter.finish()) handle(*tail);
  return 0;
}
