// The webview_* tools through the official MCP TypeScript SDK client (docs/webview.md §5):
// `clawperator mcp serve` against a virtual phone whose shop app shows its login page in a
// debuggable WebView backed by a real headless Chromium (examples/scenarios/webview-login.json).
// The page's own JavaScript sees what the tools do; refusals come from the service's reader;
// no adb forward outlives a call. Run inside `clawperator-vdevice with --scenario
// …/webview-login.json -- node …` (ctest does; it skips, 77, without Chromium).
import { execFileSync } from "node:child_process";
import assert from "node:assert/strict";
import { body, check, connectServer, oneDeviceSetup, runChecks } from "./sdk_harness.mjs";

const { binary, phone, scratch, env } = oneDeviceSetup("mcp-webview-test-", "webview-login");

const forwards = () => execFileSync("adb", ["forward", "--list"], { encoding: "utf8" });


const server = await connectServer(binary, env, "clawperator-sdk-webview-test");
const { client } = server;

async function call(name, args) {
  const result = await client.callTool({ name, arguments: { deviceId: phone, ...args } });
  assert.ok(!forwards().includes("localabstract"), `${name} left a forward: ${forwards()}`);
  return result;
}
async function ok(name, args) {
  const result = await call(name, args);
  const document = body(result);
  assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(document).slice(0, 800)}`);
  assert.equal(document.ok, true);
  return { result, document };
}

await runChecks(server, async () => {
  await check("tools/list has the seven webview tools with their schemas", async () => {
    const { tools } = await client.listTools();
    const webview = tools.filter((tool) => tool.name.startsWith("webview_")).map((tool) => tool.name);
    assert.deepEqual(webview, ["webview_list", "webview_query", "webview_click", "webview_type",
      "webview_eval", "webview_wait", "webview_screenshot"]);
    const click = tools.find((tool) => tool.name === "webview_click");
    assert.deepEqual(click.inputSchema.required, ["selector"]);
    assert.equal(click.annotations.readOnlyHint, false);
  });

  await check("list names the shop's socket and page; the notes app is not debuggable", async () => {
    const { document } = await ok("webview_list", {});
    assert.equal(document.sockets.length, 1);
    assert.equal(document.sockets[0].package, "com.example.shop");
    assert.equal(document.sockets[0].pages[0].title, "Shop login");
  });

  await check("wait, type, click and eval: the page's own handler reads the typed value", async () => {
    await ok("webview_wait", { selector: "#offers", timeoutMs: 10000 });
    await ok("webview_wait", { selector: "#spinner", gone: true, timeoutMs: 10000 });
    const typed = await ok("webview_type", { selector: "#user", text: "grace", clear: true });
    assert.equal(typed.document.typedLength, 5);
    await ok("webview_click", { selector: "#login", app: "com.example.shop" });
    const evaluated = await ok("webview_eval", {
      expression: "document.getElementById('status').textContent",
    });
    assert.equal(evaluated.document.value, "Welcome grace");
  });

  await check("query lists both inputs with their screen bounds", async () => {
    const { document } = await ok("webview_query", { selector: "input" });
    assert.equal(document.count, 2);
    assert.equal(document.matches[0].attributes.id, "user");
    assert.ok(document.matches[0].bounds.screen, JSON.stringify(document.matches[0]));
  });

  await check("screenshot comes back as a PNG image, no host path", async () => {
    const { result, document } = await ok("webview_screenshot", {});
    const image = result.content.find((item) => item.type === "image");
    assert.ok(image, JSON.stringify(result.content.map((item) => item.type)));
    assert.equal(image.mimeType, "image/png");
    assert.equal(Buffer.from(image.data, "base64").subarray(1, 4).toString(), "PNG");
    assert.equal(document.path, undefined);
  });

  await check("what is not there, and what is ambiguous, are error results with their codes", async () => {
    for (const [name, args, code] of [
      ["webview_click", { selector: "#nothing-here" }, "WEBVIEW_ELEMENT_NOT_FOUND"],
      ["webview_click", { selector: "input" }, "WEBVIEW_ELEMENT_AMBIGUOUS"],
      ["webview_query", { selector: "a", app: "com.example.notes" }, "WEBVIEW_NOT_FOUND"],
      ["webview_eval", { expression: "(() => { throw new Error('nope') })()" }, "WEBVIEW_EVALUATION_FAILED"],
    ]) {
      const result = await call(name, args);
      const document = body(result);
      assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.equal(document.code, code, JSON.stringify(document).slice(0, 600));
    }
  });

  await check("arguments the service's reader refuses are invalid params (-32602)", async () => {
    for (const [name, args] of [
      ["webview_click", { selector: "   " }],
      ["webview_query", { selector: "a", pageId: "P", url: "x" }],
      ["webview_screenshot", { path: "/tmp/x.png" }],
    ]) {
      await assert.rejects(call(name, args), (error) => error.code === -32602, `${name} ${JSON.stringify(args)}`);
    }
  });
}, { scratch });
