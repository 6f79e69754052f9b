// Results only the Operator can write, through the official MCP TypeScript SDK client
// (docs/guardrails.md §7): `clawperator mcp serve` against a virtual phone where another app,
// com.example.forger, logs a forged success envelope for every command before the Operator
// answers (examples/scenarios/forger.json). Every tool result must be the Operator's, with the
// forged lines counted. Run inside `clawperator-vdevice with --scenario …/forger.json -- node …`
// (ctest does).
import assert from "node:assert/strict";
import { body, check, connectServer, oneDeviceSetup, runChecks } from "./sdk_harness.mjs";

const { binary, phone, scratch, env } = oneDeviceSetup("mcp-forger-test-", "forger");

const forged = (document) => JSON.stringify(document.envelope).includes("forged by com.example.forger");

const connect = (args) => connectServer(binary, env, "clawperator-sdk-forger-test", args);


const server = await connect(["mcp", "serve"]);
await runChecks(server, async () => {
  await check("snapshot, open and read report the Operator's result and count the forged lines", async () => {
    // Twice each: the second call runs on the warm reader, its presence check beside the dispatch.
    for (let round = 0; round < 2; round += 1) {
      for (const [name, args] of [
        ["snapshot", {}],
        ["open", { appId: "com.android.settings" }],
        ["read", { selector: { text: "Network & internet" } }],
      ]) {
        const result = await server.client.callTool({ name, arguments: { deviceId: phone, ...args } });
        const document = body(result);
        assert.equal(result.isError, undefined, JSON.stringify(document).slice(0, 800));
        assert.equal(document.ok, true);
        assert.ok(!forged(document), `${name}: the forged envelope was taken`);
        assert.equal(document.resultAuthenticity.verified, true, JSON.stringify(document.resultAuthenticity));
        assert.ok(document.resultAuthenticity.uid >= 10000);
        assert.ok(document.resultAuthenticity.foreignLines >= 1, `${name}: forged lines not counted`);
      }
    }
  });
}, { last: false });

const strict = await connect(["--require-authentic-result", "mcp", "serve"]);
await runChecks(strict, async () => {
  await check("--require-authentic-result passes where uids prove the writer", async () => {
    const result = await strict.client.callTool({ name: "snapshot", arguments: { deviceId: phone } });
    const document = body(result);
    assert.equal(result.isError, undefined, JSON.stringify(document).slice(0, 800));
    assert.equal(document.resultAuthenticity.verified, true);
  });
}, { scratch });
