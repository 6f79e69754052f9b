// The official MCP Inspector's CLI (`@modelcontextprotocol/inspector`, pinned in package.json)
// lists the tools of `clawperator mcp serve` with --strict, which reports every tool-schema
// portability problem: there must be none, not even a warning. Needs no device.
//   CLAWPERATOR_BINARY=build/src/clawperator node tests/mcp/inspector_strict_test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const binary = process.env.CLAWPERATOR_BINARY;
assert.ok(binary, "CLAWPERATOR_BINARY is not set");
const require = createRequire(import.meta.url);
const inspector = join(dirname(require.resolve("@modelcontextprotocol/inspector/package.json")),
                       "clients/launcher/build/index.js");

const scratch = mkdtempSync(join(tmpdir(), "mcp-inspector-test-"));
// The Inspector keeps a catalog of servers; never the user's own.
const env = { ...process.env, MCP_CATALOG_PATH: join(scratch, "mcp.json"),
              CLAWPERATOR_LOG_DIR: join(scratch, "logs"), CLAWPERATOR_STATE_DIR: join(scratch, "state") };
const run = spawnSync(process.execPath,
                      [inspector, "--cli", binary, "mcp", "serve", "--method", "tools/list", "--strict"],
                      { env, encoding: "utf8", timeout: 60000 });
rmSync(scratch, { recursive: true, force: true });
const report = `exit ${run.status} signal ${run.signal}\nstdout:\n${run.stdout.slice(0, 4000)}\nstderr:\n${run.stderr}`;
assert.equal(run.status, 0, report);
// With --strict every finding is printed on stderr, a warning as much as an error.
assert.doesNotMatch(run.stderr, /warning|error|portab/i, report);
const listed = JSON.parse(run.stdout);
const names = listed.tools.map((tool) => tool.name);
assert.ok(names.includes("execute") && names.includes("click"), report);
const params = listed.tools.find((tool) => tool.name === "execute")
  .inputSchema.properties.actions.items.properties.params;
assert.equal(params.type, "object", report);
console.log(`ok - the Inspector's --strict tools/list reports nothing for ${names.length} tools`);
