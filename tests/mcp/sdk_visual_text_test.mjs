// The visual_text_* tools through the official MCP TypeScript SDK client (docs/visual-text.md):
// `clawperator mcp serve` against a virtual phone whose Flutter-like shop draws its labels
// without exposing them (examples/scenarios/drawn-text.json). Only the words read off the screen
// find the buttons; a tap lands and the app reacts; a phrase drawn twice and one not drawn come
// back as the errors a selector's would. Run inside `clawperator-vdevice with --scenario
// …/drawn-text.json -- node …` (ctest does).
import { execFileSync } from "node:child_process";
import assert from "node:assert/strict";
import { body, check, connectServer, oneDeviceSetup, runChecks } from "./sdk_harness.mjs";

const { binary, phone, scratch, env } = oneDeviceSetup("mcp-visual-text-test-", "drawn-text");
execFileSync("adb", ["-s", phone, "shell", "am", "start", "-n",
  "com.example.fluttershop/.MainActivity"]);

const server = await connectServer(binary, env, "clawperator-sdk-visual-text-test");
const { client } = server;

const call = (name, args) => client.callTool({ name, arguments: { deviceId: phone, ...args } });
async function ok(name, args) {
  const result = await call(name, args);
  const document = body(result);
  assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(document).slice(0, 800)}`);
  assert.equal(document.ok, true);
  return document;
}
async function fails(name, args, code) {
  const result = await call(name, args);
  const document = body(result);
  assert.equal(result.isError, true, `${name}: ${JSON.stringify(document).slice(0, 800)}`);
  assert.equal(document.code, code);
  assert.equal(document.disposition.delivery, "not_delivered");
  return document;
}

await runChecks(server, async () => {
  await check("tools/list has the four visual_text tools", async () => {
    const { tools } = await client.listTools();
    const names = tools.filter((tool) => tool.name.startsWith("visual_text_")).map((tool) => tool.name);
    assert.deepEqual(names, ["visual_text_query", "visual_text_click", "visual_text_wait",
      "visual_text_read"]);
    const click = tools.find((tool) => tool.name === "visual_text_click");
    assert.equal(click.annotations.readOnlyHint, false);
  });

  await check("query finds the drawn button the tree does not hold", async () => {
    const document = await ok("visual_text_query", { text: "Buy now" });
    assert.equal(document.count, 1);
    assert.equal(document.matches[0].text, "Buy now");
    assert.ok(document.matches[0].confidence >= 50);
  });

  await check("snapshot compact withText gives the wordless button its drawn words", async () => {
    const document = await ok("snapshot", { compact: true, withText: true });
    const read = document.compact.nodes.flatMap((node) =>
      (node.recognisedText ?? []).map((line) => line.text));
    assert.ok(read.includes("Buy now"), JSON.stringify(read));
    assert.ok(document.compact.recognisedLines >= 6);
  });

  await check("a phrase drawn twice is NODE_AMBIGUOUS with both candidates", async () => {
    const document = await fails("visual_text_click", { text: "Details" }, "NODE_AMBIGUOUS");
    assert.equal(document.details.candidates.length, 2);
  });

  await check("a misspelt phrase is NODE_NOT_FOUND with the nearest read", async () => {
    const document = await fails("visual_text_click", { text: "Add to cat" }, "NODE_NOT_FOUND");
    assert.ok(document.details.nearestPhrases.includes("Add to cart"),
      JSON.stringify(document.details.nearestPhrases));
  });

  await check("click taps the drawn button and the next screen's is waited for", async () => {
    const tapped = await ok("visual_text_click", { text: "Buy now" });
    assert.equal(tapped.visualText.text, "Buy now");
    const waited = await ok("visual_text_wait", { text: "Back to shop", timeoutMs: 5000 });
    assert.equal(waited.match.text, "Back to shop");
  });

  await check("arguments the service refuses are -32602", async () => {
    for (const [name, args] of [
      ["visual_text_click", {}],
      ["visual_text_click", { text: "a", contains: "b" }],
      ["visual_text_query", { text: "a", region: "0,0,1,1" }],
      ["visual_text_query", { text: "a", long: true }],
      ["snapshot", { withText: true }],
    ]) {
      await assert.rejects(call(name, args), (error) => error.code === -32602, `${name} ${JSON.stringify(args)}`);
    }
  });
}, { scratch });
