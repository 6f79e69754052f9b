// The official MCP TypeScript SDK client drives `clawperator mcp serve` through the real adb
// against virtual devices. Run inside `clawperator-vdevice with --count 2 -- node …` (ctest does):
// CLAWPERATOR_VDEVICE_SERIALS names the two devices, ANDROID_ADB_SERVER_PORT their adb server.
//   CLAWPERATOR_BINARY=build/src/clawperator clawperator-vdevice with --count 2 -- \
//     node tests/mcp/sdk_client_test.mjs
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";

const binary = process.env.CLAWPERATOR_BINARY;
const serials = (process.env.CLAWPERATOR_VDEVICE_SERIALS || "").split(/[\s,]+/).filter(Boolean);
assert.ok(binary, "CLAWPERATOR_BINARY is not set");
assert.equal(serials.length, 2, "run inside clawperator-vdevice with --count 2");
const [first, second] = serials;

const scratch = mkdtempSync(join(tmpdir(), "mcp-sdk-test-"));
const env = { ...process.env };
delete env.ANDROID_SERIAL;
env.CLAWPERATOR_LOG_DIR = join(scratch, "logs");
env.CLAWPERATOR_STATE_DIR = join(scratch, "state");
env.CLAWPERATOR_EVIDENCE_DIR = join(scratch, "evidence");
// The skills shipped in the repository (skills/): the skills_* tools read them.
env.CLAWPERATOR_SKILLS_REGISTRY = join(dirname(new URL(import.meta.url).pathname), "..", "..",
                                       "skills", "skills-registry.json");

const transport = new StdioClientTransport({ command: binary, args: ["mcp", "serve"], env, stderr: "pipe" });
let stderr = "";
transport.stderr?.on("data", (chunk) => { stderr += chunk; });
// The SDK hands the version the server answered initialize with to its transport.
let negotiatedVersion;
transport.setProtocolVersion = (version) => { negotiatedVersion = version; };
const client = new Client({ name: "clawperator-sdk-test", version: "1.0.0" });
await client.connect(transport);

// Every message the server sends, also the answers to requests the SDK gave up on.
const seen = [];
const deliver = transport.onmessage;
transport.onmessage = (message, extra) => { seen.push(message); deliver?.(message, extra); };
client.onerror = () => {};  // the late answer to a cancelled request is expected

let passed = 0;
async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    passed += 1;
    console.log(`ok - ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    console.log(`not ok - ${name}\n${error.stack}\nserver stderr:\n${stderr}`);
    throw error;
  }
}

const body = (result) => result.structuredContent ?? JSON.parse(result.content[0].text);

// What no tool result may carry (docs/mcp.md, "Redaction"): a path under one of this host's
// places, and adb's own words. The one path a tool exists to hand over, the compact snapshot's
// saveRaw file, is taken out first.
const adbPath = execFileSync("sh", ["-c", "command -v adb"], { encoding: "utf8" }).trim();
// adb where it really lives too: Debian's /usr/bin/adb is a link, and doctor's installedAs
// names where it leads.
const hostRoots = [scratch, tmpdir(), homedir(), dirname(binary), adbPath, realpathSync(adbPath)]
  .filter((root) => root && root.length > 1);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const hostPath = new RegExp(`(^|[\\s"'(=:,;\\[<>])(${hostRoots.map(escape).join("|")})(?=$|[/\\s"'),;:\\]<>])`);
const adbWords = /\* daemon|adb: |error: (device|no devices|closed|protocol fault)|cannot connect to daemon/;
const withoutSavedFile = (document) => {
  if (document && document.compact) delete document.compact.rawArtifactPath;
  // The evidence tools hand over their bundle's manifest (docs/evidence.md).
  if (document && typeof document.manifestPath === "string" &&
      document.manifestPath.startsWith(join(scratch, "evidence") + "/")) {
    delete document.manifestPath;
  }
  return document;
};
let scanned = 0;
function scan(name, result) {
  const structured = withoutSavedFile(structuredClone(result.structuredContent ?? null));
  const texts = result.content.filter((item) => item.type === "text")
    .map((item) => JSON.stringify(withoutSavedFile(JSON.parse(item.text))));
  const all = JSON.stringify(structured) + "\n" + texts.join("\n");
  assert.doesNotMatch(all, hostPath, `${name}: a host path in ${all.slice(0, 2000)}`);
  assert.doesNotMatch(all, adbWords, `${name}: adb's own words in ${all.slice(0, 2000)}`);
  const document = body(result);
  assert.ok(document.disposition && typeof document.disposition.delivery === "string" &&
            typeof document.disposition.retry === "string",
            `${name}: no disposition in ${JSON.stringify(document).slice(0, 500)}`);
  scanned += 1;
}
const call = async (name, args, options) => {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  scan(name, result);
  return result;
};

function childrenOf(pid) {
  const children = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid) children.push(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  return children;
}

await check("initialize negotiates the newest version and names the server", async () => {
  // The SDK asks for its newest version; the server speaks it, so that is the answer.
  assert.equal(negotiatedVersion, LATEST_PROTOCOL_VERSION);
  assert.equal(negotiatedVersion, "2025-11-25");
  assert.equal(client.getServerVersion().name, "clawperator");
  assert.deepEqual(client.getServerCapabilities().tools, { listChanged: false });
});

let tools;
await check("tools/list has every tool with its annotations", async () => {
  tools = (await client.listTools()).tools;
  const names = tools.map((tool) => tool.name);
  for (const name of ["devices", "configure", "snapshot", "query_ui", "execute", "open", "click",
                      "type", "read", "press", "wait", "scroll", "scroll_until", "scroll_and_click",
                      "swipe", "drag", "screenshot", "doctor", "explain_error", "skills_list",
                      "skills_get", "skills_run"]) {
    assert.ok(names.includes(name), `missing tool ${name}`);
  }
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  assert.equal(byName.snapshot.annotations.readOnlyHint, true);
  assert.equal(byName.click.annotations.destructiveHint, true);
  assert.equal(byName.open.annotations.readOnlyHint, false);
  assert.ok(byName.click.outputSchema);
  assert.equal(byName.query_ui.annotations.readOnlyHint, true);
  assert.equal(byName.swipe.annotations.readOnlyHint, false);
  assert.deepEqual(byName.swipe.inputSchema.required, ["start", "end", "durationMs"]);
  assert.equal(byName.click.inputSchema.properties.strict.type, "boolean");
});

await check("skills_list, skills_get and skills_run through the shipped skills", async () => {
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  assert.equal(byName.skills_list.annotations.readOnlyHint, true);
  assert.equal(byName.skills_run.annotations.readOnlyHint, false);
  assert.equal(byName.skills_run.annotations.destructiveHint, true);
  const listed = body(await call("skills_list", {}));
  assert.equal(listed.ok, true);
  assert.ok(listed.skills.some((skill) => skill.id === "com.android.settings.snapshot"));
  assert.equal(listed.registryPath, undefined, "the registry's path is a host path");
  assert.equal(body(await call("skills_list", { keyword: "SNAPSHOT" })).count, 1);
  const missing = await call("skills_get", { skillId: "com.example.none" });
  assert.equal(missing.isError, true);
  assert.equal(body(missing).code, "SKILL_NOT_FOUND");
  const ran = await call("skills_run", { skillId: "com.android.settings.snapshot", deviceId: first });
  const run = body(ran);
  assert.equal(run.ok, true, JSON.stringify(run));
  assert.equal(run.exitCode, 0);
  assert.equal(run.deviceId, first);
  // The script printed exec's document, whose snapshot shows Settings.
  assert.match(run.output, /"ok":true/);
  const refused = await client.callTool({ name: "skills_run", arguments: { skillId: "x", timeoutMs: 0 } })
    .then(() => null, (error) => error);
  assert.ok(refused && refused.code === -32602, String(refused));
});

await check("skills_run: the script's own calls run under the server's --policy", async () => {
  // A registry of one skill whose script clicks what the policy denies, then what it wants
  // confirmed, printing each document; a server of its own started with --policy as a flag.
  const repo = mkdtempSync(join(scratch, "guarded-"));
  const folder = "skills/com.test.guarded";
  execFileSync("mkdir", ["-p", join(repo, folder, "scripts")]);
  writeFileSync(join(repo, folder, "scripts", "run.sh"),
    "#!/bin/sh\n\"$CLAWPERATOR_BIN\" click --text 'Network & internet'; echo \"rc=$?\"\n" +
    "\"$CLAWPERATOR_BIN\" click --text Display; echo \"rc=$?\"\n", { mode: 0o755 });
  writeFileSync(join(repo, folder, "SKILL.md"), "---\nname: com.test.guarded\n---\n");
  const entry = { id: "com.test.guarded", applicationId: "com.android.settings", intent: "run",
                  summary: "clicks what the policy guards", path: folder,
                  skillFile: `${folder}/SKILL.md`, scripts: [`${folder}/scripts/run.sh`], artifacts: [] };
  writeFileSync(join(repo, folder, "skill.json"), JSON.stringify(entry));
  writeFileSync(join(repo, "skills", "skills-registry.json"), JSON.stringify({ skills: [entry] }));
  writeFileSync(join(repo, "policy.json"), JSON.stringify({ schemaVersion: 1, rules: [
    { id: "no-network", decision: "deny", actions: ["click"], labels: ["network*"] },
    { id: "confirm-display", decision: "confirm", labels: ["Display"] }] }));
  const guardedEnv = { ...env, CLAWPERATOR_SKILLS_REGISTRY: join(repo, "skills", "skills-registry.json") };
  delete guardedEnv.CLAWPERATOR_POLICY;
  const guardedTransport = new StdioClientTransport({
    command: binary, args: ["mcp", "serve", "--policy", join(repo, "policy.json")], env: guardedEnv,
    stderr: "pipe" });
  const guarded = new Client({ name: "clawperator-sdk-policy-test", version: "1.0.0" });
  await guarded.connect(guardedTransport);
  try {
    const result = await guarded.callTool({ name: "skills_run",
                                            arguments: { skillId: "com.test.guarded", deviceId: first } });
    scan("skills_run", result);
    const run = body(result);
    assert.equal(run.ok, true, JSON.stringify(run));
    assert.match(run.output, /"code":"POLICY_DENIED"/);
    assert.match(run.output, /"code":"CONFIRMATION_REQUIRED"/);
    assert.doesNotMatch(run.output, /"token"/, "a skill's script is handed no confirmation token");
    assert.equal(run.output.match(/^rc=3$/gm)?.length, 2, run.output);
  } finally {
    await guarded.close();
  }
});

await check("recording_start, a person's taps, recording_stop, recording_compile, execute", async () => {
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  assert.equal(byName.recording_compile.annotations.readOnlyHint, true);
  assert.equal(byName.recording_compile.inputSchema.additionalProperties, false);
  const on = { deviceId: second };
  const started = body(await call("recording_start", { ...on, sessionId: "sdk-rec" }));
  assert.equal(started.ok, true, JSON.stringify(started));
  assert.equal(started.envelope.stepResults[0].data.sessionId, "sdk-rec");
  const again = await call("recording_start", { ...on, sessionId: "sdk-rec-2" });
  assert.equal(again.isError, true);
  assert.equal(body(again).code, "RECORDING_ALREADY_IN_PROGRESS");
  assert.equal(body(await call("open", { ...on, appId: "com.android.settings" })).ok, true);
  const tapped = body(await call("click", {
    ...on, selector: { id: "com.android.settings:id/search_action_bar" } }));
  assert.equal(tapped.ok, true, JSON.stringify(tapped));
  assert.equal(body(await call("press", { ...on, key: "back" })).ok, true);
  const stopped = body(await call("recording_stop", on));
  assert.equal(stopped.ok, true, JSON.stringify(stopped));
  assert.ok(Number(stopped.envelope.stepResults[0].data.eventCount) >= 3, JSON.stringify(stopped));
  const idle = await call("recording_stop", on);
  assert.equal(idle.isError, true);
  assert.equal(body(idle).code, "RECORDING_NOT_IN_PROGRESS");
  const refused = await client.callTool({ name: "recording_compile", arguments: { sessionId: "../x" } })
    .then(() => null, (error) => error);
  assert.ok(refused && refused.code === -32602, String(refused));
  const compiled = body(await call("recording_compile", { ...on, sessionId: "sdk-rec" }));
  assert.equal(compiled.ok, true, JSON.stringify(compiled));
  assert.equal(compiled.sessionId, "sdk-rec");
  const types = compiled.execution.actions.map((action) => action.type);
  assert.equal(types[0], "open_app", JSON.stringify(types));
  assert.ok(types.includes("click") && types.includes("press_key"), JSON.stringify(types));
  const replayed = body(await call("execute", {
    ...on, actions: compiled.execution.actions, timeoutMs: compiled.execution.timeoutMs }));
  assert.equal(replayed.ok, true, JSON.stringify(replayed));
  const latest = body(await call("recording_compile", on));
  assert.equal(latest.sessionId, "sdk-rec", "the latest pointer names the last stopped recording");
});

await check("emulator_provision is listed, idempotent, and its bounds refuse before anything runs", async () => {
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  const tool = byName.emulator_provision;
  assert.ok(tool, "emulator_provision is listed");
  assert.equal(tool.annotations.readOnlyHint, false);
  assert.equal(tool.annotations.idempotentHint, true);
  assert.equal(tool.inputSchema.additionalProperties, false);
  // emulatorArgs is no argument of the tool: a caller never hands the emulator a flag, least of
  // all one that names a host file (docs/mcp.md).
  for (const args of [{ api: 7 }, { target: "playstore" }, { bootTimeoutMs: 10 }, { name: "x" },
                      { emulatorArgs: ["-logcat-output", join(scratch, "bashrc")] }]) {
    const refused = await client.callTool({ name: "emulator_provision", arguments: args })
      .then(() => null, (error) => error);
    assert.ok(refused && refused.code === -32602, JSON.stringify(args) + " " + String(refused));
  }
});

await check("evidence_capture hashes every file it lists, and a video session records, stops and is probed", async () => {
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  assert.equal(byName.evidence_capture.annotations.readOnlyHint, true);
  for (const name of ["evidence_video_start", "evidence_video_status", "evidence_video_stop"]) {
    assert.ok(byName[name], `${name} is listed`);
    assert.equal(byName[name].inputSchema.additionalProperties, false);
  }
  const captured = await call("evidence_capture", { deviceId: first, label: "sdk", context: { run: 1 } });
  assert.equal(captured.isError, undefined, JSON.stringify(captured).slice(0, 500));
  const capture = body(captured);
  assert.equal(capture.status, "complete");
  assert.ok(capture.manifestPath.startsWith(join(scratch, "evidence")), capture.manifestPath);
  assert.equal(capture.bundleDir, undefined);
  assert.equal(capture.manifest.artifacts.length, 3);
  for (const artifact of capture.manifest.artifacts) {
    const bytes = readFileSync(join(dirname(capture.manifestPath), artifact.path));
    assert.equal(bytes.length, artifact.bytes);
    assert.equal(createHash("sha256").update(bytes).digest("hex"), artifact.sha256);
  }
  for (const [name, args] of [["evidence_capture", { outputDir: scratch }],
                              ["evidence_capture", { label: "x".repeat(2049) }],
                              ["evidence_video_start", { durationSeconds: 0 }],
                              ["evidence_video_status", {}]]) {
    const refused = await client.callTool({ name, arguments: args }).then(() => null, (error) => error);
    assert.ok(refused && refused.code === -32602, name + " " + String(refused));
  }
  const started = await call("evidence_video_start", { deviceId: second, durationSeconds: 30, size: "360x640" });
  assert.equal(started.isError, undefined, JSON.stringify(started).slice(0, 500));
  const session = body(started);
  assert.equal(session.status, "recording");
  // Still recording: an error result, as the original's status.
  assert.equal((await call("evidence_video_status", { sessionId: session.sessionId })).isError, true);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const stopped = await call("evidence_video_stop", { sessionId: session.sessionId });
  assert.equal(stopped.isError, undefined, JSON.stringify(stopped).slice(0, 800));
  const video = body(stopped).manifest.video;
  assert.equal(video.stopReason, "stopped");
  assert.equal(video.probe.codec, "h264");
  assert.equal(video.probe.width, 360);
  const unknown = await call("evidence_video_status", { sessionId: "0e708990-1abd-4d9e-b2f9-16313db7629e" });
  assert.equal(unknown.isError, true);
  assert.equal(body(unknown).code, "EVIDENCE_SESSION_NOT_FOUND");
});

await check("a server with an action policy refuses a denied click, refuses a confirm rule with no token or approval a model could use, and asks the human through elicitation when the client can be asked", async () => {
  const policyFile = join(scratch, "policy.json");
  writeFileSync(policyFile, JSON.stringify({ schemaVersion: 1, rules: [
    { id: "no-network", decision: "deny", labels: ["Network*"] },
    { id: "confirm-display", decision: "confirm", labels: ["Display"] }] }));
  const guardedTransport = new StdioClientTransport({
    command: binary, args: ["mcp", "serve"], env: { ...env, CLAWPERATOR_POLICY: policyFile }, stderr: "pipe" });
  const guarded = new Client({ name: "clawperator-sdk-test-policy", version: "1.0.0" });
  await guarded.connect(guardedTransport);
  try {
    const opened = await guarded.callTool({ name: "open", arguments: { deviceId: first, appId: "com.android.settings" } });
    assert.equal(opened.isError, undefined, JSON.stringify(opened).slice(0, 500));
    const denied = await guarded.callTool({ name: "click", arguments: { deviceId: first, selector: { text: "Network & internet" } } });
    assert.equal(denied.isError, true);
    assert.equal(body(denied).code, "POLICY_DENIED");
    const asked = await guarded.callTool({ name: "click", arguments: { deviceId: first, selector: { text: "Display" } } });
    assert.equal(asked.isError, true);
    assert.equal(body(asked).code, "CONFIRMATION_REQUIRED");
    assert.equal(body(asked).details.token, undefined, "a token over MCP would let the model confirm itself");
    assert.equal(body(asked).details.approvalId, undefined,
                 "no approval is recorded over MCP: no tool takes one (docs/guardrails.md §5)");
    // The command id is 128 random bits too (docs/guardrails.md §7): anything else that looks
    // like a token must not be there.
    const withoutIds = JSON.stringify(asked).split(body(asked).details.commandId).join("");
    assert.ok(!withoutIds.match(/[0-9a-f]{32}/), "no token anywhere in the result");
  } finally {
    await guarded.close();
  }
  // A client that can be asked (elicitation): the human's no refuses, a yes sends the step.
  let answer = "decline";
  const questions = [];
  const askingTransport = new StdioClientTransport({
    command: binary, args: ["mcp", "serve"], env: { ...env, CLAWPERATOR_POLICY: policyFile }, stderr: "pipe" });
  const asking = new Client({ name: "clawperator-sdk-test-elicit", version: "1.0.0" },
                            { capabilities: { elicitation: {} } });
  asking.setRequestHandler(ElicitRequestSchema, async (request) => {
    questions.push(request.params);
    return answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: answer };
  });
  await asking.connect(askingTransport);
  try {
    const declined = await asking.callTool({ name: "click", arguments: { deviceId: first, selector: { text: "Display" } } });
    assert.equal(body(declined).code, "CONFIRMATION_DECLINED", JSON.stringify(declined).slice(0, 500));
    assert.equal(questions.length, 1);
    assert.match(questions[0].message, /Display/);
    assert.equal(questions[0].requestedSchema.properties.confirm.type, "boolean");
    answer = "accept";
    const sent = await asking.callTool({ name: "click", arguments: { deviceId: first, selector: { text: "Display" } } });
    assert.equal(sent.isError, undefined, JSON.stringify(sent).slice(0, 500));
    assert.equal(body(sent).ok, true);
    assert.equal(questions.length, 2);
    // Back to where the other checks expect the device.
    await asking.callTool({ name: "press", arguments: { deviceId: first, key: "back" } });
  } finally {
    await asking.close();
  }
});

await check("devices lists both virtual devices", async () => {
  const result = body(await call("devices", {}));
  const listed = result.devices.map((device) => device.serial);
  assert.ok(listed.includes(first) && listed.includes(second), JSON.stringify(result));
});

await check("configure sets the session's device", async () => {
  const result = body(await call("configure", { deviceId: first }));
  assert.deepEqual(result.session, { deviceId: first });
});

await check("snapshot returns the UI hierarchy with its disposition", async () => {
  const result = await call("snapshot", {});
  assert.equal(result.isError, undefined);
  const document = body(result);
  assert.equal(document.ok, true);
  assert.equal(document.deviceId, first);
  assert.match(document.envelope.stepResults[0].data.text, /hierarchy/);
  assert.equal(document.disposition.retry, "safe");
});

await check("--result-transport and CLAWPERATOR_RESULT_TRANSPORT reach the server's executions", async () => {
  // A second session of its own: the option is the whole session's (docs/mcp.md).
  for (const [args, extra] of [[["--result-transport", "direct"], {}],
                               [[], { CLAWPERATOR_RESULT_TRANSPORT: "auto" }]]) {
    const directTransport = new StdioClientTransport({
      command: binary, args: ["mcp", "serve", ...args], env: { ...env, ...extra }, stderr: "pipe" });
    const directClient = new Client({ name: "clawperator-sdk-test-direct", version: "1.0.0" });
    await directClient.connect(directTransport);
    try {
      const result = await directClient.callTool({ name: "snapshot", arguments: { deviceId: first } });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      assert.equal(body(result).resultTransport.used, "direct", `${args} ${JSON.stringify(extra)}`);
    } finally {
      await directClient.close();
    }
  }
});

const matches = async (matcher) => {
  const result = await call("query_ui", { matcher, visibility: "on_screen" });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  return body(result).query;
};

await check("query_ui finds the Settings rows and returns the parsed query", async () => {
  assert.equal(body(await call("open", { appId: "com.android.settings" })).ok, true);
  const document = body(await call("query_ui", { matcher: { textContains: "Network" }, limit: 5 }));
  assert.equal(document.ok, true, JSON.stringify(document));
  assert.equal(document.query.totalMatches, 1, JSON.stringify(document.query));
  assert.equal(document.query.nodes[0].label, "Network & internet");
  // The parsed query is the server's own: its node paths survive the redaction.
  assert.match(document.query.nodes[0].nodePath, /^0\./);
  assert.equal(document.disposition.retry, "safe");
});

await check("a strict click on an ambiguous label is refused with a safe disposition", async () => {
  const result = await call("click", { selector: { id: "android:id/title" }, strict: true });
  assert.equal(result.isError, true, JSON.stringify(result));
  const document = body(result);
  assert.equal(document.code, "NODE_AMBIGUOUS", JSON.stringify(document));
  assert.equal(document.disposition.retry, "safe");
  assert.equal(document.disposition.delivery, "not_delivered");
  // Nothing was tapped: the main screen is still there.
  assert.equal((await matches({ textEquals: "Battery" })).totalMatches, 1);
  await assert.rejects(call("click", { coordinate: { x: 10, y: 10 }, strict: true }),
                       (error) => error.code === -32602 && /strict or container/.test(error.message));
});

await check("swipe scrolls the Settings list", async () => {
  assert.equal((await matches({ textEquals: "Wallpaper & style" })).totalMatches, 0);
  const result = await call("swipe", { start: { x: 540, y: 2000 }, end: { x: 540, y: 900 }, durationMs: 200 });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(body(result).ok, true);
  assert.equal((await matches({ textEquals: "Wallpaper & style" })).totalMatches, 1);
  // And back, for the checks that follow.
  const back = await call("swipe", { start: { x: 540, y: 900 }, end: { x: 540, y: 2000 }, durationMs: 200 });
  assert.equal(body(back).ok, true, JSON.stringify(body(back)));
  assert.equal((await matches({ textEquals: "Network & internet" })).totalMatches, 1);
  await assert.rejects(call("swipe", { start: { x: 5, y: 5 }, end: { x: 5, y: 5 }, durationMs: 200 }),
                       (error) => error.code === -32602);
});

await check("drag scrolls the Settings list like a swipe; start == end is refused", async () => {
  assert.equal((await matches({ textEquals: "Wallpaper & style" })).totalMatches, 0);
  const gesture = { holdDurationMs: 100, moveDurationMs: 150 };
  const result = await call("drag", { start: { x: 540, y: 2000 }, end: { x: 540, y: 900 }, ...gesture });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const document = body(result);
  assert.equal(document.ok, true, JSON.stringify(document));
  const step = document.envelope.stepResults[0];
  assert.equal(step.actionType, "drag");
  assert.equal(step.data.hold_duration_ms, "100");
  assert.equal(step.data.move_duration_ms, "150");
  assert.equal((await matches({ textEquals: "Wallpaper & style" })).totalMatches, 1);
  const back = await call("drag", { start: { x: 540, y: 900 }, end: { x: 540, y: 2000 }, ...gesture });
  assert.equal(body(back).ok, true, JSON.stringify(body(back)));
  assert.equal((await matches({ textEquals: "Network & internet" })).totalMatches, 1);
  await assert.rejects(call("drag", { start: { x: 5, y: 5 }, end: { x: 5, y: 5 }, ...gesture }),
                       (error) => error.code === -32602 && /start and end must differ/.test(error.message));
});

// A PNG's size from its IHDR (bytes 16..23, big-endian), after the signature check.
function pngSize(result) {
  const image = result.content.find((item) => item.type === "image");
  assert.ok(image, JSON.stringify(result.content.map((item) => item.type)));
  assert.equal(image.mimeType, "image/png");
  const bytes = Buffer.from(image.data, "base64");
  assert.equal(bytes.subarray(0, 8).toString("hex"), "89504e470d0a1a0a");
  assert.equal(bytes.subarray(12, 16).toString("latin1"), "IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

await check("screenshot returns the device's PNG, or one scaled down to maxDimension", async () => {
  const full = await call("screenshot", {});
  assert.equal(full.isError, undefined, JSON.stringify(body(full)));
  assert.equal(body(full).image, undefined);
  const original = pngSize(full);
  const longer = Math.max(original.width, original.height);
  assert.ok(longer > 512, JSON.stringify(original));
  const scaled = await call("screenshot", { maxDimension: 512 });
  assert.equal(scaled.isError, undefined, JSON.stringify(body(scaled)));
  const expected = original.width >= original.height
    ? { width: 512, height: Math.round((original.height * 512) / longer) }
    : { width: Math.round((original.width * 512) / longer), height: 512 };
  assert.deepEqual(pngSize(scaled), expected);
  assert.deepEqual(body(scaled).image, { ...expected, originalWidth: original.width,
                                         originalHeight: original.height, scaled: true });
  // Never scaled up: the device's size when it already fits.
  const fits = await call("screenshot", { maxDimension: 4096 });
  assert.deepEqual(pngSize(fits), original);
  assert.equal(body(fits).image.scaled, false);
  await assert.rejects(call("screenshot", { maxDimension: 32 }),
                       (error) => error.code === -32602 && /maxDimension/.test(error.message));
});

await check("a compact snapshot is a bounded node list, its raw XML in the state directory", async () => {
  const result = await call("snapshot", { compact: true, maxNodes: 5, maxTextChars: 8, saveRaw: true });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const document = body(result);
  assert.equal(document.ok, true);
  assert.equal(document.deviceId, first);
  assert.equal(document.envelope.stepResults[0].data.text, undefined);
  const compact = document.compact;
  assert.equal(compact.schemaVersion, 1);
  assert.equal(compact.returnedNodes, 5);
  assert.ok(compact.totalNodes > 5);
  assert.equal(compact.truncated, true);
  assert.equal(compact.nodes[0].nodePath, "0");
  assert.ok(compact.nodes.every((node) => [...node.text].length <= 8));
  assert.ok(compact.rawArtifactPath.startsWith(join(scratch, "state")), compact.rawArtifactPath);
  assert.match(readFileSync(compact.rawArtifactPath, "utf8"), /<hierarchy/);
  assert.equal(statSync(compact.rawArtifactPath).mode & 0o777, 0o600);
  await assert.rejects(call("snapshot", { compact: true, maxChars: 10 }), (error) => error.code === -32602);
});

await check("open Settings, then click a row", async () => {
  const opened = body(await call("open", { appId: "com.android.settings" }));
  assert.equal(opened.ok, true, JSON.stringify(opened));
  const clicked = await call("click", { selector: { text: "Network & internet" } });
  assert.equal(clicked.isError, undefined, JSON.stringify(clicked));
  assert.equal(body(clicked).disposition.delivery, "delivered_verified");
});

await check("a step failure is an error result with a safe disposition", async () => {
  const result = await call("click", { selector: { text: "No such row anywhere" } });
  assert.equal(result.isError, true);
  const document = body(result);
  assert.equal(document.code, "NODE_NOT_FOUND", JSON.stringify(document));
  assert.equal(document.disposition.retry, "safe");
  assert.equal(document.details.dispatchState, "dispatched");
});

await check("a device error names the device problem", async () => {
  const result = await call("snapshot", { deviceId: "no-such-device-1234" });
  assert.equal(result.isError, true);
  const document = body(result);
  assert.equal(document.code, "DEVICE_NOT_FOUND", JSON.stringify(document));
  assert.equal(document.details.dispatchState, "not_dispatched");
  assert.equal(document.disposition.delivery, "not_delivered");
});

await check("bad arguments are a JSON-RPC -32602, not a tool result", async () => {
  await assert.rejects(call("press", { key: "menu" }), (error) => error.code === -32602);
});

await check("two devices in parallel", async () => {
  const [a, b] = await Promise.all([call("snapshot", { deviceId: first }), call("snapshot", { deviceId: second })]);
  assert.equal(body(a).deviceId, first);
  assert.equal(body(b).deviceId, second);
  assert.equal(body(a).ok && body(b).ok, true);
});

// The server keeps one logcat reader per device between calls (docs/mcp.md, "What is kept
// warm"): that, and nothing else, may stay.
const argvOf = (pid) => {
  try { return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean); } catch { return []; }
};
const isReader = (pid) => argvOf(pid).includes("logcat");
const warmReaders = new Set();

await check("20 sequential calls leave no child process behind but one warm reader per device", async () => {
  let reader;
  for (let i = 0; i < 20; i += 1) {
    const document = body(await call(i % 2 ? "snapshot" : "press", i % 2 ? {} : { key: "home" }));
    assert.equal(document.ok, true, JSON.stringify(document));
    const children = childrenOf(transport.pid);
    for (const pid of children) assert.ok(isReader(pid), `child ${pid}: ${argvOf(pid).join(" ")}`);
    // Both devices have been used before: never more than their two readers.
    assert.ok(children.length <= 2, JSON.stringify(children.map(argvOf)));
    // The device called 20 times keeps one reader throughout.
    const mine = children.find((pid) => argvOf(pid).includes(first));
    assert.ok(mine !== undefined, "no warm reader for the device just called");
    if (reader === undefined) reader = mine;
    assert.equal(mine, reader, "the warm reader was replaced between calls");
  }
  for (const pid of childrenOf(transport.pid)) warmReaders.add(pid);
});

await check("a long wait (the last call on the second device), cancelled, stops at once and answers RESULT_TRANSPORT_CANCELLED", async () => {
  const controller = new AbortController();
  let progress = 0;
  const started = Date.now();
  const waiting = call("wait", { selector: { text: "Never appears" }, timeoutMs: 60000, deviceId: second },
                       { signal: controller.signal, onprogress: () => { progress += 1; }, timeout: 90000 });
  setTimeout(() => controller.abort("test cancels"), 2500);
  await assert.rejects(waiting);
  let answer;
  while (!answer && Date.now() - started < 15000) {
    answer = seen.find((message) => message.result?.structuredContent?.code === "RESULT_TRANSPORT_CANCELLED");
    if (!answer) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(answer, "no RESULT_TRANSPORT_CANCELLED answer");
  assert.ok(Date.now() - started < 15000);
  assert.equal(answer.result.isError, true);
  assert.equal(answer.result.structuredContent.details.dispatchState, "dispatched");
  assert.ok(progress >= 1, "no progress notification during the wait");
});

await check("a device that disconnects mid-session is reported on the next call", async () => {
  execFileSync("adb", ["disconnect", second]);
  const started = Date.now();
  const result = await call("snapshot", { deviceId: second });
  assert.equal(result.isError, true);
  assert.ok(["DEVICE_NOT_FOUND", "DEVICE_OFFLINE"].includes(body(result).code), JSON.stringify(body(result)));
  assert.ok(Date.now() - started < 10000);
  // The other device is untouched.
  assert.equal(body(await call("snapshot", { deviceId: first })).ok, true);
});

await check("an Operator removed mid-session is reported by the next call, not timed out", async () => {
  // The first device's reader is warm and brought the Operator's last result.
  assert.equal(body(await call("snapshot", { deviceId: first })).ok, true);
  execFileSync("adb", ["-s", first, "uninstall", "com.clawperator.operator"]);
  const started = Date.now();
  const result = await call("snapshot", { deviceId: first });
  assert.equal(result.isError, true);
  assert.equal(body(result).code, "OPERATOR_NOT_INSTALLED", JSON.stringify(body(result)));
  assert.equal(body(result).disposition.retry, "safe");
  // The snapshot's own timeout is 30 s: the answer comes from the presence check.
  assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
});

await check("doctor, explain_error, devices and configure answer with a disposition too", async () => {
  const doctor = body(await call("doctor", { deviceId: second }));
  assert.deepEqual(doctor.disposition, { delivery: "not_delivered", retry: "safe" });
  const full = body(await call("doctor", { deviceId: second, full: true }));
  assert.ok(full.disposition);
  const explained = body(await call("explain_error", { code: "NO_DEVICES" }));
  assert.deepEqual(explained.disposition, { delivery: "not_delivered", retry: "safe" });
  assert.deepEqual(body(await call("devices", {})).disposition, { delivery: "not_delivered", retry: "safe" });
  assert.deepEqual(body(await call("configure", {})).disposition, { delivery: "not_delivered", retry: "safe" });
});

await check("every tool result was scanned for host paths, adb's words and its disposition", async () => {
  assert.ok(scanned > 30, `${scanned} results`);
});

await client.close();
await check("the server's end stops and reaps its warm readers", async () => {
  const until = Date.now() + 10000;
  const alive = () => [...warmReaders].filter((pid) => existsSync(`/proc/${pid}`) && isReader(pid));
  while (alive().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(alive(), []);
});
rmSync(scratch, { recursive: true, force: true });
console.log(`${passed} checks passed`);
