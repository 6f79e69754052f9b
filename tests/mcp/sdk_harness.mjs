// What the official-SDK client tests share: the device the virtual phone gave, a private
// scratch directory for the server's logs and state, the result's document, and named checks.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The one serial of `clawperator-vdevice with --scenario FILE -- node …`, the binary, and an
// environment whose logs and state go to a new scratch directory (removed by the caller).
export function oneDeviceSetup(scratchPrefix, scenario) {
  const binary = process.env.CLAWPERATOR_BINARY;
  const serials = (process.env.CLAWPERATOR_VDEVICE_SERIALS || "").split(/[\s,]+/).filter(Boolean);
  assert.ok(binary, "CLAWPERATOR_BINARY is not set");
  assert.equal(serials.length, 1, `run inside clawperator-vdevice with one ${scenario} scenario`);
  const scratch = mkdtempSync(join(tmpdir(), scratchPrefix));
  const env = { ...process.env };
  delete env.ANDROID_SERIAL;
  env.CLAWPERATOR_LOG_DIR = join(scratch, "logs");
  env.CLAWPERATOR_STATE_DIR = join(scratch, "state");
  return { binary, phone: serials[0], scratch, env };
}

export const body = (result) => result.structuredContent ?? JSON.parse(result.content[0].text);

let passed = 0;
export async function check(name, run) {
  try {
    await run();
    passed += 1;
    console.log(`ok - ${name}`);
  } catch (error) {
    console.log(`not ok - ${name}\n${error.stack}`);
    throw error;
  }
}
export const checksPassed = () => passed;

// `clawperator ARGS` (mcp serve) as the SDK client's stdio server; its stderr is kept for a
// failure's report.
export async function connectServer(binary, env, clientName, args = ["mcp", "serve"]) {
  const transport = new StdioClientTransport({ command: binary, args, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => { stderr += chunk; });
  const client = new Client({ name: clientName, version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

// Runs `checks` against `server`; a failure prints the server's last stderr before it throws.
// The client is closed either way. The last run (`last`) also removes the scratch directory and
// prints the count of checks passed.
export async function runChecks(server, checks, { scratch, last = true } = {}) {
  try {
    await checks();
  } catch (error) {
    console.log(server.stderr().slice(-4000));
    throw error;
  } finally {
    await server.client.close();
    if (last && scratch) rmSync(scratch, { recursive: true, force: true });
  }
  if (last) console.log(`${passed} checks passed`);
}
